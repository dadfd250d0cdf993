"""The tri-level board's geometry: cells and levels, neighbours, zones of control and names."""

from __future__ import annotations

from typing import Final

from rules.board import APEX, DESCRIPTIVE, NAME, NB, NSQ, SQUARES, Coordinates, iter_bits
from rules.board import ijk as flat_ijk

LEVELS: Final = (1, 2, 3)
# Each level is the flat board's padded layout shifted by a whole board, so a cell's level and
# the bottom-board triangle it stands over are one divmod away, level-1 cells keep the flat
# board's square numbers (regions, names and placement carry over unchanged) and "straight up"
# is always +NSQ.
NCELL: Final = 3 * NSQ


def cell(level: int, sq: int) -> int:
    """The cell of `level` (1-3) standing over the bottom board's square `sq`."""
    return (level - 1) * NSQ + sq


def height(sq: int) -> int:
    """How many levels stand over a bottom-board square (1-3).

    Level L+1 covers exactly the squares of level L that touch no edge of level L, even at a
    corner: for level 1 those are the 36 squares with min(i, j, k) >= 1 (a triangle of 6 per
    edge), for level 2 the 9 with min >= 2 (3 per edge), which is why the levels have 9, 6
    and 3 triangles per edge."""
    return min(min(flat_ijk(sq)), 2) + 1


LEVEL_OF: list[int] = [0] * NCELL
FLAT_OF: list[int] = [-1] * NCELL
CBIT: list[int] = [0] * NCELL
CELLS_OF_LEVEL: dict[int, tuple[int, ...]] = {}
LEVEL_BB: dict[int, int] = {}
for _lv in LEVELS:
    _cells = tuple(cell(_lv, s) for s in SQUARES if height(s) >= _lv)
    CELLS_OF_LEVEL[_lv] = _cells
    LEVEL_BB[_lv] = 0
    for _c in _cells:
        LEVEL_OF[_c] = _lv
        FLAT_OF[_c] = _c - (_lv - 1) * NSQ
        CBIT[_c] = 1 << _c
        LEVEL_BB[_lv] |= 1 << _c
CELLS: Final[tuple[int, ...]] = CELLS_OF_LEVEL[1] + CELLS_OF_LEVEL[2] + CELLS_OF_LEVEL[3]
ALL_BB: Final = LEVEL_BB[1] | LEVEL_BB[2] | LEVEL_BB[3]


def is_cell(c: int) -> bool:
    return 0 <= c < NCELL and LEVEL_OF[c] != 0


def is_inner(c: int) -> bool:
    """Whether a cell is covered by the level above it (the text's INNER SPACE)."""
    lv = LEVEL_OF[c]
    return lv < 3 and height(FLAT_OF[c]) > lv


INNER_BB: dict[int, int] = {
    lv: sum(CBIT[c] for c in CELLS_OF_LEVEL[lv] if is_inner(c)) for lv in LEVELS
}
RIM_BB: dict[int, int] = {lv: LEVEL_BB[lv] & ~INNER_BB[lv] for lv in LEVELS}
# The bottom board's covered squares: warriors may be placed there, nothing enters them later.
FLOOR: Final = INNER_BB[1]

ABOVE: list[int] = [-1] * NCELL
BELOW: list[int] = [-1] * NCELL
HNB: list[tuple[int, ...]] = [()] * NCELL
HNB_BB: list[int] = [0] * NCELL
# HNB with the coordinates each step keeps (see _eq), for walking straight lines.
HSTEPS: list[tuple[tuple[int, int], ...]] = [()] * NCELL
for _c in CELLS:
    _lv, _s = LEVEL_OF[_c], FLAT_OF[_c]
    if is_inner(_c):
        ABOVE[_c] = _c + NSQ
    if _lv > 1:
        BELOW[_c] = _c - NSQ
    HNB[_c] = tuple(cell(_lv, n) for n in iter_bits(NB[_s]) if height(n) >= _lv)
    HNB_BB[_c] = sum(CBIT[n] for n in HNB[_c])


def _eq(a: int, b: int) -> int:
    """Which of the coordinates i, j, k two neighbouring squares share, as bits 1, 2, 4.

    A straight line keeps one coordinate (rules.md §1); the levels' lattices are translates of
    one another, so the same bits describe a strip on any level."""
    ca, cb = flat_ijk(a), flat_ijk(b)
    return sum(1 << x for x in range(3) if ca[x] == cb[x])


for _c in CELLS:
    HSTEPS[_c] = tuple((n, _eq(FLAT_OF[_c], FLAT_OF[n])) for n in HNB[_c])

# Up-and-over (rim to rim, two steps): from a rim cell, up into the air beside the next board,
# then over onto a cell of that board sharing an edge with the air column. Only rim cells
# bordering the covered area have such a cell; the others must walk to one first.
UP_OVER: list[tuple[tuple[int, int], ...]] = [()] * NCELL
# Over-and-down, its reverse (only the Flier goes down rim to rim).
OVER_DOWN: list[tuple[tuple[int, int], ...]] = [()] * NCELL
for _c in CELLS:
    _lv, _s = LEVEL_OF[_c], FLAT_OF[_c]
    if _lv < 3 and not is_inner(_c):
        UP_OVER[_c] = tuple(
            (cell(_lv + 1, n), _eq(_s, n)) for n in iter_bits(NB[_s]) if height(n) > _lv
        )
    if _lv > 1 and height(_s) == _lv:
        OVER_DOWN[_c] = tuple(
            (cell(_lv - 1, r), _eq(_s, r)) for r in iter_bits(NB[_s]) if height(r) == _lv - 1
        )

# The Blockader's zone in three dimensions: its neighbours on its level and the cells
# directly above and below it.
ZOC: list[int] = [0] * NCELL
for _c in CELLS:
    ZOC[_c] = HNB_BB[_c]
    if ABOVE[_c] >= 0:
        ZOC[_c] |= CBIT[ABOVE[_c]]
    if BELOW[_c] >= 0:
        ZOC[_c] |= CBIT[BELOW[_c]]


# --- names ------------------------------------------------------------------------------------
def cell_name(c: int, *, descriptive: bool = False, seat: int = APEX) -> str:
    """A cell's name: the name of the bottom-board triangle it stands over, with a level
    prefix `2:` or `3:` above the bottom level (`E37`, `2:E37`, `3:E37` are a column)."""
    s = FLAT_OF[c]
    base = DESCRIPTIVE[seat][s] if descriptive else NAME[s]
    lv = LEVEL_OF[c]
    return base if lv == 1 else f"{lv}:{base}"


def _names(descriptive: bool, seat: int) -> dict[str, int]:
    table: dict[str, int] = {}
    for c in CELLS:
        name = cell_name(c, descriptive=descriptive, seat=seat)
        table[name] = c
        if LEVEL_OF[c] == 1:
            table["1:" + name] = c
    return table


CELL_OF: Final[dict[str, int]] = _names(False, APEX)
CELL_NAME: list[str] = [""] * NCELL
for _c in CELLS:
    CELL_NAME[_c] = cell_name(_c)
_TABLES: dict[tuple[bool, int], dict[str, int]] = {(False, APEX): CELL_OF}


def name_table(*, descriptive: bool = False, seat: int = APEX) -> dict[str, int]:
    """Upper-case cell names -> cells for a coordinate system (`1:` prefixes accepted too)."""
    key = (descriptive, seat)
    table = _TABLES.get(key)
    if table is None:
        table = _names(descriptive, seat)
        _TABLES[key] = table
    return table


def parse_cell(text: str, *, descriptive: bool = False, seat: int = APEX) -> int:
    """The cell named by `text` (`E37`, `2:E37`, …); ValueError when there is none."""
    c = name_table(descriptive=descriptive, seat=seat).get(text.strip().upper())
    if c is None:
        raise ValueError(f"no tri-level cell named {text!r}")
    return c


# How records of tri-level battles write cells (rules/engines.py hands it to the notation).
COORDINATES: Final = Coordinates(
    lambda c, descriptive, seat: cell_name(c, descriptive=descriptive, seat=seat),
    lambda descriptive, seat: name_table(descriptive=descriptive, seat=seat),
)
