"""Round robin by the Berger tables (FIDE Handbook C.05, Annex 1), single or double."""

from __future__ import annotations


def berger_round(n: int, rnd: int) -> list[tuple[int, int]]:
    """Round `rnd` (1-based) for `n` players numbered 1..n: pairs (first, second), first
    placing first. An odd field adds a dummy n+1; its partner has the bye (pair with 0).
    Rounds beyond one cycle repeat it with first and second swapped (double round robin)."""
    m = n + (n % 2)
    cycle = m - 1
    r = (rnd - 1) % cycle
    swap = ((rnd - 1) // cycle) % 2 == 1
    # The standard table: in round 1, 1-m, 2-(m-1), ...; each later round rotates the
    # players 1..m-1 by m/2 places and the player m alternates sides.
    half = m // 2
    rotate = [((i - 1 + r * half) % cycle) + 1 for i in range(1, m)]
    pairs = []
    if r % 2 == 0:
        pairs.append((rotate[0], m))
    else:
        pairs.append((m, rotate[0]))
    for k in range(1, half):
        pairs.append((rotate[k], rotate[cycle - k]))
    out = []
    for a, b in pairs:
        if swap:
            a, b = b, a
        if a > n:
            out.append((b, 0))
        elif b > n:
            out.append((a, 0))
        else:
            out.append((a, b))
    return out


def berger_table(n: int, *, double: bool = False) -> list[list[tuple[int, int]]]:
    m = n + (n % 2)
    rounds = (m - 1) * (2 if double else 1)
    return [berger_round(n, r) for r in range(1, rounds + 1)]
