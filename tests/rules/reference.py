"""Slow, literal readings of rules.md used to cross-check the engine: the board's geometry
derived from first principles (§1), and the legal battle moves and jeopardy (§3-5)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.board import SQUARE_OF
from rules.position import (
    BLOCKADER,
    FENCER,
    FLIER,
    IS_CARRIER,
    LANCER,
    SWIFT,
    VANGUARD,
    Position,
)

# --- the board from first principles (rules.md §1) ------------------------------------------
# Every triangle is drawn on a lattice: row r (1 = A, the apex) lies between y = r - 1 and
# y = r, and x counts half sides from the vertical through the apex, so every corner has
# whole coordinates. Nothing here reads the engine's tables: names, strips and neighbours all
# come from the corners.
Corner = tuple[int, int]
ROWS = "ABCDEFGHI"


def _corners(r: int, p: int) -> frozenset[Corner]:
    """The corners of the triangle at position p (0 = west) of row r (1-9): even positions
    point up, odd ones point down between two up triangles."""
    x = 2 * (p // 2) - (r - 1)
    if p % 2 == 0:
        return frozenset({(x, r - 1), (x - 1, r), (x + 1, r)})
    return frozenset({(x, r - 1), (x + 2, r - 1), (x + 1, r)})


def _name(r: int, corners: frozenset[Corner]) -> str:
    """rules.md §1's name: row, then the first diagonal's strip (parallel to the left edge,
    where x + y is constant, 1 touching that edge) and the second's (parallel to the right
    edge, where y - x is constant, 9 touching that edge); each strip is two half sides wide."""
    d1 = max(x + y for x, y in corners) // 2
    d2 = 10 - max(y - x for x, y in corners) // 2
    return f"{ROWS[r - 1]}{d1}{d2}"


TRIANGLES: dict[str, frozenset[Corner]] = {
    _name(r, c): c for r in range(1, 10) for c in (_corners(r, p) for p in range(2 * r - 1))
}
# (row, first diagonal, second diagonal) of each triangle, read back from its name.
STRIPS: dict[str, tuple[int, int, int]] = {
    n: (ROWS.index(n[0]) + 1, int(n[1]), int(n[2])) for n in TRIANGLES
}


def neighbour_table() -> dict[str, frozenset[str]]:
    """Each triangle's neighbours: the triangles sharing an edge, two corners (Art. 3.2)."""
    return {
        a: frozenset(b for b, cb in TRIANGLES.items() if len(ca & cb) == 2)
        for a, ca in TRIANGLES.items()
    }


NEIGHBOUR_NAMES: dict[str, frozenset[str]] = neighbour_table()


def neighbour_differences(
    table: Mapping[str, Iterable[str]], reference: Mapping[str, Iterable[str]] = NEIGHBOUR_NAMES
) -> list[str]:
    """Every way `table` (triangle name -> neighbour names) differs from `reference`: a
    triangle missing or extra, and each neighbour missing or extra; empty when they agree."""
    out = [f"{n}: not in the table" for n in sorted(set(reference) - set(table))]
    out += [f"{n}: no such triangle" for n in sorted(set(table) - set(reference))]
    for n in sorted(set(table) & set(reference)):
        got, want = set(table[n]), set(reference[n])
        out += [f"{n}: lacks neighbour {m}" for m in sorted(want - got)]
        out += [f"{n}: has {m}, not a neighbour" for m in sorted(got - want)]
    return out


def straight_names(path: Iterable[str]) -> bool:
    """rules.md §1: a path (origin first) is straight when it keeps one strip, the row or a
    diagonal, and never visits a triangle twice."""
    names = list(path)
    if len(set(names)) != len(names):
        return False
    return any(len({STRIPS[n][c] for n in names}) == 1 for c in range(3))


def ray_table() -> dict[str, set[tuple[str, ...]]]:
    """Each triangle's straight lines: from each neighbour, along each strip the two share,
    to the edge of the board."""
    out: dict[str, set[tuple[str, ...]]] = {}
    for origin in TRIANGLES:
        rays = set()
        for first in NEIGHBOUR_NAMES[origin]:
            for c in range(3):
                if STRIPS[first][c] != STRIPS[origin][c]:
                    continue
                ray, prev, cur = [first], origin, first
                while True:
                    ahead = [
                        n
                        for n in NEIGHBOUR_NAMES[cur]
                        if n != prev and STRIPS[n][c] == STRIPS[origin][c]
                    ]
                    if not ahead:
                        break
                    prev, cur = cur, ahead[0]
                    ray.append(cur)
                rays.add(tuple(ray))
        out[origin] = rays
    return out


# The same, by the engine's square numbers (the names are the contract between the two).
NEIGHBOURS: dict[int, tuple[int, ...]] = {
    SQUARE_OF[n]: tuple(sorted(SQUARE_OF[m] for m in ns)) for n, ns in NEIGHBOUR_NAMES.items()
}
_NAME_OF: dict[int, str] = {SQUARE_OF[n]: n for n in TRIANGLES}


def ijk(sq: int) -> tuple[int, int, int]:
    """rules.md §1's integer form of a square: i = 9 - row, j = d1 - 1, k = 9 - d2."""
    row, d1, d2 = STRIPS[_NAME_OF[sq]]
    return 9 - row, d1 - 1, 9 - d2


def is_straight(path: tuple[int, ...]) -> bool:
    """straight_names for squares."""
    return straight_names(_NAME_OF[s] for s in path)


# --- moves, literally (rules.md §3-5) --------------------------------------------------------
STEPS = {
    VANGUARD: (1, 1, False),
    FENCER: (1, 3, False),
    LANCER: (1, 3, True),
    SWIFT: (2, 4, False),
    FLIER: (3, 6, True),
    BLOCKADER: (1, 2, False),
}


def _paths(origin: int, lo: int, hi: int, straight: bool) -> list[tuple[int, ...]]:
    """Every simple path (origin excluded) of lo..hi steps, straight or any."""
    out: list[tuple[int, ...]] = []

    def walk(path: list[int]) -> None:
        steps = len(path) - 1
        if steps >= lo:
            out.append(tuple(path[1:]))
        if steps == hi:
            return
        for n in NEIGHBOURS[path[-1]]:
            if n in path:
                continue
            new = path + [n]
            if straight and not is_straight(tuple(new)):
                continue
            walk(new)

    walk([origin])
    return out


def zoc(pos: Position, side: int) -> set[int]:
    b = pos.blk[side]
    return set(NEIGHBOURS[b]) if b >= 0 else set()


def legal_battle_moves(pos: Position) -> set[tuple[int, int, bool]]:
    side = pos.turn
    enemy = 1 - side
    ezoc = zoc(pos, enemy)
    allzoc = ezoc | zoc(pos, side)
    out: set[tuple[int, int, bool]] = set()
    holes = set(pos.ablated)
    clouds = set(pos.rules.clouds) if "clouded" in pos.rules.variants else set()
    for o in range(len(pos.sq)):
        code = pos.sq[o]
        if not code or code >> 3 != side:
            continue
        kind = code & 7
        lo, hi, straight = STEPS[kind]
        if kind == VANGUARD and "power-vanguards" in pos.rules.variants:
            lo, hi, straight = 1, 2, False
        for path in _paths(o, lo, hi, straight):
            t = path[-1]
            if kind != FLIER and any(pos.sq[s] or s in ezoc or s in holes for s in path[:-1]):
                continue
            if t in holes:
                continue
            target = pos.piece_at(t)
            if target and t in clouds:
                continue
            if target and target[0] == side:
                continue
            if t in ezoc or t == pos.blk[enemy]:
                continue
            if kind == BLOCKADER:
                if target:
                    continue
                if pos.goal[side] == t:
                    continue
                z = set(NEIGHBOURS[t])
                if any(pos.sq[s] and pos.sq[s] >> 3 == enemy for s in z):
                    continue
                if any(g in z for g in pos.goal if g >= 0):
                    continue
                if z & ezoc:
                    continue
            out.add((o, t, False))
            if pos.goal[side] == o and IS_CARRIER[kind] and t not in allzoc and t not in clouds:
                out.add((o, t, True))
    return out


def in_jeopardy(pos: Position, side: int) -> bool:
    g = pos.goal[side]
    if g < 0:
        return False
    other = pos.copy()
    other.ply += 1  # hand the move to the attacker
    if other.turn == side:
        other.ply += 1
    return any(t == g for (_o, t, _c) in legal_battle_moves(other))
