"""The tri-level variant: the Position of a battle on three stacked boards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from rules.board import iter_bits
from rules.errors import IllegalMoveError
from rules.position import (
    BLOCKADER,
    FLIER,
    GOAL,
    KIND_NAMES,
    MOVE_ARTICLE,
    RULESET_LAWS,
    WARRIOR_KINDS,
    Move,
    Position,
    Rules,
)
from rules.posstring import place_warrior
from rules.registry import register_variant
from rules.trilevel_board import (
    ABOVE,
    BELOW,
    CBIT,
    CELL_NAME,
    CELL_OF,
    CELLS,
    CELLS_OF_LEVEL,
    COORDINATES,
    FLOOR,
    HNB,
    INNER_BB,
    LEVEL_BB,
    LEVEL_OF,
    NCELL,
    OVER_DOWN,
    RIM_BB,
    UP_OVER,
    ZOC,
    cell,
    cell_name,
    is_cell,
    parse_cell,
)
from rules.trilevel_paths import (
    FLY_ANY,
    FLY_FLAT,
    GAITS,
    PathTable,
    fly_tables_build,
    paths,
    reaches,
)
from rules.variants import TRI_LEVEL_COMPANIONS

VARIANT: Final = "tri-level"
ARTICLE: Final = "tri-level"
# The variant may be combined only with variants that do not touch the board: the others
# (clouds, ablation, crowns, forward or honourable placement, …) are defined on the flat board.
COMPANIONS: Final = TRI_LEVEL_COMPANIONS


class TriLevelPosition(Position):
    """A battle on the tri-level board. Cells replace squares; everything else (regions,
    setup order, Goals, safety, deadlock) is the flat game's, read in three dimensions."""

    __slots__ = ()

    square_names: ClassVar[Sequence[str]] = CELL_NAME
    square_of: ClassVar[Mapping[str, int]] = CELL_OF
    # The Blockader's zone in three dimensions: its level's neighbours, above and below.
    _ZONE: ClassVar[Sequence[int]] = ZOC

    def __init__(self, rules: Rules, first: int = 0) -> None:
        super().__init__(rules, first)
        self.sq = [0] * NCELL
        fly_tables_build()

    def copy(self) -> TriLevelPosition:
        p = super().copy()
        assert isinstance(p, TriLevelPosition)
        return p

    # --- setup --------------------------------------------------------------------------------
    def _goal_squares(self, side: int) -> int:
        # A Goal in the covered squares could never be captured (nothing may enter them), so
        # it is placed on a carrier standing on the bottom board's rim.
        return super()._goal_squares(side) & RIM_BB[1]

    def _check_placement(self, move: Move, side: int, what: str) -> None:
        t = move.dest
        if not is_cell(t) or LEVEL_OF[t] != 1:
            raise IllegalMoveError.coded("tri_level_bottom", ARTICLE)
        if move.kind == GOAL and what == "goal" and FLOOR & CBIT[t]:
            raise IllegalMoveError.coded("tri_level_goal_inside", ARTICLE)
        super()._check_placement(move, side, what)

    # --- reach --------------------------------------------------------------------------------
    def _table(self, kind: int, o: int) -> PathTable:
        return paths(kind, o, self.rules.power_vanguards)

    def _dests(self, o: int, kind: int, side: int, carrying: bool = False) -> int:
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
        # Kills and captures are made face to face: by a path whose last step is horizontal.
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
            return self._blockader_dests(side, d, carrying)
        return d

    # --- safety -------------------------------------------------------------------------------
    # _attack_map below keeps in step with _jeopardy, so moves are judged from attack maps.
    _plain_safety: ClassVar[bool] = True

    def _attack_map(
        self, side: int, g: int, own: int, foes: int, dblk: int, held: bool
    ) -> tuple[int, int]:
        """_jeopardy as a map (see Position._attack_map): each attacker with an open path,
        and every cell of the paths looked at (with the zone around the Goal for a
        Blockader)."""
        a = 1 - side
        dzoc = ZOC[dblk] if dblk >= 0 else 0
        if CBIT[g] & dzoc:
            return 0, 0
        blocked = own | foes | dzoc
        sq = self.sq
        power = self.rules.power_vanguards
        att = read = 0
        for o in iter_bits(foes):
            kind = sq[o] & 7
            if kind == FLIER:
                if FLY_FLAT[o] & CBIT[g]:
                    att |= CBIT[o]
                continue
            if kind == BLOCKADER and held:
                continue
            entry = paths(kind, o, power).get(g)
            if entry is None:
                continue
            for m in entry[1]:
                read |= m
            if all(m & blocked for m in entry[1]):
                continue
            if kind == BLOCKADER:
                ag = self.goal[a]
                read |= ZOC[g]
                if ZOC[g] & (own | dzoc | (CBIT[ag] if ag >= 0 else 0)):
                    continue
            att |= CBIT[o]
        return att, read

    def _jeopardy(
        self, side: int, g: int, own: int, foes: int, keep: int, dblk: int, held: bool, holes: int
    ) -> bool:
        a = 1 - side
        dzoc = ZOC[dblk] if dblk >= 0 else 0
        if CBIT[g] & dzoc:
            return False
        blocked = own | foes | dzoc
        sq = self.sq
        power = self.rules.power_vanguards
        for o in iter_bits(foes & keep):
            kind = sq[o] & 7
            if kind == FLIER:
                if FLY_FLAT[o] & CBIT[g]:
                    return True
                continue
            if kind == BLOCKADER and held:
                continue
            # Captures are face to face: only paths ending with a horizontal step count.
            entry = paths(kind, o, power).get(g)
            if entry is None or all(m & blocked for m in entry[1]):
                continue
            if kind == BLOCKADER:
                ag = self.goal[a]
                if ZOC[g] & (own | dzoc | (CBIT[ag] if ag >= 0 else 0)):
                    continue
            return True
        return False

    # --- checking -----------------------------------------------------------------------------
    def _check_mover(self, side: int, move: Move) -> int:
        # The board's own checks come around the flat game's: both ends must be cells, and
        # the move may not enter the covered floor (a move onto its own cell is refused by
        # the flat game's rule 3.7 instead).
        o, t = move.origin, move.dest
        assert o is not None
        if not is_cell(o) or not is_cell(t):
            raise IllegalMoveError.coded("tri_level_no_cell", ARTICLE)
        kind = super()._check_mover(side, move)
        if t != o and CBIT[t] & FLOOR:
            raise IllegalMoveError.coded("tri_level_inside_closed", ARTICLE)
        return kind

    def _check_path(self, side: int, move: Move, kind: int, zone: int) -> None:
        o, t = move.origin, move.dest
        assert o is not None
        enemy = 1 - side
        kill = bool(self.occ[enemy] & CBIT[t]) or self.goal[enemy] == t
        name, tn = KIND_NAMES[kind], CELL_NAME[t]
        power = self.rules.power_vanguards
        if not reaches(kind, o, t, 0, False, power):
            self._explain_out_of_reach(kind, o, t)
        if kill and not reaches(kind, o, t, 0, True, power):
            raise IllegalMoveError.coded("tri_level_vertical_kill", ARTICLE, kind=name, dest=tn)
        if reaches(kind, o, t, self.occ[0] | self.occ[1] | zone, kill, power):
            return
        if reaches(kind, o, t, zone, kill, power):
            raise IllegalMoveError.coded("path_blocked", MOVE_ARTICLE[kind], kind=name, dest=tn)
        raise IllegalMoveError.coded(
            "path_crosses_zone", "3.5", kind=name, dest=tn, owner="the enemy Blockader's"
        )

    def _explain_out_of_reach(self, kind: int, o: int, t: int) -> None:
        """Raise the reason a warrior cannot reach `t` from `o` even on an empty board."""
        name = KIND_NAMES[kind]
        lo, lt = LEVEL_OF[o], LEVEL_OF[t]
        gait = GAITS[kind]
        if lt < lo and not gait.down_straight:
            raise IllegalMoveError.coded("tri_level_never_down", ARTICLE, kind=name)
        if lt > lo + 1 and gait.climb == 1:
            raise IllegalMoveError.coded("tri_level_climb", ARTICLE, kind=name)
        article = MOVE_ARTICLE[kind] if lt == lo else ARTICLE
        raise IllegalMoveError.coded(
            "cannot_move", article, kind=name, origin=CELL_NAME[o], dest=CELL_NAME[t]
        )

    # --- identity -----------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return type(other) is type(self) and super().__eq__(other)

    def __hash__(self) -> int:
        return super().__hash__()


# --- building positions for tests and tools ---------------------------------------------------
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
    the Goals' cells; `ply` 20 is the first battle move. ValueError for a bad item."""
    pos = TriLevelPosition(rules or Rules(RULESET_LAWS, frozenset({VARIANT})), first)
    pos.ply = ply
    for side, text in enumerate((green, gold)):
        for item in (x.strip() for x in text.split(",")):
            if item:
                place_warrior(pos, side, item)
    for side, gtext in enumerate((green_goal, gold_goal)):
        if gtext:
            pos.goal[side] = parse_cell(gtext)
    return pos


# The board's names are exported from here too, where they lived before trilevel_board.py.
__all__ = [
    "ABOVE",
    "BELOW",
    "CELLS",
    "CELLS_OF_LEVEL",
    "CELL_NAME",
    "CELL_OF",
    "FLOOR",
    "HNB",
    "INNER_BB",
    "LEVEL_BB",
    "LEVEL_OF",
    "OVER_DOWN",
    "UP_OVER",
    "WARRIOR_KINDS",
    "TriLevelPosition",
    "build",
    "cell",
    "cell_name",
    "parse_cell",
]

register_variant("tri-level", TriLevelPosition, coordinates=COORDINATES)
