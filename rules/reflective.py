"""The Reflective Variation (Art. 13.7): one squad, one Goal, every other piece an enemy."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Final

from rules.board import (
    BIT,
    BOARD,
    BORDER_BB,
    FORWARD_REGION_BB,
    NAME,
    NB,
    REGION_BB,
    neighbours_bb,
)
from rules.errors import IllegalMoveError
from rules.position import (
    BLOCKADER,
    FENCER,
    IS_CARRIER,
    LANCER,
    NO_SQUARE,
    SQUAD,
    VANGUARD,
    Move,
    Position,
    Rules,
)
from rules.registry import register_variant
from rules.variants import REFUSED, combination_reason

# Nine warriors and the Goal: the setup is ten plies, then the battle.
SETUP_PLIES: Final = 10
CARRIER_KINDS: Final = (FENCER, LANCER, VANGUARD)


def check_combination(variants: Iterable[str], crown: int = -1) -> None:
    """Raise IllegalMoveError (Art. 13) when `variants` name reflective with a variant it
    cannot be played with. `crown` is the designated apex (Rules.crown, -1 when not named)."""
    reason = combination_reason(variants, crown >= 0)
    if reason is not None:
        raise IllegalMoveError(reason, "13")


class ReflectivePosition(Position):
    """A reflective position. The single squad is stored as the first placer's colour (it
    chose the colour, Art. 2.4): `occ[first]`, `kbb[first]`, `blk[first]` and `goal[first]`
    hold every warrior, the Blockader and the combined Goal; the other colour's entries stay
    empty. Sides in `stage()`, `Outcome.winner` and `crowned` are combatants, not pieces.
    Once the Goal is captured it is recorded as the loser's (`goal[loser] = CAPTURED`)."""

    __slots__ = ()

    # The one Blockader belongs to both combatants: its zone is no enemy's.
    _ZONE_OWNER: ClassVar[str] = "the Blockader's"

    def __init__(self, rules: Rules, first: int = 0) -> None:
        check_combination(rules.variants, rules.crown)
        super().__init__(rules, first)

    def copy(self) -> ReflectivePosition:
        # No state of its own: the base copies everything, as this class.
        p = super().copy()
        assert isinstance(p, ReflectivePosition)
        return p

    # --- whose ply and what kind ------------------------------------------------------------
    def stage(self) -> tuple[int, str]:
        """13.7's 2.5/2.6: ply 1 a carrier and ply 2 the Goal on it, both by the first placer;
        then the combatants alternate placing, the second placer first; the battle then
        starts with the first placer (Art. 2.7)."""
        ply = self.ply
        first = self.first
        if ply >= SETUP_PLIES:
            return (first if ply % 2 == 0 else 1 - first), "battle"
        if ply == 0:
            return first, "warrior"
        if ply == 1:
            return first, "goal"
        return (1 - first if ply % 2 == 0 else first), "warrior"

    @property
    def in_battle(self) -> bool:
        return self.ply >= SETUP_PLIES

    def completes_setup(self) -> bool:
        """Whether the next ply is its placer's last placement, which completes that side's
        setup, its move 1 for the clock (Art. 6.7): ply 9 for the second placer, ply 10 for
        the first."""
        return self.ply in (SETUP_PLIES - 2, SETUP_PLIES - 1)

    def check_parsed(self) -> None:
        """Raise IllegalMoveError when a position string put pieces where this variant has
        none: everything belongs to the first placer's colour."""
        other = 1 - self.first
        if self.occ[other] or self.region[other] >= 0 or self.goal[other] >= 0:
            raise IllegalMoveError.coded("reflective_one_squad", "13.7")
        g = self.goal[self.first]
        if g >= 0 and self.sq[g] and not IS_CARRIER[self.sq[g] & 7]:
            raise IllegalMoveError.coded("reflective_goal_shared", "13.7", square=NAME[g])

    # --- setup --------------------------------------------------------------------------------
    def _region_table(self) -> list[int]:
        return FORWARD_REGION_BB if self.rules.forward else REGION_BB

    def _shared_placement_squares(self) -> int:
        """Empty squares of a region that holds every warrior placed so far (13.7's 2.5: both
        combatants place the one squad into one region)."""
        occ = self.occ[self.first]
        allowed = 0
        for bb in self._region_table():
            if not occ & ~bb:
                allowed |= bb
        return allowed & ~occ

    def _kind_squares(self, kind: int) -> int:
        """Squares where a warrior of `kind` may be placed now (0 when none is left)."""
        squad = self.first
        if self.ply == 0:
            if not IS_CARRIER[kind]:
                return 0
            # The Goal goes on this triangle next, and a Goal may not lie in a cloud.
            return self._shared_placement_squares() & ~self.rules.cloud_bb
        if self.kbb[squad][kind].bit_count() >= SQUAD[kind]:
            return 0
        squares = self._shared_placement_squares()
        if kind == BLOCKADER:
            # A Goal may never lie in a zone of control; here the Goal came first.
            squares &= ~NB[self.goal[squad]]
        return squares

    def _check_goal_placement(self, t: int, side: int, what: str) -> None:
        if what == "goal":
            if not self.occ[self.first] & BIT[t]:
                raise IllegalMoveError.coded("reflective_goal_with_first", "13.7")
            return
        if self.ply == 0:
            raise IllegalMoveError.coded("reflective_goal_comes_first", "13.7")
        raise IllegalMoveError.coded("reflective_goal_placed", "13.7")

    def _check_warrior_placement(self, kind: int, t: int, side: int, what: str) -> None:
        squad = self.first
        if what == "goal":
            raise IllegalMoveError.coded("reflective_goal_before_other", "13.7")
        if self.ply == 0 and not IS_CARRIER[kind]:
            raise IllegalMoveError.coded("reflective_first_carrier", "13.7")
        self._check_room(squad, kind, t)
        tb = BIT[t]
        if not self._shared_placement_squares() & tb:
            if BORDER_BB & tb and not self.rules.forward:
                raise IllegalMoveError.coded("border_triangle", "2.2", square=NAME[t])
            raise IllegalMoveError.coded("reflective_outside_region", "13.7", square=NAME[t])
        if self.ply == 0 and self.rules.cloud_bb & tb:
            raise IllegalMoveError.coded("reflective_first_in_cloud", "13.4")
        if kind == BLOCKADER and NB[t] & BIT[self.goal[squad]]:
            raise IllegalMoveError.coded("reflective_blockader_by_goal", "3.6")

    # --- battle moves: every other warrior is an enemy, so the hooks see no friends -------------
    def _colour(self, side: int) -> int:
        return self.first

    def _holder(self, side: int) -> int:
        # Pieces have no side here: whoever moves commands the carrier on the one Goal.
        g = self.goal[self.first]
        return g if g >= 0 and IS_CARRIER[self.sq[g] & 7] else NO_SQUARE

    def _movable(self, side: int) -> int:
        return self.occ[self.first]

    def _placement_moves_bb(self, side: int, kind: int) -> int:
        return self._kind_squares(kind)

    def _placement_by_kind(self) -> bool:
        return True

    def _goal_squares(self, side: int) -> int:
        return self.occ[self.first]

    def _goal_to_capture(self, side: int) -> int:
        # The one Goal is everyone's (its carrier never ends a move on its own triangle).
        return self.goal[self.first]

    def _dests(self, o: int, kind: int, side: int, carrying: bool = False) -> int:
        """Legal destinations of the warrior on `o`, carrying aside: every other warrior is
        an enemy, and the Blockader's zone blocks everyone but the Blockader (13.7's 3.1)."""
        squad = self.first
        occ = self.occ[squad]
        b = self.blk[squad]
        holes = self.holes
        if kind == BLOCKADER:
            passable = BOARD & ~(occ | holes)
            d = self._reach(o, kind, passable) & ~holes & ~occ
            return self._zones_clear(d, (occ & ~BIT[o]) | self._goal_bb())
        zoc = NB[b] if b >= 0 else 0
        passable = BOARD & ~(occ | zoc | holes)
        d = self._reach(o, kind, passable) & ~zoc & ~holes
        if b >= 0:
            d &= ~BIT[b]
        clouds = self.rules.cloud_bb
        if clouds:
            d &= ~(clouds & occ)
        return d

    def _goal_bb(self) -> int:
        g = self.goal[self.first]
        return BIT[g] if g >= 0 else 0

    def _check_mover(self, side: int, move: Move) -> int:
        o = move.origin
        assert o is not None
        if not self.sq[o]:
            raise IllegalMoveError.coded("reflective_no_warrior_on", "3.1", square=NAME[o])
        return super()._check_mover(self.first, move)

    def _sides(self, side: int, kind: int) -> tuple[int, int, int]:
        # The Blockader's zone bars every warrior but the Blockader itself.
        return 0, self.occ[self.first], NO_SQUARE if kind == BLOCKADER else self.blk[self.first]

    def _check_blockader_move(self, side: int, move: Move, foes: int, zone: int) -> None:
        o, t = move.origin, move.dest
        assert o is not None
        if foes & BIT[t]:
            raise IllegalMoveError.coded("blockader_kills_nothing", "3.11.4")
        z = NB[t]
        if z & foes & ~BIT[o]:
            raise IllegalMoveError.coded("reflective_blockader_warrior_in_zone", "3.11.4")
        if z & self._goal_bb():
            raise IllegalMoveError.coded("blockader_goal_in_zone", "3.11.4")

    def _settle_goals(self, side: int, move: Move) -> None:
        squad = self.first
        if move.carry:
            self.goal[squad] = move.dest
        elif self.goal[squad] == move.dest:
            # The one Goal is captured: it is recorded as the loser's (see the class).
            self.goal[squad] = NO_SQUARE
            self._capture(side)

    # --- safety -------------------------------------------------------------------------------
    def goal_capturable(self) -> bool:
        """Whether the combatant to move could capture the Goal now. Both combatants command
        the same warriors, so this does not depend on who moves."""
        squad = self.first
        g = self.goal[squad]
        if g < 0 or self.outcome is not None:
            return False
        gb = BIT[g]
        occ = self.occ[squad]
        b = self.blk[squad]
        holes = self.holes
        held = bool(self.sq[g])
        if held and self.rules.cloud_bb & gb:
            return False
        r1 = NB[g]
        if b >= 0 and not held:
            # The Blockader captures a lying Goal: 1-2 steps, its own zone no obstacle, and
            # no warrior but itself beside the Goal afterwards.
            passable_b = BOARD & ~(occ | holes)
            if BIT[b] & (r1 | neighbours_bb(r1 & passable_b)) and not r1 & occ & ~BIT[b]:
                return True
        if gb & holes:
            return False
        # The others strike as in the flat game, the Blockader's zone barring them all; the
        # position's one squad plays the attacker (so the empty colour is the "defender").
        attackers = occ & ~gb & ~(BIT[b] if b >= 0 else 0)
        return self._jeopardy(1 - squad, g, 0, occ, attackers, b, held, holes)

    def is_in_jeopardy(self, side: int) -> bool:
        """The Goal is everyone's: it is in jeopardy when the next mover could capture it."""
        return self.goal_capturable()

    def is_battle_move_safe(self, side: int, o: int, t: int, kind: int, carry: bool) -> bool:
        """Art. 3.9 read for one shared Goal: a move is safe when it captures the Goal or
        leaves the opponent no capture of it on their next move."""
        return self._safe_by_playing(side, Move(o, t, kind, carry))

    def _needs_safety_check(self) -> bool:
        return self.stage()[1] == "battle"


__all__ = ["REFUSED", "ReflectivePosition", "check_combination", "combination_reason"]

register_variant("reflective", ReflectivePosition)
