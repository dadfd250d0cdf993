"""The Reflective Variation (Art. 13.7): one squad, one Goal, every other piece an enemy."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from rules.board import (
    BIT,
    BOARD,
    BORDER_BB,
    FLY,
    FORWARD_REGION_BB,
    NAME,
    NB,
    REGION_BB,
    iter_bits,
    neighbours_bb,
)
from rules.errors import IllegalMoveError
from rules.position import (
    BLOCKADER,
    CAPTURED,
    FENCER,
    FLIER,
    GOAL,
    IS_CARRIER,
    KIND_NAMES,
    LANCER,
    LANCER_RAYS,
    MOVE_ARTICLE,
    NO_SQUARE,
    SQUAD,
    SWIFT,
    VANGUARD,
    WARRIOR_KINDS,
    Move,
    Outcome,
    Position,
    Rules,
)

# Nine warriors and the Goal: the setup is ten plies, then the battle.
SETUP_PLIES: Final = 10
CARRIER_KINDS: Final = (FENCER, LANCER, VANGUARD)

# Variants whose text cannot be read together with 13.7, and why.
REFUSED: Final = {
    "alternating-placement": (
        "13.1 and 13.7 each rewrite Art. 2.5; reflective placement already alternates"
    ),
    "honor-in-setup": (
        "13.8 and 13.7 each rewrite Art. 2.5; 13.8 places two squads in separate regions"
    ),
    "kinta": "13.9 rewrites movement and combat for two squads of live pieces",
    "tri-level": "the three-level board has its own squads and setup",
}


def combination_reason(variants: Iterable[str], crown_named: bool = False) -> str | None:
    """Why `variants` cannot be played together with reflective, or None. `crown_named`
    tells whether Kagga's Crown has its designated apex named (a Crown tag)."""
    named = frozenset(variants)
    if "reflective" not in named:
        return None
    refused = sorted(named & REFUSED.keys())
    if refused:
        return f"reflective cannot be combined with {refused[0]}: {REFUSED[refused[0]]}"
    if "kaggas-crown" in named and not crown_named:
        # 13.3's default is "the region empty during placement"; under 13.7 two are empty.
        return (
            "reflective with kaggas-crown needs the designated apex in a Crown tag: "
            "two regions are empty during reflective placement"
        )
    return None


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

    def holds_goal(self, side: int, sq: int) -> bool:
        """Whether a carrier stands on the Goal's triangle (pieces have no side here)."""
        return self.goal[self.first] == sq and IS_CARRIER[self.sq[sq] & 7]

    def decoration(self, move: Move, side: int) -> tuple[bool, int | None, bool]:
        """(kill mark, destination key, '!') for Appendix C: every other warrior is an
        enemy, and so is the Goal unless the mover carries it."""
        if move.origin is None:
            return False, None, False
        t = move.dest
        capture = self.goal[self.first] == t and not move.carry
        code = self.sq[t]
        if code:
            return True, code & 7, capture
        if capture:
            return True, GOAL, True
        return False, None, False

    def check_parsed(self) -> None:
        """Raise IllegalMoveError when a position string put pieces where this variant has
        none: everything belongs to the first placer's colour."""
        other = 1 - self.first
        if self.occ[other] or self.region[other] >= 0 or self.goal[other] >= 0:
            raise IllegalMoveError(
                "a reflective position has one squad, written under the first placer's colour",
                "13.7",
            )
        g = self.goal[self.first]
        if g >= 0 and self.sq[g] and not IS_CARRIER[self.sq[g] & 7]:
            raise IllegalMoveError(
                f"the Goal on {NAME[g]} shares a triangle with a warrior that cannot hold it",
                "13.7",
            )

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

    def _check_placement(self, move: Move, side: int, what: str) -> None:
        t = move.dest
        squad = self.first
        if what == "battle":
            raise IllegalMoveError("placement is over; a warrior must move", "2.7")
        if what == "goal":
            if move.kind != GOAL:
                raise IllegalMoveError(
                    "the Goal is placed with the first warrior, before any other (2.6 as 13.7 "
                    "reads it)",
                    "13.7",
                )
            if not self.occ[squad] & BIT[t]:
                raise IllegalMoveError(
                    "the Goal must be placed with the first warrior placed (2.6 as 13.7 reads it)",
                    "13.7",
                )
            return
        if move.kind == GOAL:
            if self.ply == 0:
                raise IllegalMoveError(
                    "the Goal is placed with the first warrior, which comes first (2.5 as 13.7 "
                    "reads it)",
                    "13.7",
                )
            raise IllegalMoveError("the Goal is already placed", "13.7")
        if self.ply == 0 and not IS_CARRIER[move.kind]:
            raise IllegalMoveError(
                "the first warrior placed must be a carrier, to hold the Goal (2.6 as 13.7 "
                "reads it)",
                "13.7",
            )
        if self.kbb[squad][move.kind].bit_count() >= SQUAD[move.kind]:
            raise IllegalMoveError(
                f"all of the squad's {KIND_NAMES[move.kind]}s are already placed", "2.11"
            )
        tb = BIT[t]
        if self.sq[t]:
            raise IllegalMoveError("destination is occupied", "3.3")
        if not self._shared_placement_squares() & tb:
            if BORDER_BB & tb and not self.rules.forward:
                raise IllegalMoveError(
                    f"{NAME[t]} is a border triangle, not used for placement", "2.2"
                )
            raise IllegalMoveError(
                f"{NAME[t]} is outside the one region the squad is placed in (2.5 as 13.7 "
                "reads it)",
                "13.7",
            )
        if self.ply == 0 and self.rules.cloud_bb & tb:
            raise IllegalMoveError(
                "the first warrior holds the Goal, and a Goal may not be placed in a cloud", "13.4"
            )
        if move.kind == BLOCKADER and NB[t] & BIT[self.goal[squad]]:
            raise IllegalMoveError(
                "a Blockader may not be placed with the Goal in its zone of control", "3.6"
            )

    # --- battle moves -------------------------------------------------------------------------
    def _rdests(self, o: int, kind: int) -> int:
        """Legal destinations of the warrior on `o`, carrying aside: every other warrior is
        an enemy, and the Blockader's zone blocks everyone but the Blockader (13.7's 3.1)."""
        squad = self.first
        occ = self.occ[squad]
        b = self.blk[squad]
        holes = self.holes
        if kind == BLOCKADER:
            passable = BOARD & ~(occ | holes)
            d = self._reach(o, kind, passable) & ~holes & ~occ
            bad = (occ & ~BIT[o]) | self._goal_bb()
            ok = 0
            dd = d
            while dd:
                tb = dd & -dd
                dd ^= tb
                if not NB[tb.bit_length() - 1] & bad:
                    ok |= tb
            return ok
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

    def generate_legal_moves(self) -> list[Move]:
        if self.outcome is not None:
            return []
        _side, what = self.stage()
        squad = self.first
        if what == "warrior":
            out = []
            for kind in WARRIOR_KINDS:
                for t in iter_bits(self._kind_squares(kind)):
                    out.append(Move(None, t, kind))
            return out
        if what == "goal":
            return [Move(None, s, GOAL) for s in iter_bits(self.occ[squad])]
        moves = []
        g = self.goal[squad]
        for o in iter_bits(self.occ[squad]):
            kind = self.sq[o] & 7
            d = self._rdests(o, kind)
            for t in iter_bits(d):
                moves.append(Move(o, t, kind))
            if o == g and IS_CARRIER[kind]:
                for t in iter_bits(d & ~self._goal_forbidden()):
                    moves.append(Move(o, t, kind, True))
        return moves

    def count_legal_moves(self) -> int:
        if self.outcome is not None:
            return 0
        _side, what = self.stage()
        squad = self.first
        if what == "warrior":
            return sum(self._kind_squares(k).bit_count() for k in WARRIOR_KINDS)
        if what == "goal":
            return self.occ[squad].bit_count()
        n = 0
        g = self.goal[squad]
        for o in iter_bits(self.occ[squad]):
            kind = self.sq[o] & 7
            d = self._rdests(o, kind)
            n += d.bit_count()
            if o == g and IS_CARRIER[kind]:
                n += (d & ~self._goal_forbidden()).bit_count()
        return n

    def check_battle_move(self, side: int, move: Move) -> None:
        o, t = move.origin, move.dest
        assert o is not None
        squad = self.first
        code = self.sq[o]
        if not code:
            raise IllegalMoveError(f"no warrior on {NAME[o]}", "3.1")
        kind = code & 7
        if move.kind != kind:
            raise IllegalMoveError(
                f"the warrior on {NAME[o]} is a {KIND_NAMES[kind]}, not a {KIND_NAMES[move.kind]}",
                "Appendix C",
            )
        if move.carry and not (self.goal[squad] == o and IS_CARRIER[kind]):
            if not IS_CARRIER[kind]:
                raise IllegalMoveError(f"a {KIND_NAMES[kind]} cannot carry the Goal", "2.8")
            raise IllegalMoveError(f"the {KIND_NAMES[kind]} on {NAME[o]} holds no Goal", "3.11.1")
        if t == o:
            raise IllegalMoveError("a move must leave its triangle", "3.7")
        occ = self.occ[squad]
        b = self.blk[squad]
        tb = BIT[t]
        blockader = kind == BLOCKADER
        zoc = NB[b] if b >= 0 and not blockader else 0
        if not blockader and b == t:
            raise IllegalMoveError("nothing kills a Blockader", "3.11.4")
        if zoc & tb:
            raise IllegalMoveError("destination is in the Blockader's zone of control", "3.5")
        if self.holes & tb:
            raise IllegalMoveError(f"{NAME[t]} is ablated", "13.6")
        if self.rules.cloud_bb & tb & occ:
            raise IllegalMoveError("a warrior in a cloud cannot be killed", "13.4")
        open_board = BOARD & ~self.holes
        passable = open_board & ~(occ | zoc)
        if not self._reach(o, kind, passable) & tb:
            if self._reach(o, kind, open_board) & tb:
                if self._reach(o, kind, open_board & ~zoc) & tb:
                    raise IllegalMoveError(
                        f"the {KIND_NAMES[kind]}'s path to {NAME[t]} is blocked", MOVE_ARTICLE[kind]
                    )
                raise IllegalMoveError(
                    f"the {KIND_NAMES[kind]}'s path to {NAME[t]} crosses the Blockader's zone "
                    "of control",
                    "3.5",
                )
            raise IllegalMoveError(
                f"a {KIND_NAMES[kind]} cannot move from {NAME[o]} to {NAME[t]}",
                MOVE_ARTICLE[kind],
            )
        if blockader:
            if occ & tb:
                raise IllegalMoveError("a Blockader kills nothing", "3.11.4")
            z = NB[t]
            if z & occ & ~BIT[o]:
                raise IllegalMoveError(
                    "a Blockader may not end with a warrior in its zone of control (every "
                    "other warrior is its enemy, 13.7)",
                    "3.11.4",
                )
            if z & self._goal_bb():
                raise IllegalMoveError(
                    "a Blockader may not end with a Goal in its zone of control", "3.11.4"
                )
        if move.carry and tb & self._all_zoc():
            raise IllegalMoveError(
                "a carried Goal may not end in a Blockader's zone of control", "3.6"
            )
        if move.carry and tb & self.rules.cloud_bb:
            raise IllegalMoveError("the Goal may not be moved into a cloud", "13.4")

    # --- applying -----------------------------------------------------------------------------
    def push(self, move: Move) -> None:
        side = self.stage()[0]
        if move.origin is not None:
            self.push_battle_move(side, move)
            return
        squad = self.first
        t = move.dest
        if move.kind == GOAL:
            self.goal[squad] = t
        else:
            self.sq[t] = squad * 8 + move.kind
            self.occ[squad] |= BIT[t]
            self.kbb[squad][move.kind] |= BIT[t]
            if move.kind == BLOCKADER:
                self.blk[squad] = t
            if self.region[squad] < 0:
                self.region[squad] = self._region_of_squad(squad)
        self.ply += 1

    def push_battle_move(self, side: int, move: Move) -> None:
        o = move.origin
        assert o is not None
        t = move.dest
        squad = self.first
        sq = self.sq
        code = sq[o]
        kind = code & 7
        ob = BIT[o]
        tb = BIT[t]
        kb = self.kbb[squad]
        victim = sq[t]
        if victim:
            self.occ[squad] &= ~tb
            kb[victim & 7] &= ~tb
        sq[o] = 0
        sq[t] = code
        self.occ[squad] ^= ob | tb
        kb[kind] ^= ob | tb
        if kind == BLOCKADER:
            self.blk[squad] = t
        captured = False
        if move.carry:
            self.goal[squad] = t
        elif self.goal[squad] == t:
            captured = True
            self.goal[squad] = NO_SQUARE
            self.goal[1 - side] = CAPTURED
            self.outcome = Outcome("capture", side)
        rules = self.rules
        if rules.ablative:
            goal_after = NO_SQUARE if captured else self.goal[squad]
            self.holes = self._holes_after(o, goal_after)
            self.ablated = self._ablated_after(o, goal_after)
        if rules.crown >= 0:
            self._crown_after(side, move)
        self.ply += 1

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
        kb = self.kbb[squad]
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
        zoc = NB[b] if b >= 0 else 0
        if gb & (zoc | holes):
            return False
        attackers = occ & ~gb & ~(BIT[b] if b >= 0 else 0)
        if kb[FLIER] & attackers & FLY[g]:
            return True
        passable = BOARD & ~(occ | zoc | holes)
        vang = kb[VANGUARD] & attackers
        if vang:
            reach = r1 | neighbours_bb(r1 & passable) if self.rules.power_vanguards else r1
            if vang & reach:
                return True
        lancer = kb[LANCER] & attackers
        if lancer:
            for ray in LANCER_RAYS[g]:
                for bit in ray:
                    if bit & lancer:
                        return True
                    if not bit & passable:
                        break
        fencer = kb[FENCER] & attackers
        swift = kb[SWIFT] & attackers
        if not (fencer | swift):
            return False
        r2 = neighbours_bb(r1 & passable)
        r3 = neighbours_bb(r2 & passable)
        if fencer & (r1 | r2 | r3):
            return True
        r4 = neighbours_bb(r3 & passable)
        return bool(swift & (r2 | r3 | r4) & ~r1)

    def is_in_jeopardy(self, side: int) -> bool:
        """The Goal is everyone's: it is in jeopardy when the next mover could capture it."""
        return self.goal_capturable()

    def is_battle_move_safe(self, side: int, o: int, t: int, kind: int, carry: bool) -> bool:
        """Art. 3.9 read for one shared Goal: a move is safe when it captures the Goal or
        leaves the opponent no capture of it on their next move."""
        if self.goal[self.first] == t and not carry:
            return True
        after = self.copy()
        after.push_battle_move(side, Move(o, t, kind, carry))
        if after.outcome is not None:
            return True
        return not after.goal_capturable()

    def is_safe(self, move: Move) -> bool:
        if move.origin is None:
            # Placements are always safe: no battle move follows a placement by the
            # other combatant before both have placed (the first placer places last).
            return True
        side = self.stage()[0]
        return self.is_battle_move_safe(side, move.origin, move.dest, move.kind, move.carry)

    def _needs_safety_check(self) -> bool:
        return self.stage()[1] == "battle"

    def has_safe_move(self) -> bool:
        if self.outcome is not None:
            return False
        side, what = self.stage()
        if what != "battle":
            return self.count_legal_moves() > 0
        squad = self.first
        g = self.goal[squad]
        forbidden = self._goal_forbidden()
        for o in iter_bits(self.occ[squad]):
            kind = self.sq[o] & 7
            d = self._rdests(o, kind)
            if g >= 0 and d & BIT[g]:
                return True  # capturing the Goal is always safe
            holder = o == g and IS_CARRIER[kind]
            for t in iter_bits(d):
                if self.is_battle_move_safe(side, o, t, kind, False):
                    return True
                if (
                    holder
                    and not BIT[t] & forbidden
                    and self.is_battle_move_safe(side, o, t, kind, True)
                ):
                    return True
        return False


__all__ = ["REFUSED", "ReflectivePosition", "check_combination", "combination_reason"]
