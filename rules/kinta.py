"""Klin Zha Kinta (Art. 13.9): an attackable, carrying Blockader and Appendix D combat."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from rules.board import BIT, BOARD, NAME, NB, SQUARE_OF, iter_bits
from rules.errors import IllegalMoveError
from rules.position import (
    BLOCKADER,
    CAPTURED,
    FENCER,
    FLIER,
    GOAL,
    KIND_NAMES,
    LANCER,
    MOVE_ARTICLE,
    NEAR4,
    NO_SQUARE,
    VANGUARD,
    Move,
    Outcome,
    Position,
    Rules,
)

# --- Appendix D.1.1: warrior attributes ---------------------------------------------------
# Warrior IDs by engine kind (index = kind): Blockader 1, Fencer 2, Vanguard 3, Lancer 4,
# Flier 5, Swift 6. Initial strength is 90 + 10 x ID, the defense score 7 - ID.
COMBAT_ID: Final = (0, 2, 4, 6, 5, 3, 1)
INITIAL_STRENGTH: Final = tuple(0 if i == 0 else 90 + 10 * i for i in COMBAT_ID)
DEFENSE_SCORE: Final = tuple(0 if i == 0 else 7 - i for i in COMBAT_ID)
DEFENDER_GOAL_BONUS: Final = 5  # D.1.3
ATTACKER_GOAL_BONUS: Final = 15  # D.1.4
# A spindle is a six-sided object with each side numbered (Art. 1.1): 1 to 6, the warrior IDs.
SPINDLE_FACES: Final = (1, 2, 3, 4, 5, 6)

# Art. 13.9's 2.8: the Blockader joins the carriers.
KINTA_CARRIER: Final = (False, True, True, False, False, True, True, False)

MOVER: Final = 0
DEFENDER: Final = 1

_CAST_RE: Final = re.compile(r"\[%cast\b([^\]]*)\]")


def is_kinta_carrier(kind: int) -> bool:
    """Whether a warrior of `kind` may carry its Goal under Kinta (Fe, L, V and B)."""
    return KINTA_CARRIER[kind]


# --- Appendix D: the combat itself ----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Combatant:
    """One side of a combat: its warrior and its strength once the Goal adjustment is added."""

    side: int
    kind: int
    strength: int


@dataclass(frozen=True, slots=True)
class CombatRound:
    """One round of D.1.5-D.3.2, told from the casts.

    Combatants are numbered MOVER (0, the warrior that moved, D.1.2) and DEFENDER (1).
    `caster` cast two spindles, the other one; `triples` are the values of three-way ties
    (D.1.8), each taken from the caster's opponent before the caster cast again; `striker`
    is the true attacker (D.1.6, D.1.7); `pair` the two spindles it selected (D.1.9, empty
    when a triple ended the combat), `base` and `rule` the base damage and the clause that
    gave it, `damage` what the striker's opponent lost after its defense score (D.3.1);
    `strengths` are both strengths after the round.
    """

    casts: tuple[int, ...]
    caster: int
    triples: tuple[int, ...]
    striker: int
    pair: tuple[int, ...]
    base: int
    rule: str
    damage: int
    strengths: tuple[int, int]


@dataclass(frozen=True, slots=True)
class CombatResult:
    """A whole combat (Appendix D): who fought, every round, and who won."""

    attacker: Combatant
    defender: Combatant
    rounds: tuple[CombatRound, ...]

    @property
    def strengths(self) -> tuple[int, int]:
        """(mover, defender) strengths at the end; the vanquished one is zero or lower."""
        if not self.rounds:
            return self.attacker.strength, self.defender.strength
        return self.rounds[-1].strengths

    @property
    def winner(self) -> int:
        """MOVER or DEFENDER."""
        return MOVER if self.strengths[MOVER] > 0 else DEFENDER

    @property
    def attacker_won(self) -> bool:
        return self.winner == MOVER

    @property
    def victor_strength(self) -> int:
        return self.strengths[self.winner]

    @property
    def casts(self) -> tuple[tuple[int, ...], ...]:
        return tuple(r.casts for r in self.rounds)

    def note(self) -> str:
        """The movetext note recording the casts, as `[%cast 6 2 5; 1 4 4]`."""
        return format_casts(self.casts)


def base_damage(x: int, y: int, striker_id: int, victim_id: int) -> tuple[int, str]:
    """(base damage, clause) of two selected spindles, D.1.10 and the special damages D.2."""
    if striker_id != victim_id and {x, y} == {striker_id, victim_id}:
        return 20, "D.2.1"
    if x == y == striker_id:
        return 16, "D.2.2"
    if x == y == victim_id:
        return 5, "D.2.3"
    # When both warriors are of one type, a spindle showing that ID is the attacker's bonus.
    if striker_id in (x, y):
        return 12 + (y if x == striker_id else x), "D.2.4"
    if victim_id in (x, y):
        return 2 + (y if x == victim_id else x), "D.2.5"
    return x + y, "D.1.10"


def select_damage(
    spindles: tuple[int, int, int], striker_id: int, victim_id: int
) -> tuple[tuple[int, int], int, str]:
    """D.1.9: the pair of the three spindles the attacker selects, its base damage and clause.

    The attacker is taken to select the pair that does the most damage; among equal ones the
    first of (its two), (first, defender's), (second, defender's).
    """
    a1, a2, d = spindles
    best: tuple[tuple[int, int], int, str] | None = None
    for pair in ((a1, a2), (a1, d), (a2, d)):
        base, rule = base_damage(pair[0], pair[1], striker_id, victim_id)
        if best is None or base > best[1]:
            best = (pair, base, rule)
    assert best is not None
    return best


class _OutOfCasts(Exception):
    """The recorded casts of a round ran out before the round was over."""


def _fight_round(
    kinds: tuple[int, int], strengths: list[int], caster: int, draw: Callable[[], int]
) -> CombatRound:
    """Play one round on `strengths` (changed in place) with spindles taken from `draw`."""
    other = 1 - caster
    casts: list[int] = []

    def cast() -> int:
        v = draw()
        casts.append(v)
        return v

    a1, a2, d = cast(), cast(), cast()
    triples: list[int] = []
    while a1 == a2 == d:
        triples.append(d)
        strengths[other] -= d
        if strengths[other] <= 0:
            return CombatRound(
                tuple(casts), caster, tuple(triples), caster, (), 0, "D.1.8", 0, _pair(strengths)
            )
        a1, a2 = cast(), cast()
    # D.1.6/D.1.7: only a defender's spindle above both of the attacker's takes the attack.
    striker = other if d > max(a1, a2) else caster
    victim = 1 - striker
    pair, base, rule = select_damage(
        (a1, a2, d), COMBAT_ID[kinds[striker]], COMBAT_ID[kinds[victim]]
    )
    # A base below the defense score does no damage; it never heals.
    damage = max(0, base - DEFENSE_SCORE[kinds[victim]])
    strengths[victim] -= damage
    return CombatRound(
        tuple(casts), caster, tuple(triples), striker, pair, base, rule, damage, _pair(strengths)
    )


def _pair(strengths: list[int]) -> tuple[int, int]:
    return strengths[0], strengths[1]


def _next_caster(r: CombatRound) -> int:
    # D.4 "switch roles": the round's true defender casts two spindles next.
    return 1 - r.striker


def cast_combat(attacker: Combatant, defender: Combatant, rng: random.Random) -> CombatResult:
    """Fight a combat to the end, casting spindles with `rng` (for play and for tests)."""
    kinds = (attacker.kind, defender.kind)
    strengths = [attacker.strength, defender.strength]
    rounds = []
    caster = MOVER
    while strengths[0] > 0 and strengths[1] > 0:
        r = _fight_round(kinds, strengths, caster, lambda: rng.randint(1, 6))
        rounds.append(r)
        caster = _next_caster(r)
    return CombatResult(attacker, defender, tuple(rounds))


def resolve_combat(
    attacker: Combatant, defender: Combatant, casts: Sequence[Sequence[int]]
) -> CombatResult:
    """Replay a combat from recorded casts, one sequence a round; IllegalMoveError names the
    first impossible round (a value off the spindle, too few or too many casts in a round,
    a round after a death, or casts that end before the combat does)."""
    kinds = (attacker.kind, defender.kind)
    strengths = [attacker.strength, defender.strength]
    rounds: list[CombatRound] = []
    caster = MOVER
    for n, values in enumerate(casts, start=1):
        if strengths[0] <= 0 or strengths[1] <= 0:
            raise IllegalMoveError(
                f"round {n} is cast after the combat ended in round {n - 1}", "D.4"
            )
        for v in values:
            if v not in SPINDLE_FACES:
                raise IllegalMoveError(f"a spindle shows 1 to 6, not {v} (round {n})", "D.1.5")
        try:
            r = _fight_round(kinds, strengths, caster, _drawer(values))
        except _OutOfCasts:
            if len(values) < 3:
                raise IllegalMoveError(
                    f"round {n} has {len(values)} casts; the attacker casts two spindles and "
                    "the defender one",
                    "D.1.5",
                ) from None
            raise IllegalMoveError(
                f"round {n} lacks the attacker's second cast after a triple", "D.1.8"
            ) from None
        if len(r.casts) < len(values):
            raise IllegalMoveError(
                f"round {n} has {len(values)} casts but is over after {len(r.casts)}",
                "D.1.8" if r.triples else "D.1.5",
            )
        rounds.append(r)
        caster = _next_caster(r)
    if strengths[0] > 0 and strengths[1] > 0:
        raise IllegalMoveError(
            f"the combat is not over after {len(rounds)} rounds (strengths {strengths[0]} "
            f"and {strengths[1]})",
            "D.4",
        )
    return CombatResult(attacker, defender, tuple(rounds))


def _drawer(values: Sequence[int]) -> Callable[[], int]:
    """Spindle values taken from a recorded round, one a call."""
    it = iter(values)

    def draw() -> int:
        try:
            return next(it)
        except StopIteration:
            raise _OutOfCasts from None

    return draw


def format_casts(casts: Sequence[Sequence[int]]) -> str:
    """The note recording a combat's casts: rounds separated by `;`, in casting order."""
    return "[%cast " + "; ".join(" ".join(str(v) for v in r) for r in casts) + "]"


def parse_casts(text: str) -> tuple[tuple[int, ...], ...]:
    """The rounds of casts in the body of a `[%cast …]` note; IllegalMoveError if unreadable."""
    rounds = []
    for n, part in enumerate(text.split(";"), start=1):
        values = []
        for token in part.replace(",", " ").split():
            # len() first: a huge digit string must not reach int().
            if not (token.isascii() and token.isdigit() and len(token) <= 2):
                raise IllegalMoveError(f"cannot read spindle cast {token[:20]!r}", "D.1.5")
            values.append(int(token))
        if not values:
            raise IllegalMoveError(f"round {n} of the casts is empty", "D.1.5")
        rounds.append(tuple(values))
    return tuple(rounds)


def parse_cast_notes(comments: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    """The casts recorded in a ply's comments (empty when none)."""
    found = [m for c in comments for m in _CAST_RE.finditer(c)]
    if not found:
        if any("%cast" in c for c in comments):
            raise IllegalMoveError("cannot read the [%cast …] note", "D.1.5")
        return ()
    if len(found) > 1:
        raise IllegalMoveError("more than one [%cast …] note after one ply", "D.1.5")
    return parse_casts(found[0].group(1))


# --- the position ---------------------------------------------------------------------------
class KintaPosition(Position):
    """A Kinta position: the flat board plus each warrior's strength (the scorecard).

    `strength` holds the warriors whose strength differs from their initial one, by square.
    `notes` are the casts recorded for the next ply (None when no record is being read, ()
    when the ply records none); `last_combat` is the combat of the move that led here.
    """

    __slots__ = ("strength", "notes", "resolved", "last_combat")

    strength: dict[int, int]
    notes: tuple[tuple[int, ...], ...] | None
    resolved: tuple[Move, CombatResult] | None
    last_combat: CombatResult | None

    def __init__(self, rules: Rules | None = None, first: int = 0) -> None:
        super().__init__(rules if rules is not None else Rules("laws", frozenset({"kinta"})), first)
        self.strength = {}
        self.notes = None
        self.resolved = None
        self.last_combat = None

    def copy(self) -> KintaPosition:
        p = super().copy()
        assert isinstance(p, KintaPosition)
        p.strength = dict(self.strength)
        # Notes belong to the next ply played on this object, not to a copy of it.
        p.notes = None
        p.resolved = None
        p.last_combat = self.last_combat
        return p

    def __eq__(self, other: object) -> bool:
        same = super().__eq__(other)
        if same is not True or not isinstance(other, KintaPosition):
            return same
        return self.strength == other.strength

    def __hash__(self) -> int:
        return super().__hash__()

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

    # --- recorded casts -----------------------------------------------------------------------
    def take_annotations(self, comments: tuple[str, ...]) -> None:
        self.notes = None
        self.resolved = None
        self.notes = parse_cast_notes(comments)

    def _holder(self, side: int) -> int:
        # The Blockader carries too (13.9's Art. 2.8).
        g = self.goal[side]
        if g >= 0:
            code = self.sq[g]
            if code and code >> 3 == side and KINTA_CARRIER[code & 7]:
                return g
        return NO_SQUARE

    def _dests(self, o: int, kind: int, side: int) -> int:
        return self._kinta_dests(o, kind, side)

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

    def _kinta_dests(self, o: int, kind: int, side: int, carry: bool = False) -> int:
        """Legal destinations of the warrior on `o` (carrying its Goal or not: it matters only
        for a Blockader, whose end square may then not have its own Goal beside it)."""
        enemy = 1 - side
        own = self.occ[side]
        opp = self.occ[enemy]
        eb = self.blk[enemy]
        ezoc = NB[eb] if eb >= 0 else 0
        holes = self.holes
        blocked = own | opp | holes
        d = self._reach(o, kind, BOARD & ~(blocked | ezoc)) & ~(own | ezoc | holes)
        if eb >= 0:
            d &= ~BIT[eb]
            # Attacking the Blockader, a warrior may cross its zone (only the last step can).
            if self.may_attack_blockader(kind) and self._reach(o, kind, BOARD & ~blocked) & BIT[eb]:
                d |= BIT[eb]
        clouds = self.rules.cloud_bb
        if clouds:
            d &= ~(clouds & opp)
        if kind != BLOCKADER:
            return d
        d &= ~opp
        goals = self.goals_bb()
        if carry:
            goals &= ~BIT[self.goal[side]]
        bad = opp | goals
        ok = 0
        for t in iter_bits(d):
            z = NB[t]
            if z & bad or z & ezoc:
                continue
            ok |= BIT[t]
        return ok

    def _carry_dests(self, o: int, kind: int, side: int, plain: int) -> int:
        """Destinations of the holder on `o` carrying its Goal (`plain`: its other ones)."""
        if kind == BLOCKADER:
            # Its own zone moves with it, so only the enemy zone (already out) and clouds bar.
            return self._kinta_dests(o, kind, side, True) & ~self.rules.cloud_bb
        return plain & ~self._goal_forbidden()

    def _goal_squares(self, side: int) -> int:
        kb = self.kbb[side]
        carriers = kb[FENCER] | kb[LANCER] | kb[VANGUARD] | kb[BLOCKADER]
        return carriers & ~self._goal_forbidden()

    # --- safety (Art. 3.9): "can capture" is "can move onto the Goal", a combat won ---------
    def can_reach(self, attacker: int, g: int) -> bool:
        """Whether `attacker` has a move onto `g` (a capture, or an attack on its holder)."""
        for o in iter_bits(self.occ[attacker]):
            kind = self.sq[o] & 7
            if kind != FLIER and not NEAR4[o] & BIT[g]:
                continue
            if self._kinta_dests(o, kind, attacker) & BIT[g]:
                return True
            if (
                kind == BLOCKADER
                and self.holds_goal(attacker, o)
                and self._carry_dests(o, kind, attacker, 0) & BIT[g]
            ):
                return True
        return False

    def is_in_jeopardy(self, side: int) -> bool:
        g = self.goal[side]
        return g >= 0 and self.can_reach(1 - side, g)

    def _after(self, side: int, move: Move) -> KintaPosition:
        """The position after a battle move with every combat won by the mover."""
        p = self.copy()
        p.push_battle_move(side, move)
        return p

    def is_battle_move_safe(self, side: int, o: int, t: int, kind: int, carry: bool) -> bool:
        if self.goal[1 - side] == t:
            return True
        if self.goal[side] < 0:
            return True
        after = self._after(side, Move(o, t, kind, carry))
        return not after.is_in_jeopardy(side)

    # --- checking -----------------------------------------------------------------------------
    def check_move(self, move: Move) -> None:
        if move.origin is None and self.notes and self.outcome is None:
            raise IllegalMoveError("spindle casts are recorded for a placement", "D.1.2")
        super().check_move(move)

    def _check_placement(self, move: Move, side: int, what: str) -> None:
        code = self.sq[move.dest]
        if move.kind == GOAL and what == "goal" and code == side * 8 + BLOCKADER:
            tb = BIT[move.dest]
            if tb & self._all_zoc():
                raise IllegalMoveError(
                    "a Goal may not be placed in a Blockader's zone of control", "3.6"
                )
            if tb & self.rules.cloud_bb:
                raise IllegalMoveError("a Goal may not be placed in a cloud", "13.4")
            return
        super()._check_placement(move, side, what)

    def check_battle_move(self, side: int, move: Move) -> None:
        o, t = move.origin, move.dest
        assert o is not None
        code = self.sq[o]
        if not code or code >> 3 != side:
            raise IllegalMoveError(f"no warrior of the side to move on {NAME[o]}", "3.1")
        kind = code & 7
        if move.kind != kind:
            raise IllegalMoveError(
                f"the warrior on {NAME[o]} is a {KIND_NAMES[kind]}, not a {KIND_NAMES[move.kind]}",
                "Appendix C",
            )
        if move.carry and not self.holds_goal(side, o):
            if not KINTA_CARRIER[kind]:
                raise IllegalMoveError(f"a {KIND_NAMES[kind]} cannot carry the Goal", "2.8")
            raise IllegalMoveError(f"the {KIND_NAMES[kind]} on {NAME[o]} holds no Goal", "3.11.1")
        enemy = 1 - side
        eb = self.blk[enemy]
        ezoc = NB[eb] if eb >= 0 else 0
        tb = BIT[t]
        opp = self.occ[enemy]
        if t == o:
            raise IllegalMoveError("a move must leave its triangle", "3.7")
        if self.occ[side] & tb:
            raise IllegalMoveError("destination holds a warrior of the mover's side", "3.3")
        on_blockader = t == eb
        if on_blockader:
            if kind == BLOCKADER:
                raise IllegalMoveError("a Blockader attacks nothing", "3.11.4")
            if not self.may_attack_blockader(kind):
                raise IllegalMoveError(
                    "a Vanguard cannot attack the Blockader unless power-vanguards is played",
                    "13.9",
                )
        elif ezoc & tb:
            raise IllegalMoveError("destination is in the enemy Blockader's zone of control", "3.5")
        if self.holes & tb:
            raise IllegalMoveError(f"{NAME[t]} is ablated", "13.6")
        if self.rules.cloud_bb & tb & opp:
            raise IllegalMoveError("a warrior in a cloud cannot be attacked", "13.4")
        open_board = BOARD & ~self.holes
        passable = open_board & ~(self.occ[0] | self.occ[1])
        if not on_blockader:
            passable &= ~ezoc
        if not self._reach(o, kind, passable) & tb:
            if self._reach(o, kind, open_board) & tb:
                if on_blockader or self._reach(o, kind, open_board & ~ezoc) & tb:
                    raise IllegalMoveError(
                        f"the {KIND_NAMES[kind]}'s path to {NAME[t]} is blocked", MOVE_ARTICLE[kind]
                    )
                raise IllegalMoveError(
                    f"the {KIND_NAMES[kind]}'s path to {NAME[t]} crosses the enemy Blockader's "
                    "zone of control",
                    "3.5",
                )
            raise IllegalMoveError(
                f"a {KIND_NAMES[kind]} cannot move from {NAME[o]} to {NAME[t]}",
                MOVE_ARTICLE[kind],
            )
        if kind == BLOCKADER:
            if opp & tb:
                raise IllegalMoveError("a Blockader attacks nothing", "3.11.4")
            goals = self.goals_bb()
            if move.carry:
                goals &= ~BIT[o]
            self._check_blockader_end(side, NB[t], ezoc, goals)
        if move.carry:
            # A carrying Blockader takes its own zone along; the zone it leaves does not count.
            zones = ezoc if kind == BLOCKADER else self._all_zoc()
            if tb & zones:
                raise IllegalMoveError(
                    "a carried Goal may not end in a Blockader's zone of control", "3.6"
                )
            if tb & self.rules.cloud_bb:
                raise IllegalMoveError("the Goal may not be moved into a cloud", "13.4")
        self._check_casts(side, move)

    def _check_casts(self, side: int, move: Move) -> None:
        """A recorded ply's casts must fit its combat (none when there is no combat)."""
        notes = self.notes
        if notes is None:
            return
        pair = self.combatants(side, move)
        if pair is None:
            if notes:
                raise IllegalMoveError(
                    "spindle casts are recorded for a move that is no combat", "D.1.2"
                )
            return
        if not notes:
            raise IllegalMoveError(
                "a combat needs its spindle casts recorded after the ply ([%cast …])", "D.1.5"
            )
        self.resolved = (move, resolve_combat(pair[0], pair[1], notes))

    # --- playing ------------------------------------------------------------------------------
    def push(self, move: Move) -> None:
        super().push(move)
        self.notes = None
        self.resolved = None

    def push_battle_move(self, side: int, move: Move) -> None:
        """Play a legal battle move. A combat is decided by the recorded casts (`notes`);
        without them the mover wins it and keeps its strength (perft, safety, analysis)."""
        o = move.origin
        assert o is not None
        t = move.dest
        enemy = 1 - side
        result: CombatResult | None = None
        pair = self.combatants(side, move)
        if pair is not None and self.notes:
            if self.resolved is not None and self.resolved[0] == move:
                result = self.resolved[1]
            else:
                result = resolve_combat(pair[0], pair[1], self.notes)
        self.notes = None
        self.resolved = None
        self.last_combat = result
        sq = self.sq
        code = sq[o]
        kind = code & 7
        ob = BIT[o]
        tb = BIT[t]
        if result is None or result.attacker_won:
            victim = sq[t]
            if victim:
                self.occ[enemy] &= ~tb
                self.kbb[enemy][victim & 7] &= ~tb
                if victim & 7 == BLOCKADER:
                    self.blk[enemy] = NO_SQUARE
                self.strength.pop(t, None)
            mover_strength = self.strength_of(o) if result is None else result.victor_strength
            self.strength.pop(o, None)
            sq[o] = 0
            sq[t] = code
            self.occ[side] ^= ob | tb
            self.kbb[side][kind] ^= ob | tb
            self._set_strength(t, mover_strength)
            if kind == BLOCKADER:
                self.blk[side] = t
            if move.carry:
                self.goal[side] = t
            if self.goal[enemy] == t:
                self.goal[enemy] = CAPTURED
                self.outcome = Outcome("capture", side)
        else:
            # The attacker fell on the defender's triangle; a Goal it carried fell with it.
            self.strength.pop(o, None)
            sq[o] = 0
            self.occ[side] &= ~ob
            self.kbb[side][kind] &= ~ob
            self._set_strength(t, result.victor_strength)
            if move.carry:
                self.goal[side] = CAPTURED
                self.outcome = Outcome("capture", enemy)
        rules = self.rules
        if rules.ablative:
            goal_after = self.goal[side]
            self.holes = self._holes_after(o, goal_after)
            self.ablated = self._ablated_after(o, goal_after)
        if rules.crown >= 0 or "kaggas-crown" in rules.variants:
            self._crown_after(side, move)
        self.ply += 1


# --- the scorecard as text ------------------------------------------------------------------
_KEYS: Final = ("", "Fe", "L", "S", "Fl", "V", "B")


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
        items = [f"{_KEYS[k]}{NAME[s]} {v}" for k, s, v in pos.scorecard(side)]
        out.append(f"{name} strengths: {', '.join(items) or '-'}")
    return out


def describe_combat(result: CombatResult) -> str:
    """A short account of a combat: who fought, how many rounds, who won with what left."""
    names = ("green", "gold")
    a, d = result.attacker, result.defender
    who = (KIND_NAMES[a.kind], KIND_NAMES[d.kind])
    won = result.winner
    return (
        f"{names[a.side]} {who[0]} ({a.strength}) attacked {names[d.side]} {who[1]} "
        f"({d.strength}): {len(result.rounds)} rounds, the {who[won]} won with "
        f"{result.victor_strength}"
    )


__all__ = [
    "ATTACKER_GOAL_BONUS",
    "COMBAT_ID",
    "DEFENDER",
    "DEFENDER_GOAL_BONUS",
    "DEFENSE_SCORE",
    "INITIAL_STRENGTH",
    "MOVER",
    "SPINDLE_FACES",
    "Combatant",
    "CombatResult",
    "CombatRound",
    "KintaPosition",
    "base_damage",
    "cast_combat",
    "describe_combat",
    "format_casts",
    "is_kinta_carrier",
    "parse_cast_notes",
    "parse_casts",
    "read_strengths",
    "resolve_combat",
    "scorecard_lines",
    "select_damage",
    "strengths_to_text",
]
