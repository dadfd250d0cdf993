"""Float history in a Swiss pairing (FIDE C.04.3 C14-C17): what a pair costs in floats
repeated, read from each player's past floats (`PairingPlayer.floats`), and the swaps of
players alike in everything else that repeat fewer."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from tournaments.pairing.base import PairingPlayer

Pair = tuple[PairingPlayer, PairingPlayer]
Allowed = Callable[[PairingPlayer, PairingPlayer], bool]
# What a pair costs by every criterion before the floats (lower is better).
Cost = Callable[[PairingPlayer, PairingPlayer], int]

# The same float as in the last round weighs more than one as two rounds before (C14 and
# C15 before C16 and C17).
_LAST, _BEFORE = 3, 1
# How many players of one score are tried in place of one who repeats a float.
_SCAN = 200


def float_repeats(a: PairingPlayer, b: PairingPlayer) -> int:
    """What pairing `a` with `b` costs in floats repeated: the higher score floats down, the
    lower up; each that floated so in the last round, or two rounds before, counts."""
    if a.score == b.score:
        return 0
    high, low = (a, b) if a.score > b.score else (b, a)
    return _repeats(high.floats, "D") + _repeats(low.floats, "U")


def _repeats(floats: tuple[str, ...], now: str) -> int:
    cost = _LAST if floats[-1:] == (now,) else 0
    return cost + (_BEFORE if floats[-2:-1] == (now,) else 0)


def floats_polish(
    pairs: list[Pair], *, ok: Allowed, cost: Cost, nobody: PairingPlayer | None = None
) -> list[Pair]:
    """`pairs` with players of one score swapped between two pairs wherever that repeats
    fewer floats and costs no more by the criteria before them (`cost`): the floats decide
    last, as in the Dutch system. `nobody` is the bye's partner: the bye is a downfloat
    (FIDE C.04.3 A.4: no game played)."""
    pairs = list(pairs)
    where: dict[int, int] = {}
    level: dict[float, list[PairingPlayer]] = defaultdict(list)
    for i, ab in enumerate(pairs):
        for p in ab:
            if p is not nobody:
                where[p.id] = i
                level[p.score].append(p)

    for players in level.values():
        players.sort(key=lambda p: p.rank)

    def repeats(p: PairingPlayer, q: PairingPlayer) -> int:
        if q is nobody:
            return _repeats(p.floats, "D")
        return _repeats(q.floats, "D") if p is nobody else float_repeats(p, q)

    for i in range(len(pairs)):
        for side in (0, 1):
            x, y = pairs[i][side], pairs[i][1 - side]
            if x is nobody or not repeats(x, y):
                continue
            # As the Dutch system floats them: the lowest ranked down (or to the bye), the
            # highest ranked up.
            up = y is not nobody and y.score > x.score
            alike = level[x.score]
            for x2 in alike[:_SCAN] if up else alike[: -_SCAN - 1 : -1]:
                j = where[x2.id]
                if j == i:
                    continue
                a2, b2 = pairs[j]
                y2 = b2 if a2 is x2 else a2
                if repeats(x2, y) + repeats(x, y2) >= repeats(x, y) + repeats(x2, y2):
                    continue
                if cost(x2, y) + cost(x, y2) > cost(x, y) + cost(x2, y2):
                    continue
                if ok(x2, y) and ok(x, y2):
                    pairs[i], pairs[j] = (x2, y), (x, y2)
                    where[x2.id], where[x.id] = i, j
                    break
    return pairs
