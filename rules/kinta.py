"""Klin Zha Kinta (Art. 13.9): the Position with an attackable, carrying Blockader."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Final

from rules.board import BIT, BOARD, FLY, NAME, SQUARE_OF, iter_bits
from rules.errors import IllegalMoveError
from rules.kinta_combat import (
    ATTACKER_GOAL_BONUS,
    DEFENDER_GOAL_BONUS,
    INITIAL_STRENGTH,
    Combatant,
    CombatResult,
    cast_combat,
    combat_strengths,
    describe_combat,
    parse_cast_notes,
    resolve_combat,
)

# The combat's other names, still exported from here where they used to live.
from rules.kinta_combat import COMBAT_ID as COMBAT_ID
from rules.kinta_combat import DEFENDER as DEFENDER
from rules.kinta_combat import DEFENSE_SCORE as DEFENSE_SCORE
from rules.kinta_combat import MOVER as MOVER
from rules.kinta_combat import SPINDLE_FACES as SPINDLE_FACES
from rules.kinta_combat import CombatRound as CombatRound
from rules.kinta_combat import base_damage as base_damage
from rules.kinta_combat import format_casts as format_casts
from rules.kinta_combat import parse_casts as parse_casts
from rules.kinta_combat import select_damage as select_damage
from rules.position import (
    BLOCKADER,
    FLIER,
    KIND_KEYS,
    NEAR4,
    NO_SQUARE,
    RULESET_LAWS,
    VANGUARD,
    Move,
    Position,
    Rules,
)
from rules.registry import register_variant
from rules.safety import walkers_attack

# What resolves a combat: the two combatants and the recorded casts.
_Fought = tuple[Combatant, Combatant, tuple[tuple[int, ...], ...]]

# Art. 13.9's 2.8: the Blockader joins the carriers.
KINTA_CARRIER: Final = (False, True, True, False, False, True, True, False)


def is_kinta_carrier(kind: int) -> bool:
    """Whether a warrior of `kind` may carry its Goal under Kinta (Fe, L, V and B)."""
    return KINTA_CARRIER[kind]


class KintaPosition(Position):
    """A Kinta position: the flat board plus each warrior's strength (the scorecard).

    `strength` holds the warriors whose strength differs from their initial one, by square.
    `notes` are the casts recorded for the next ply (None when no record is being read, ()
    when the ply records none); `resolved` the (mover, defender) strengths its combat ends
    with once checked, and what fought it; `last_combat` is the combat of the move that led
    here.
    """

    __slots__ = ("strength", "notes", "resolved", "_last")

    strength: dict[int, int]
    notes: tuple[tuple[int, ...], ...] | None
    resolved: tuple[Move, tuple[int, int], _Fought] | None
    # The last combat, or what resolves it: a record's combat is replayed for its outcome
    # alone, and its rounds only if someone asks (most combats are never described).
    _last: CombatResult | _Fought | None

    _CARRIER: ClassVar[Sequence[bool]] = KINTA_CARRIER
    # The hot methods call Position's by name rather than through super(), a cost on every
    # ply: nothing derives from this class (rules.engines picks one class per position).

    def __init__(self, rules: Rules | None = None, first: int = 0) -> None:
        super().__init__(
            rules if rules is not None else Rules(RULESET_LAWS, frozenset({"kinta"})), first
        )
        self.strength = {}
        self.notes = None
        self.resolved = None
        self._last = None

    def copy(self) -> KintaPosition:
        p = super().copy()
        assert isinstance(p, KintaPosition)
        p.strength = dict(self.strength)
        # Notes belong to the next ply played on this object, not to a copy of it.
        p.notes = None
        p.resolved = None
        p._last = self._last
        return p

    def __eq__(self, other: object) -> bool:
        same = super().__eq__(other)
        if same is not True or not isinstance(other, KintaPosition):
            return same
        return self.strength == other.strength

    def __hash__(self) -> int:
        return super().__hash__()

    @property
    def last_combat(self) -> CombatResult | None:
        """The combat of the move that led here (None when it fought none)."""
        last = self._last
        if last is None or isinstance(last, CombatResult):
            return last
        result = self._last = resolve_combat(*last)
        return result

    # --- the scorecard ------------------------------------------------------------------------
    def strength_of(self, sq: int) -> int:
        """The current strength of the warrior on `sq` (0 for an empty triangle)."""
        code = self.sq[sq]
        if not code:
            return 0
        return self.strength.get(sq, INITIAL_STRENGTH[code & 7])

    def _set_strength(self, sq: int, value: int) -> None:
        # Only changed strengths are stored, so equal scorecards compare equal.
        if value == INITIAL_STRENGTH[self.sq[sq] & 7]:
            self.strength.pop(sq, None)
        else:
            self.strength[sq] = value

    def scorecard(self, side: int) -> list[tuple[int, int, int]]:
        """(kind, square, strength) of every warrior of `side`, by kind then square name."""
        out = [(self.sq[s] & 7, s, self.strength_of(s)) for s in iter_bits(self.occ[side])]
        return sorted(out, key=lambda e: (e[0], NAME[e[1]]))

    def state_fields(self) -> dict[str, str]:
        return {"strength": strengths_to_text(self)} if self.strength else {}

    def read_state_field(self, key: str, text: str) -> bool:
        if key != "strength":
            return False
        read_strengths(self, text)
        return True

    def report_lines(self) -> list[str]:
        lines = scorecard_lines(self)
        if self.last_combat is not None:
            lines.append(f"Last combat: {describe_combat(self.last_combat)}")
        return lines

    # --- recorded casts -----------------------------------------------------------------------
    def take_annotations(self, comments: tuple[str, ...]) -> None:
        self.notes = None
        self.resolved = None
        # Most plies have no note: no call to read none.
        self.notes = parse_cast_notes(comments) if comments else ()

    def combatants(self, side: int, move: Move) -> tuple[Combatant, Combatant] | None:
        """The two warriors a battle move by `side` sets fighting, Goal adjustments included
        (D.1.3, D.1.4); None when the destination holds no enemy warrior."""
        o, t = move.origin, move.dest
        code = self.sq[t]
        if o is None or not code or code >> 3 == side:
            return None
        a = self.strength_of(o) + (ATTACKER_GOAL_BONUS if move.carry else 0)
        d = self.strength_of(t) + (DEFENDER_GOAL_BONUS if self.holds_goal(1 - side, t) else 0)
        return Combatant(side, self.sq[o] & 7, a), Combatant(1 - side, code & 7, d)

    def cast(self, move: Move, rng: random.Random) -> CombatResult | None:
        """Cast the spindles for `move` by the side to move; None when it is no combat."""
        pair = self.combatants(self.turn, move)
        return None if pair is None else cast_combat(pair[0], pair[1], rng)

    def play(self, move: Move, rng: random.Random) -> CombatResult | None:
        """Check `move`, cast its combat (if any) with `rng` and play it here."""
        result = self.cast(move, rng)
        self.notes = result.casts if result is not None else ()
        self.resolved = None
        try:
            self.check_move(move)
        except IllegalMoveError:
            self.notes = None
            raise
        self.push(move)
        return result

    # --- destinations -------------------------------------------------------------------------
    def may_attack_blockader(self, kind: int) -> bool:
        """Art. 13.9 (3.5): a Blockader attacks nothing; a Vanguard attacks the Blockader only
        with power-vanguards."""
        if kind == BLOCKADER:
            return False
        return kind != VANGUARD or self.rules.power_vanguards

    def _dests(self, o: int, kind: int, side: int, carrying: bool = False) -> int:
        d = Position._dests(self, o, kind, side, carrying)
        eb = self.blk[1 - side]
        if eb < 0:
            return d
        target = BIT[eb]
        # Most warriors stand too far from the Blockader to attack it at all.
        if not (FLY[o] if kind == FLIER else NEAR4[o]) & target:
            return d
        if not self.may_attack_blockader(kind) or self.rules.cloud_bb & target:
            return d
        # Attacking the Blockader, a warrior may cross its zone (only the last step can).
        blocked = self.occ[0] | self.occ[1] | self.holes
        return d | (self._reach(o, kind, BOARD & ~blocked) & target)

    def _carry_dests(self, o: int, kind: int, side: int, dests: int) -> int:
        if kind == BLOCKADER:
            # Its own zone moves with it, so only the enemy zone (already out) and clouds bar.
            return self._dests(o, kind, side, True) & ~self.rules.cloud_bb
        return super()._carry_dests(o, kind, side, dests)

    # --- safety (Art. 3.9): "can capture" is "can move onto the Goal", a combat won ---------
    def can_reach(self, attacker: int, g: int) -> bool:
        """Whether `attacker` has a move onto `g` (a capture, or an attack on its holder)."""
        for o in iter_bits(self.occ[attacker]):
            kind = self.sq[o] & 7
            if kind != FLIER and not NEAR4[o] & BIT[g]:
                continue
            if self._dests(o, kind, attacker) & BIT[g]:
                return True
            if (
                kind == BLOCKADER
                and self.holds_goal(attacker, o)
                and self._carry_dests(o, kind, attacker, 0) & BIT[g]
            ):
                return True
        return False

    # The flat game's safety test (is_battle_move_safe) sees what can_reach sees once every
    # combat is taken as won by the mover, as push_battle_move without casts plays it: the
    # board after the move is the flat game's. Two things differ, both answered below: a
    # Goal held by the Blockader is taken by attacking the Blockader, across its zone, and
    # a Blockader carrying its own Goal takes it along, out of its zone.
    _plain_safety: ClassVar[bool] = True

    def _goal_bar(self, a: int) -> int:
        g = self.goal[a]
        return NO_SQUARE if g >= 0 and g == self.blk[a] else g

    def _jeopardy(
        self, side: int, g: int, own: int, foes: int, keep: int, dblk: int, held: bool, holes: int
    ) -> bool:
        if g == dblk:
            return self._blockader_attackers(side, g, own, foes, keep, holes)[0] != 0
        return Position._jeopardy(self, side, g, own, foes, keep, dblk, held, holes)

    def _attack_map(
        self, side: int, g: int, own: int, foes: int, dblk: int, held: bool
    ) -> tuple[int, int]:
        if g == dblk:
            return self._blockader_attackers(side, g, own, foes, -1, 0)
        return Position._attack_map(self, side, g, own, foes, dblk, held)

    def _blockader_attackers(
        self, side: int, g: int, own: int, foes: int, keep: int, holes: int
    ) -> tuple[int, int]:
        """(the attacker's warriors that may attack `side`'s Blockader on `g`, the squares
        read): any but a Blockader (a Vanguard with power-vanguards), by a path that may cross
        the zone, unless the Blockader stands in a cloud (13.9, 13.4); `keep` and `holes` as
        in _jeopardy."""
        if self.rules.cloud_bb & BIT[g]:
            return 0, 0
        kb = self.kbb[1 - side]
        passable = BOARD & ~(own | foes | holes)
        att = kb[FLIER] & keep & FLY[g]
        # Without power-vanguards no Vanguard attacks the Blockader.
        vang = kb[VANGUARD] & keep if self.rules.power_vanguards else 0
        walkers, read, _r2 = walkers_attack(kb, keep, g, passable, vang, True)
        att |= walkers
        return att, read

    # --- checking -----------------------------------------------------------------------------
    def _check_placement(self, move: Move, side: int, what: str) -> None:
        if self.notes:
            raise IllegalMoveError.coded("casts_for_placement", "D.1.2")
        Position._check_placement(self, move, side, what)

    def _check_attack_on_blockader(self, kind: int) -> None:
        if kind == BLOCKADER:
            raise IllegalMoveError.coded("blockader_kills_nothing", "3.11.4")
        if not self.may_attack_blockader(kind):
            raise IllegalMoveError.coded("vanguard_on_blockader", "13.9")

    def _check_path(self, side: int, move: Move, kind: int, zone: int) -> None:
        # Attacking the Blockader, a warrior may cross its zone (only the last step can).
        Position._check_path(self, side, move, kind, 0 if move.dest == self.blk[1 - side] else zone)

    def check_battle_move(self, side: int, move: Move) -> None:
        Position.check_battle_move(self, side, move)
        self._check_casts(side, move)

    def _check_casts(self, side: int, move: Move) -> None:
        """A recorded ply's casts must fit its combat (none when there is no combat)."""
        notes = self.notes
        if notes is None:
            return
        code = self.sq[move.dest]
        if not notes and (not code or code >> 3 == side):
            return  # the usual ply: no combat, no casts
        pair = self.combatants(side, move)
        if pair is None:
            if notes:
                raise IllegalMoveError.coded("casts_without_combat", "D.1.2")
            return
        if not notes:
            raise IllegalMoveError.coded("casts_missing", "D.1.5")
        ends = combat_strengths(pair[0], pair[1], notes)
        self.resolved = (move, ends, (pair[0], pair[1], notes))

    # --- playing ------------------------------------------------------------------------------
    def push(self, move: Move) -> None:
        Position.push(self, move)
        self.notes = None
        self.resolved = None

    def push_battle_move(self, side: int, move: Move) -> None:
        """Play a legal battle move. A combat is decided by the recorded casts (`notes`);
        without them the mover wins it and keeps its strength (perft, safety, analysis)."""
        o = move.origin
        assert o is not None
        t = move.dest
        if not self.sq[t] and not self.notes:
            # No combat: the warrior takes its strength along (only changed ones are kept).
            self.notes = self.resolved = self._last = None
            kept = self.strength.pop(o, None)
            Position.push_battle_move(self, side, move)
            if kept is not None:
                self.strength[t] = kept
            return
        ends = self._combat(side, move)
        if ends is None or ends[MOVER] > 0:
            mover = self.strength_of(o) if ends is None else ends[MOVER]
            self.strength.pop(t, None)
            self.strength.pop(o, None)
            Position.push_battle_move(self, side, move)
            self._set_strength(t, mover)
            return
        # The attacker fell on the defender's triangle; a Goal it carried fell with it.
        self.strength.pop(o, None)
        self._remove(o)
        self._set_strength(t, ends[DEFENDER])
        if move.carry:
            self._capture(1 - side)
        self._end_battle_move(side, move)

    def _combat(self, side: int, move: Move) -> tuple[int, int] | None:
        """The (mover, defender) strengths the combat `move` fights ends with, from the
        recorded casts (None without any), kept as the last combat; the notes are used up."""
        notes, resolved = self.notes, self.resolved
        self.notes = None
        self.resolved = None
        self._last = None
        if not notes:
            return None
        if resolved is not None and resolved[0] == move:
            # check_battle_move fought it already.
            self._last = resolved[2]
            return resolved[1]
        pair = self.combatants(side, move)
        if pair is None:
            return None
        ends = combat_strengths(pair[0], pair[1], notes)
        self._last = (pair[0], pair[1], notes)
        return ends


# --- the scorecard as text ------------------------------------------------------------------
def strengths_to_text(pos: KintaPosition) -> str:
    """The changed strengths as `C29:87+I33:120` (by square name), empty when none."""
    return "+".join(f"{NAME[s]}:{v}" for s, v in sorted(pos.strength.items(), key=_by_name))


def _by_name(item: tuple[int, int]) -> str:
    return NAME[item[0]]


def read_strengths(pos: KintaPosition, text: str) -> None:
    """Set strengths written by `strengths_to_text`; ValueError for a bad item."""
    for item in text.split("+"):
        name, _, value = item.partition(":")
        sq = SQUARE_OF.get(name.upper())
        if sq is None or not pos.sq[sq]:
            raise ValueError(f"no warrior on {name!r} to give a strength")
        if not (value.isascii() and value.isdigit() and 0 < len(value) <= 4) or int(value) <= 0:
            raise ValueError(f"a strength is a positive whole number, not {value!r}")
        pos._set_strength(sq, int(value))


def scorecard_lines(pos: KintaPosition) -> list[str]:
    """One line a side listing each warrior's strength, e.g. `green: BI22 100, FeC29 87`."""
    out = []
    for side, name in enumerate(("green", "gold")):
        items = [f"{KIND_KEYS[k]}{NAME[s]} {v}" for k, s, v in pos.scorecard(side)]
        out.append(f"{name} strengths: {', '.join(items) or '-'}")
    return out


__all__ = [
    "KINTA_CARRIER",
    "KintaPosition",
    "is_kinta_carrier",
    "read_strengths",
    "scorecard_lines",
    "strengths_to_text",
]

register_variant("kinta", KintaPosition)
