"""Board geometry of the Grand Triangle: squares, names, neighbours, lines, regions, bitboards."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Final

# Squares are indexed in a padded layout: row r0 (0 = row A, 8 = row I) and position p
# (0 = west end of the row) map to r0 * WIDTH + p. With WIDTH > 17 a horizontal neighbour
# is always +-1 and a vertical neighbour always +-(WIDTH + 1), so neighbour sets of whole
# bitboards are a handful of shifts and masks.
WIDTH: Final = 18
VSHIFT: Final = WIDTH + 1
ROWS: Final = "ABCDEFGHI"

APEX: Final = 0
WEST: Final = 1
EAST: Final = 2
REGION_NAMES: Final = ("apex", "west", "east")
SEATS: Final = REGION_NAMES


def _sq(r0: int, p: int) -> int:
    return r0 * WIDTH + p


SQUARES: Final[tuple[int, ...]] = tuple(_sq(r0, p) for r0 in range(9) for p in range(2 * r0 + 1))
NSQ: Final = 9 * WIDTH

IJK: list[tuple[int, int, int] | None] = [None] * NSQ
IS_UP: list[bool] = [False] * NSQ
NAME: list[str] = [""] * NSQ
BIT: list[int] = [0] * NSQ
for _r0 in range(9):
    for _p in range(2 * _r0 + 1):
        _s = _sq(_r0, _p)
        _i = 8 - _r0
        _j = _p // 2
        _up = _p % 2 == 0
        _k = (8 if _up else 7) - _i - _j
        IJK[_s] = (_i, _j, _k)
        IS_UP[_s] = _up
        NAME[_s] = f"{ROWS[_r0]}{_j + 1}{9 - _k}"
        BIT[_s] = 1 << _s

SQUARE_OF: Final[dict[str, int]] = {NAME[s]: s for s in SQUARES}
BOARD: Final = sum(BIT[s] for s in SQUARES)
UP_MASK: Final = sum(BIT[s] for s in SQUARES if IS_UP[s])
DOWN_MASK: Final = BOARD & ~UP_MASK


def ijk(sq: int) -> tuple[int, int, int]:
    """The integer coordinates (i, j, k) of a square."""
    c = IJK[sq]
    if c is None:
        raise ValueError(f"not a square: {sq}")
    return c


def neighbours_bb(bb: int) -> int:
    """All squares sharing an edge with any square of the bitboard."""
    return (
        (bb << 1) | (bb >> 1) | ((bb & UP_MASK) << VSHIFT) | ((bb & DOWN_MASK) >> VSHIFT)
    ) & BOARD


def iter_bits(bb: int) -> Iterator[int]:
    """The squares of a bitboard, lowest first, one at a time (a loop may stop early)."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


NEIGHBOURS: list[tuple[int, ...]] = [()] * NSQ
NB: list[int] = [0] * NSQ
for _s in SQUARES:
    NB[_s] = neighbours_bb(BIT[_s])
    NEIGHBOURS[_s] = tuple(iter_bits(NB[_s]))


def _ray(origin: int, first: int, keep: int) -> tuple[int, ...]:
    """The straight path from origin through neighbour first keeping coordinate `keep` fixed."""
    path = [first]
    prev, cur = origin, first
    cur_ijk = ijk(cur)
    while True:
        nxt = None
        for n in NEIGHBOURS[cur]:
            if n != prev and ijk(n)[keep] == cur_ijk[keep]:
                nxt = n
                break
        if nxt is None:
            return tuple(path)
        path.append(nxt)
        prev, cur = cur, nxt
        cur_ijk = ijk(cur)


# RAYS[s]: the (up to six) straight lines leaving s, each as the squares in order.
RAYS: list[tuple[tuple[int, ...], ...]] = [()] * NSQ
for _s in SQUARES:
    _rays = []
    _o = ijk(_s)
    for _n in NEIGHBOURS[_s]:
        _c = ijk(_n)
        for _keep in range(3):
            if _c[_keep] == _o[_keep]:
                _rays.append(_ray(_s, _n, _keep))
    RAYS[_s] = tuple(_rays)


def _ray_mask(sq: int, lo: int, hi: int) -> int:
    m = 0
    for ray in RAYS[sq]:
        for step, s in enumerate(ray, start=1):
            if lo <= step <= hi:
                m |= BIT[s]
    return m


# Flier reach (3 to 6 steps straight, flying over everything).
FLY: list[int] = [0] * NSQ
for _s in SQUARES:
    FLY[_s] = _ray_mask(_s, 3, 6)


def region_of(sq: int) -> int | None:
    """The setup region holding a square (APEX, WEST, EAST), None for a border square."""
    i, j, k = ijk(sq)
    top = max(i, j, k)
    if (i, j, k).count(top) > 1:
        return None
    return APEX if i == top else (EAST if j == top else WEST)


def border_regions(sq: int) -> tuple[int, ...]:
    """The regions a border square lies between (empty for a square inside a region)."""
    i, j, k = ijk(sq)
    top = max(i, j, k)
    if (i, j, k).count(top) == 1:
        return ()
    out = []
    if i == top:
        out.append(APEX)
    if k == top:
        out.append(WEST)
    if j == top:
        out.append(EAST)
    return tuple(out)


REGION: list[int | None] = [None] * NSQ
REGION_BB: list[int] = [0, 0, 0]
BORDER_BB = 0
for _s in SQUARES:
    _reg = region_of(_s)
    REGION[_s] = _reg
    if _reg is None:
        BORDER_BB |= BIT[_s]
    else:
        REGION_BB[_reg] |= BIT[_s]
# Forward placement (Art. 13.5): border squares shared by the two neighbouring regions.
FORWARD_REGION_BB: list[int] = list(REGION_BB)
for _s in SQUARES:
    for _reg in border_regions(_s):
        FORWARD_REGION_BB[_reg] |= BIT[_s]

CORNER: Final = (SQUARE_OF["A19"], SQUARE_OF["I11"], SQUARE_OF["I99"])


# --- descriptive notation (Art. 2.10, Appendix B) -------------------------------------------
def _rotate(c: tuple[int, int, int], seat: int) -> tuple[int, int, int]:
    # Turn the board so the seat's corner is on top; the apex seat is the identity.
    i, j, k = c
    if seat == WEST:
        return (k, i, j)
    if seat == EAST:
        return (j, k, i)
    return c


def _descriptive(sq: int, seat: int) -> str:
    i, j, _k = _rotate(ijk(sq), seat)
    r0 = 8 - i
    # Turning the board keeps a triangle pointing the same way relative to its row.
    p = 2 * j + (0 if IS_UP[sq] else 1)
    # Numbered from the placer's left, who faces the far edge from the top corner.
    return f"{ROWS[r0]}{2 * r0 + 1 - p}"


DESCRIPTIVE: list[list[str]] = [[""] * NSQ for _ in range(3)]
DESCRIPTIVE_OF: list[dict[str, int]] = [{}, {}, {}]
for _seat in range(3):
    for _s in SQUARES:
        _name = _descriptive(_s, _seat)
        DESCRIPTIVE[_seat][_s] = _name
        DESCRIPTIVE_OF[_seat][_name] = _s


def parse_square(text: str, *, descriptive: bool = False, seat: int = APEX) -> int:
    """The square named by `text` (geometric like E37, or descriptive like E5)."""
    key = text.strip().upper()
    table = DESCRIPTIVE_OF[seat] if descriptive else SQUARE_OF
    try:
        return table[key]
    except KeyError:
        kind = "descriptive" if descriptive else "geometric"
        raise ValueError(f"no triangle named {text!r} in {kind} notation") from None


def square_name(sq: int, *, descriptive: bool = False, seat: int = APEX) -> str:
    """The name of a square in geometric or descriptive notation."""
    return DESCRIPTIVE[seat][sq] if descriptive else NAME[sq]


def is_straight(path: tuple[int, ...]) -> bool:
    """Whether consecutive squares (origin first) run along one strip without turning back."""
    if len(path) < 2:
        return True
    coords = [ijk(s) for s in path]
    return any(all(c[keep] == coords[0][keep] for c in coords) for keep in range(3)) and len(
        set(path)
    ) == len(path)


@dataclass(frozen=True, slots=True)
class Coordinates:
    """How a board's squares are written in records: `name(square, descriptive, seat)` in
    geometric or descriptive notation, and `table(descriptive, seat)` reading the upper-case
    names back."""

    name: Callable[[int, bool, int], str]
    table: Callable[[bool, int], Mapping[str, int]]


FLAT_COORDINATES: Final = Coordinates(
    lambda sq, descriptive, seat: DESCRIPTIVE[seat][sq] if descriptive else NAME[sq],
    lambda descriptive, seat: DESCRIPTIVE_OF[seat] if descriptive else SQUARE_OF,
)
