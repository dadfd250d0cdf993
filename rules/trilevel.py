"""The tri-level variant: three stacked boards, moves up and down, its cells and Position."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rules.board import APEX, DESCRIPTIVE, NAME, NB, NSQ, SQUARES, iter_bits
from rules.board import ijk as flat_ijk
from rules.errors import IllegalMoveError
from rules.position import (
    BLOCKADER,
    FENCER,
    FLIER,
    GOAL,
    IS_CARRIER,
    KIND_NAMES,
    LANCER,
    MOVE_ARTICLE,
    SQUAD,
    SWIFT,
    VANGUARD,
    WARRIOR_KINDS,
    Move,
    Outcome,
    Position,
    Rules,
)

VARIANT: Final = "tri-level"
ARTICLE: Final = "tri-level"
LEVELS: Final = (1, 2, 3)
# Each level is the flat board's padded layout shifted by a whole board, so a cell's level and
# the bottom-board triangle it stands over are one divmod away, level-1 cells keep the flat
# board's square numbers (regions, names and placement carry over unchanged) and "straight up"
# is always +NSQ.
NCELL: Final = 3 * NSQ
# The variant may be combined only with variants that do not touch the board: the others
# (clouds, ablation, crowns, forward or honourable placement, …) are defined on the flat board.
COMPANIONS: Final = frozenset({VARIANT, "alternating-placement", "power-vanguards"})


def cell(level: int, sq: int) -> int:
    """The cell of `level` (1-3) standing over the bottom board's square `sq`."""
    return (level - 1) * NSQ + sq


def _height(sq: int) -> int:
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
    _cells = tuple(cell(_lv, s) for s in SQUARES if _height(s) >= _lv)
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
    return lv < 3 and _height(FLAT_OF[c]) > lv


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
    HNB[_c] = tuple(cell(_lv, n) for n in iter_bits(NB[_s]) if _height(n) >= _lv)
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
            (cell(_lv + 1, n), _eq(_s, n)) for n in iter_bits(NB[_s]) if _height(n) > _lv
        )
    if _lv > 1 and _height(_s) == _lv:
        OVER_DOWN[_c] = tuple(
            (cell(_lv - 1, r), _eq(_s, r)) for r in iter_bits(NB[_s]) if _height(r) == _lv - 1
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


# --- paths ------------------------------------------------------------------------------------
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
    any_masks: dict[int, set[int]] = {}
    h_masks: dict[int, set[int]] = {}

    def walk(c: int, steps: int, ups: int, keep: int, seen: int, mid: int, flat: bool) -> None:
        if steps >= gait.low:
            any_masks.setdefault(c, set()).add(mid)
            if flat:
                h_masks.setdefault(c, set()).add(mid)
        if steps >= gait.high:
            return
        inner = 0 if gait.flies or not steps else mid | CBIT[c]
        for n, eq in HSTEPS[c]:
            nb = CBIT[n]
            if seen & nb or nb & FLOOR:
                continue
            k2 = keep & eq if gait.straight else 7
            if k2:
                walk(n, steps + 1, ups, k2, seen | nb, inner, True)
        if ups < gait.climb:
            a = ABOVE[c]
            if a >= 0 and not seen & CBIT[a]:
                walk(a, steps + 1, ups + 1, 7, seen | CBIT[a], inner, False)
            if steps + 2 <= gait.high:
                for n, eq in UP_OVER[c]:
                    if not seen & CBIT[n]:
                        walk(n, steps + 2, ups + 1, eq, seen | CBIT[n], inner, True)
        if gait.down_straight:
            b = BELOW[c]
            if b >= 0 and not (seen | FLOOR) & CBIT[b]:
                walk(b, steps + 1, ups, 7, seen | CBIT[b], inner, False)
        if gait.down_over and steps + 2 <= gait.high:
            for r, eq in OVER_DOWN[c]:
                rb = CBIT[r]
                if seen & rb or rb & FLOOR:
                    continue
                if not gait.straight or keep & eq:
                    walk(r, steps + 2, ups, 7, seen | rb, inner, False)

    walk(origin, 0, 0, 7, CBIT[origin], 0, False)
    out: PathTable = {}
    for t, masks in any_masks.items():
        if t != origin:
            out[t] = (_minimal(masks), _minimal(h_masks.get(t, set())))
    return out


_PATHS: dict[tuple[int, int], PathTable] = {}


def paths(kind: int, origin: int, power: bool = False) -> PathTable:
    """enumerate_paths for a warrior kind, computed once per (kind, origin)."""
    key = (POWER_VANGUARD if power and kind == VANGUARD else kind, origin)
    table = _PATHS.get(key)
    if table is None:
        table = enumerate_paths(origin, (GAITS_POWER if power else GAITS)[kind])
        _PATHS[key] = table
    return table


# The Flier flies over everything, so its destinations depend on the origin alone.
FLY_ANY: list[int] = [0] * NCELL
FLY_FLAT: list[int] = [0] * NCELL
for _c in CELLS:
    for _t, (_many, _mflat) in paths(FLIER, _c).items():
        FLY_ANY[_c] |= CBIT[_t]
        if _mflat:
            FLY_FLAT[_c] |= CBIT[_t]


# --- the position -----------------------------------------------------------------------------
class TriLevelPosition(Position):
    """A battle on the tri-level board. Cells replace squares; everything else (regions,
    setup order, Goals, safety, deadlock) is the flat game's, read in three dimensions."""

    __slots__ = ()

    def __init__(self, rules: Rules, first: int = 0) -> None:
        super().__init__(rules, first)
        self.sq = [0] * NCELL

    def copy(self) -> TriLevelPosition:
        p = super().copy()
        assert isinstance(p, TriLevelPosition)
        return p

    # --- zones and reach ----------------------------------------------------------------------
    def _all_zoc(self) -> int:
        z = 0
        for b in self.blk:
            if b >= 0:
                z |= ZOC[b]
        return z

    def _goal_forbidden(self) -> int:
        return self._all_zoc()

    def _goal_squares(self, side: int) -> int:
        # A Goal in the covered squares could never be captured (nothing may enter them), so
        # it is placed on a carrier standing on the bottom board's rim.
        kb = self.kbb[side]
        return (kb[FENCER] | kb[LANCER] | kb[VANGUARD]) & RIM_BB[1] & ~self._all_zoc()

    def _table(self, kind: int, o: int) -> PathTable:
        return paths(kind, o, self.rules.power_vanguards)

    def _dests(self, o: int, kind: int, side: int) -> int:
        """Legal destinations of the warrior of `side` on `o`, carrying aside."""
        enemy = 1 - side
        own = self.occ[side]
        opp = self.occ[enemy]
        eb = self.blk[enemy]
        ezoc = ZOC[eb] if eb >= 0 else 0
        ok = ~(own | ezoc | FLOOR)
        if eb >= 0:
            ok &= ~CBIT[eb]
        eg = self.goal[enemy]
        kills = opp | (CBIT[eg] if eg >= 0 else 0)
        if kind == FLIER:
            d = ((FLY_ANY[o] & ~kills) | (FLY_FLAT[o] & kills)) & ok
        else:
            blocked = own | opp | ezoc
            d = 0
            for t, (many, mflat) in self._table(kind, o).items():
                tb = CBIT[t]
                if not tb & ok:
                    continue
                for m in mflat if tb & kills else many:
                    if not m & blocked:
                        d |= tb
                        break
        if kind == BLOCKADER:
            d &= ~opp
            g = self.goal[side]
            if g >= 0:
                d &= ~CBIT[g]
            bad = opp | self.goals_bb() | ezoc
            for t in iter_bits(d):
                if ZOC[t] & bad:
                    d &= ~CBIT[t]
        return d

    def goals_bb(self) -> int:
        g = 0
        for s in self.goal:
            if s >= 0:
                g |= CBIT[s]
        return g

    # --- generation ---------------------------------------------------------------------------
    # --- applying -----------------------------------------------------------------------------
    def push(self, move: Move) -> None:
        if move.origin is not None:
            self.push_battle_move(self.stage()[0], move)
            return
        # Placements happen on the bottom board, whose cells are the flat board's squares.
        super().push(move)

    def push_battle_move(self, side: int, move: Move) -> None:
        o = move.origin
        assert o is not None
        t = move.dest
        enemy = 1 - side
        sq = self.sq
        code = sq[o]
        kind = code & 7
        ob, tb = CBIT[o], CBIT[t]
        victim = sq[t]
        if victim:
            self.occ[enemy] &= ~tb
            self.kbb[enemy][victim & 7] &= ~tb
        sq[o] = 0
        sq[t] = code
        self.occ[side] ^= ob | tb
        self.kbb[side][kind] ^= ob | tb
        if kind == BLOCKADER:
            self.blk[side] = t
        if move.carry:
            self.goal[side] = t
        if self.goal[enemy] == t:
            self.goal[enemy] = -2
            self.outcome = Outcome("capture", side)
        self.ply += 1

    # --- safety -------------------------------------------------------------------------------
    def _capturable(
        self, side: int, g: int, occ_def: int, occ_att: int, dblk: int, g_held: bool
    ) -> bool:
        """Whether the attacker (not `side`), its warriors on `occ_att`, can capture a Goal on
        `g` when the defender's warriors stand on `occ_def` and its Blockader on `dblk`."""
        a = 1 - side
        dzoc = ZOC[dblk] if dblk >= 0 else 0
        gb = CBIT[g]
        if gb & dzoc:
            return False
        blocked = occ_def | occ_att | dzoc
        sq = self.sq
        for o in iter_bits(occ_att):
            kind = sq[o] & 7
            if kind == FLIER:
                if FLY_FLAT[o] & gb:
                    return True
                continue
            if kind == BLOCKADER and g_held:
                continue
            entry = self._table(kind, o).get(g)
            if entry is None or not any(not m & blocked for m in entry[1]):
                continue
            if kind == BLOCKADER:
                ag = self.goal[a]
                bad = occ_def | dzoc | (CBIT[ag] if ag >= 0 else 0)
                if ZOC[g] & bad:
                    continue
            return True
        return False

    def is_in_jeopardy(self, side: int) -> bool:
        g = self.goal[side]
        if g < 0:
            return False
        return self._capturable(
            side, g, self.occ[side], self.occ[1 - side], self.blk[side], self.sq[g] != 0
        )

    def is_battle_move_safe(self, side: int, o: int, t: int, kind: int, carry: bool) -> bool:
        enemy = 1 - side
        if self.goal[enemy] == t:
            return True
        g = self.goal[side]
        if g < 0:
            return True
        tb = CBIT[t]
        if carry:
            g, held = t, True
        elif g == o:
            held = False
        elif g == t:
            held = True
        else:
            held = self.sq[g] != 0
        return not self._capturable(
            side,
            g,
            (self.occ[side] & ~CBIT[o]) | tb,
            self.occ[enemy] & ~tb,
            t if kind == BLOCKADER else self.blk[side],
            held,
        )

    def is_safe(self, move: Move) -> bool:
        return super().is_safe(move)

    # --- checking -----------------------------------------------------------------------------
    def check_move(self, move: Move) -> None:
        if self.outcome is not None:
            raise IllegalMoveError("ply follows the end of the battle", "5.1")
        side, what = self.stage()
        if move.origin is None:
            t = move.dest
            if not is_cell(t) or LEVEL_OF[t] != 1:
                raise IllegalMoveError("warriors and Goals are placed on the bottom level", ARTICLE)
            if move.kind == GOAL and what == "goal" and FLOOR & CBIT[t]:
                raise IllegalMoveError(
                    "a Goal may not be placed in the bottom level's covered (inner) space, "
                    "where nothing could ever capture it",
                    ARTICLE,
                )
            self._check_placement(move, side, what)
            return
        if what != "battle":
            raise IllegalMoveError(
                "a warrior moves before setup is complete", "2.7" if what == "goal" else "2.5"
            )
        self.check_battle_move(side, move)

    def _reaches(self, kind: int, o: int, t: int, blocked: int, flat_last: bool) -> bool:
        if kind == FLIER:
            return bool((FLY_FLAT if flat_last else FLY_ANY)[o] & CBIT[t])
        entry = self._table(kind, o).get(t)
        if entry is None:
            return False
        return any(not m & blocked for m in entry[1 if flat_last else 0])

    def check_battle_move(self, side: int, move: Move) -> None:
        o, t = move.origin, move.dest
        assert o is not None
        if not is_cell(o) or not is_cell(t):
            raise IllegalMoveError("no such cell on the tri-level board", ARTICLE)
        code = self.sq[o]
        on, tn = CELL_NAME[o], CELL_NAME[t]
        if not code or code >> 3 != side:
            raise IllegalMoveError(f"no warrior of the side to move on {on}", "3.1")
        kind = code & 7
        if move.kind != kind:
            raise IllegalMoveError(
                f"the warrior on {on} is a {KIND_NAMES[kind]}, not a {KIND_NAMES[move.kind]}",
                "Appendix C",
            )
        holds = self.goal[side] == o and IS_CARRIER[kind]
        if move.carry and not holds:
            if not IS_CARRIER[kind]:
                raise IllegalMoveError(f"a {KIND_NAMES[kind]} cannot carry the Goal", "2.8")
            raise IllegalMoveError(f"the {KIND_NAMES[kind]} on {on} holds no Goal", "3.11.1")
        enemy = 1 - side
        eb = self.blk[enemy]
        ezoc = ZOC[eb] if eb >= 0 else 0
        tb = CBIT[t]
        if t == o:
            raise IllegalMoveError("a move must leave its triangle", "3.7")
        if tb & FLOOR:
            raise IllegalMoveError(
                "no piece may enter the bottom level's covered (inner) space once the battle "
                "has begun",
                ARTICLE,
            )
        if self.occ[side] & tb:
            raise IllegalMoveError("destination holds a warrior of the mover's side", "3.3")
        if eb == t:
            raise IllegalMoveError("nothing kills a Blockader", "3.11.4")
        if ezoc & tb:
            raise IllegalMoveError("destination is in the enemy Blockader's zone of control", "3.5")
        eg = self.goal[enemy]
        kill = bool(self.occ[enemy] & tb) or eg == t
        name = KIND_NAMES[kind]
        if not self._reaches(kind, o, t, 0, False):
            self._explain_out_of_reach(kind, o, t)
        if kill and not self._reaches(kind, o, t, 0, True):
            raise IllegalMoveError(
                f"the {name} reaches {tn} only by a vertical step: kills and captures are "
                "made only horizontally, face to face",
                ARTICLE,
            )
        occ_all = self.occ[0] | self.occ[1]
        if not self._reaches(kind, o, t, occ_all | ezoc, kill):
            if self._reaches(kind, o, t, ezoc, kill):
                raise IllegalMoveError(f"the {name}'s path to {tn} is blocked", MOVE_ARTICLE[kind])
            raise IllegalMoveError(
                f"the {name}'s path to {tn} crosses the enemy Blockader's zone of control", "3.5"
            )
        if kind == BLOCKADER:
            if self.occ[enemy] & tb:
                raise IllegalMoveError("a Blockader kills nothing", "3.11.4")
            if self.goal[side] == t:
                raise IllegalMoveError("a Blockader may not end on its own Goal", "3.11.4")
            self._check_blockader_end(side, ZOC[t], ezoc, self.goals_bb())
        if move.carry and tb & self._all_zoc():
            raise IllegalMoveError(
                "a carried Goal may not end in a Blockader's zone of control", "3.6"
            )

    def _explain_out_of_reach(self, kind: int, o: int, t: int) -> None:
        """Raise the reason a warrior cannot reach `t` from `o` even on an empty board."""
        name = KIND_NAMES[kind]
        lo, lt = LEVEL_OF[o], LEVEL_OF[t]
        gait = GAITS[kind]
        if lt < lo and not gait.down_straight:
            raise IllegalMoveError(f"a {name} never moves down; only Fliers and Swifts do", ARTICLE)
        if lt > lo + 1 and gait.climb == 1:
            raise IllegalMoveError(f"a {name} climbs one level a move", ARTICLE)
        article = MOVE_ARTICLE[kind] if lt == lo else ARTICLE
        raise IllegalMoveError(
            f"a {name} cannot move from {CELL_NAME[o]} to {CELL_NAME[t]}", article
        )

    # --- identity -----------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return type(other) is type(self) and super().__eq__(other)

    def __hash__(self) -> int:
        return super().__hash__()


# --- building positions for tests and tools ---------------------------------------------------
_KEY_KIND: Final = {
    "fe": FENCER,
    "l": LANCER,
    "s": SWIFT,
    "fl": FLIER,
    "v": VANGUARD,
    "b": BLOCKADER,
}


def build(
    green: str,
    gold: str,
    *,
    green_goal: str = "",
    gold_goal: str = "",
    first: int = 0,
    ply: int = 20,
    rules: Rules | None = None,
) -> TriLevelPosition:
    """A position from lists of warriors like `FeE37,L2:E37` (English keys, any case) and
    the Goals' cells; `ply` 20 is the first battle move."""
    pos = TriLevelPosition(rules or Rules("laws", frozenset({VARIANT})), first)
    pos.ply = ply
    for side, text in enumerate((green, gold)):
        for item in (x.strip() for x in text.split(",")):
            if not item:
                continue
            split = 2 if item[:2].lower() in ("fe", "fl") else 1
            kind = _KEY_KIND.get(item[:split].lower())
            if kind is None:
                raise ValueError(f"unknown warrior {item!r}")
            c = parse_cell(item[split:])
            if pos.sq[c]:
                raise ValueError(f"two warriors on {item[split:]}")
            if pos.kbb[side][kind].bit_count() >= SQUAD[kind]:
                raise ValueError(f"too many of {item[:split]}")
            pos.sq[c] = side * 8 + kind
            pos.occ[side] |= CBIT[c]
            pos.kbb[side][kind] |= CBIT[c]
            if kind == BLOCKADER:
                pos.blk[side] = c
    for side, gtext in enumerate((green_goal, gold_goal)):
        if gtext:
            pos.goal[side] = parse_cell(gtext)
    return pos


__all__ = [
    "CELLS",
    "CELL_NAME",
    "CELL_OF",
    "FLOOR",
    "LEVEL_OF",
    "TriLevelPosition",
    "WARRIOR_KINDS",
    "build",
    "cell",
    "cell_name",
    "parse_cell",
]
