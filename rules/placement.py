"""Placement: which warriors and Goals go where during the setup, and why not (Art. 2, 13.8)."""

from __future__ import annotations

from rules.board import (
    BIT,
    BOARD,
    BORDER_BB,
    FORWARD_REGION_BB,
    NAME,
    NB,
    REGION,
    REGION_BB,
    iter_bits,
    neighbours_bb,
)
from rules.errors import IllegalMoveError
from rules.pieces import BLOCKADER, GOAL, KIND_NAMES, NO_SQUARE, WARRIOR_KINDS, Move
from rules.state import PositionState


class Placement(PositionState):
    """The setup's rules: the squares each warrior and Goal may be placed on, and the reasons
    a placement is refused."""

    __slots__ = ()

    def _kinds_to_place(self, side: int) -> list[int]:
        """The kinds of which `side` still has warriors to place."""
        placed = self.kbb[self._colour(side)]
        squad = self.rules.squad
        return [k for k in WARRIOR_KINDS if placed[k].bit_count() < squad[k]]

    def _placement_squares(self, side: int) -> int:
        """Empty squares where `side` may place a warrior: inside a region that holds all its
        placed warriors and leaves the enemy a different region holding all of theirs."""
        table = FORWARD_REGION_BB if self.rules.forward else REGION_BB
        mine = self.occ[side]
        theirs = self.occ[1 - side]
        # Bit r set: the squad's warriors all stand in region r (a loop, not a generator per
        # region: every placement of a record asks).
        fits_mine = fits_theirs = 0
        for r in (0, 1, 2):
            region = table[r]
            if not mine & ~region:
                fits_mine |= 1 << r
            if not theirs & ~region:
                fits_theirs |= 1 << r
        allowed = 0
        for r in (0, 1, 2):
            if fits_mine >> r & 1 and fits_theirs & ~(1 << r):
                allowed |= table[r]
        return allowed & ~(mine | theirs)

    def _region_of_squad(self, side: int) -> int:
        """The one region holding all of a squad's warriors, or NO_SQUARE while undecided."""
        table = FORWARD_REGION_BB if self.rules.forward else REGION_BB
        mine = self.occ[side]
        fits = [r for r in range(3) if mine and not mine & ~table[r]]
        return fits[0] if len(fits) == 1 else NO_SQUARE

    def _honourable(self, side: int, kind: int, t: int) -> bool:
        """Art. 13.8: after placing, no warrior stands in a zone of control, and an enemy
        Fencer could reach each of `side`'s warriors without crossing its Blockader's zone."""
        blk = self.blk[:]
        if kind == BLOCKADER:
            blk[side] = t
        zones = 0
        for b in blk:
            if b >= 0:
                zones |= NB[b]
        warriors = (self.occ[0] | self.occ[1] | BIT[t]) & ~(
            (BIT[blk[0]] if blk[0] >= 0 else 0) | (BIT[blk[1]] if blk[1] >= 0 else 0)
        )
        if warriors & zones:
            return False
        own_zone = NB[blk[side]] if blk[side] >= 0 else 0
        open_sq = BOARD & ~own_zone
        reach = BORDER_BB & open_sq
        while True:
            grown = (reach | neighbours_bb(reach)) & open_sq
            if grown == reach:
                break
            reach = grown
        mine = (self.occ[side] | BIT[t]) & ~(BIT[blk[side]] if blk[side] >= 0 else 0)
        return not mine & ~reach

    def _placement_moves_bb(self, side: int, kind: int) -> int:
        allowed = self._placement_squares(side)
        if self.rules.honor:
            ok = 0
            for t in iter_bits(allowed):
                if self._honourable(side, kind, t):
                    ok |= BIT[t]
            return ok
        return allowed

    def _placement_by_kind(self) -> bool:
        """Whether where a warrior may be placed depends on its kind (honourable placement,
        13.8), or every kind has the same squares."""
        return self.rules.honor

    def _goal_squares(self, side: int) -> int:
        """Where `side` may place its Goal: on one of its carriers, outside every zone."""
        kb = self.kbb[side]
        carriers = 0
        for kind in WARRIOR_KINDS:
            if self._CARRIER[kind]:
                carriers |= kb[kind]
        return carriers & ~self._goal_forbidden()

    def _check_room(self, colour: int, kind: int, t: int) -> None:
        """Art. 2.11, 3.3: a warrior of `kind` still to place, and an empty `t` for it."""
        if self.kbb[colour][kind].bit_count() >= self.rules.squad[kind]:
            raise IllegalMoveError.coded("kind_all_placed", "2.11", kind=KIND_NAMES[kind])
        if self.sq[t]:
            raise IllegalMoveError.coded("destination_occupied", "3.3")

    def _check_placement(self, move: Move, side: int, what: str) -> None:
        """check_move for a placement by `side` at the stage `what` of the setup."""
        if what == "battle":
            raise IllegalMoveError.coded("placement_over", "2.7")
        if move.kind == GOAL:
            self._check_goal_placement(move.dest, side, what)
        else:
            self._check_warrior_placement(move.kind, move.dest, side, what)

    def _check_goal_placement(self, t: int, side: int, what: str) -> None:
        """Art. 2.6, 3.6, 13.4: the Goal, after the warriors, on a carrier outside the zones."""
        if what != "goal":
            raise IllegalMoveError.coded("goal_after_warriors", "2.6")
        code = self.sq[t]
        if not code or code >> 3 != side or not self._CARRIER[code & 7]:
            raise IllegalMoveError.coded("goal_with_carrier", "2.6")
        if (1 << t) & self._all_zoc():
            raise IllegalMoveError.coded("goal_placed_in_zone", "3.6")
        if (1 << t) & self.rules.cloud_bb:
            raise IllegalMoveError.coded("goal_placed_in_cloud", "13.4")

    def _check_warrior_placement(self, kind: int, t: int, side: int, what: str) -> None:
        """Art. 2.2, 2.5, 2.11, 13.5, 13.8: a warrior still to place, in the squad's region."""
        if what != "warrior":
            raise IllegalMoveError.coded("goal_comes_next", "2.6")
        self._check_room(side, kind, t)
        if not self._placement_squares(side) & BIT[t]:
            if REGION[t] is None and not self.rules.forward:
                raise IllegalMoveError.coded("border_triangle", "2.2", square=NAME[t])
            if self.occ[side]:
                raise IllegalMoveError.coded("outside_region", "2.5", square=NAME[t])
            raise IllegalMoveError.coded("enemy_region", "2.5", square=NAME[t])
        if self.rules.honor and not self._honourable(side, kind, t):
            raise IllegalMoveError.coded("dishonourable_placement", "13.8")
