"""How warriors move on the tri-level board: their gaits and every path each may take."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from rules.position import BLOCKADER, FENCER, FLIER, LANCER, SWIFT, VANGUARD
from rules.trilevel_board import ABOVE, BELOW, CBIT, CELLS, FLOOR, HSTEPS, NCELL, OVER_DOWN, UP_OVER


@dataclass(frozen=True, slots=True)
class Gait:
    """How a warrior moves on the tri-level board."""

    low: int
    high: int
    straight: bool
    climb: int  # most levels climbed in one move
    down_straight: bool  # may step straight down (inner to inner)
    down_over: bool  # may go over and down (rim to rim)
    flies: bool = False  # passes over everything, so its paths' intermediates do not matter


_MANY: Final = 9
GAITS: Final[dict[int, Gait]] = {
    VANGUARD: Gait(1, 1, False, 1, False, False),
    FENCER: Gait(1, 3, False, _MANY, False, False),
    LANCER: Gait(1, 3, True, 1, False, False),
    SWIFT: Gait(2, 4, False, _MANY, True, False),
    FLIER: Gait(3, 6, True, _MANY, True, True, flies=True),
    # Two steps are always straight on the flat board; in three dimensions a vertical step
    # frees the direction, so every two-step path stays straight here too.
    BLOCKADER: Gait(1, 2, True, 1, False, False),
}
POWER_VANGUARD: Final = 8
GAITS_POWER: Final = {**GAITS, VANGUARD: Gait(1, 2, False, 1, False, False)}

# Destination -> (intermediate-cell masks of paths reaching it, the same for paths whose last
# step is horizontal), each reduced to its minimal masks.
PathTable = dict[int, tuple[tuple[int, ...], tuple[int, ...]]]


def _minimal(masks: set[int]) -> tuple[int, ...]:
    out: list[int] = []
    for m in sorted(masks, key=lambda x: (x.bit_count(), x)):
        if not any(k & m == k for k in out):
            out.append(m)
    return tuple(out)


def enumerate_paths(origin: int, gait: Gait) -> PathTable:
    """Every path `gait` allows from `origin` on the empty board, by destination.

    A path never visits a cell twice (Art. 3.7, and the text's "no return to the point of
    origin"), never enters the bottom board's covered squares, climbs at most `gait.climb`
    levels and goes down only as `gait` allows. For a straight gait the horizontal steps
    since the last vertical step keep one coordinate: "since the first referent is up there
    can be no restriction of direction for the next space moved"."""
    walker = _Walk(gait)
    walker.walk(origin, 0, 0, 7, CBIT[origin], 0, False)
    out: PathTable = {}
    for t, masks in walker.any_masks.items():
        if t != origin:
            out[t] = (_minimal(masks), _minimal(walker.h_masks.get(t, set())))
    return out


class _Walk:
    """The walk enumerate_paths makes from one origin: each step a gait allows, in turn.

    A walk's state is the cell `c` reached after `steps` steps and `ups` levels climbed,
    the coordinates a straight line still keeps (`keep`, bits 1, 2, 4 as HSTEPS gives
    them), the cells visited (`seen`) and those passed between the origin and `c` (`mid`,
    what may block the path), and whether the last step was horizontal (`flat`)."""

    __slots__ = ("any_masks", "gait", "h_masks")

    def __init__(self, gait: Gait) -> None:
        self.gait = gait
        # Destination -> the intermediate cells of each path reaching it (of those whose
        # last step is horizontal, for h_masks).
        self.any_masks: dict[int, set[int]] = {}
        self.h_masks: dict[int, set[int]] = {}

    def walk(
        self, c: int, steps: int, ups: int, keep: int, seen: int, mid: int, flat: bool
    ) -> None:
        """Note the path to `c` if it is long enough, then take every next step."""
        gait = self.gait
        if steps >= gait.low:
            self.any_masks.setdefault(c, set()).add(mid)
            if flat:
                self.h_masks.setdefault(c, set()).add(mid)
        if steps >= gait.high:
            return
        # A flier passes over everything: its paths' intermediates never block it.
        inner = 0 if gait.flies or not steps else mid | CBIT[c]
        self._across(c, steps, ups, keep, seen, inner)
        if ups < gait.climb:
            self._up(c, steps, ups, seen, inner)
        if gait.down_straight:
            self._down(c, steps, ups, seen, inner)
        if gait.down_over and steps + 2 <= gait.high:
            self._over_down(c, steps, ups, keep, seen, inner)

    def _across(self, c: int, steps: int, ups: int, keep: int, seen: int, inner: int) -> None:
        """Step to a neighbour on `c`'s level (in line, for a straight gait)."""
        straight = self.gait.straight
        for n, eq in HSTEPS[c]:
            nb = CBIT[n]
            if seen & nb or nb & FLOOR:
                continue
            k2 = keep & eq if straight else 7
            if k2:
                self.walk(n, steps + 1, ups, k2, seen | nb, inner, True)

    def _up(self, c: int, steps: int, ups: int, seen: int, inner: int) -> None:
        """Climb: straight up onto the cell above, or up and over onto the next board."""
        a = ABOVE[c]
        if a >= 0 and not seen & CBIT[a]:
            self.walk(a, steps + 1, ups + 1, 7, seen | CBIT[a], inner, False)
        if steps + 2 <= self.gait.high:
            for n, eq in UP_OVER[c]:
                if not seen & CBIT[n]:
                    self.walk(n, steps + 2, ups + 1, eq, seen | CBIT[n], inner, True)

    def _down(self, c: int, steps: int, ups: int, seen: int, inner: int) -> None:
        """Step straight down (inner to inner), never into the covered floor."""
        b = BELOW[c]
        if b >= 0 and not (seen | FLOOR) & CBIT[b]:
            self.walk(b, steps + 1, ups, 7, seen | CBIT[b], inner, False)

    def _over_down(self, c: int, steps: int, ups: int, keep: int, seen: int, inner: int) -> None:
        """Go over and down, rim to rim, onto the board below (in line, for a straight
        gait)."""
        straight = self.gait.straight
        for r, eq in OVER_DOWN[c]:
            rb = CBIT[r]
            if seen & rb or rb & FLOOR:
                continue
            if not straight or keep & eq:
                self.walk(r, steps + 2, ups, 7, seen | rb, inner, False)


_PATHS: dict[tuple[int, int], PathTable] = {}


def paths(kind: int, origin: int, power: bool = False) -> PathTable:
    """enumerate_paths for a warrior kind, computed once per (kind, origin)."""
    key = (POWER_VANGUARD if power and kind == VANGUARD else kind, origin)
    table = _PATHS.get(key)
    if table is None:
        table = enumerate_paths(origin, (GAITS_POWER if power else GAITS)[kind])
        _PATHS[key] = table
    return table


# The Flier flies over everything, so its destinations depend on the origin alone: FLY_ANY[c]
# by any path, FLY_FLAT[c] by a path whose last step is horizontal. Empty until the first
# tri-level position is made (its __init__ calls fly_tables_build): importing the engine
# builds no variant's tables, and the hot methods still read them as plain module lists.
FLY_ANY: Final[list[int]] = []
FLY_FLAT: Final[list[int]] = []


@cache
def fly_tables_build() -> None:
    """Fill FLY_ANY and FLY_FLAT (once: the cache makes every later call a no-op)."""
    fly_any = [0] * NCELL
    fly_flat = [0] * NCELL
    for c in CELLS:
        for t, (_many, flat) in paths(FLIER, c).items():
            fly_any[c] |= CBIT[t]
            if flat:
                fly_flat[c] |= CBIT[t]
    FLY_ANY[:] = fly_any
    FLY_FLAT[:] = fly_flat


def reaches(kind: int, o: int, t: int, blocked: int, flat_last: bool, power: bool) -> bool:
    """Whether a warrior of `kind` on `o` has a path to `t` avoiding the cells `blocked`
    (its last step horizontal when `flat_last`: kills and captures are face to face)."""
    if kind == FLIER:
        fly_tables_build()
        return bool((FLY_FLAT if flat_last else FLY_ANY)[o] & CBIT[t])
    entry = paths(kind, o, power).get(t)
    if entry is None:
        return False
    return any(not m & blocked for m in entry[1 if flat_last else 0])
