"""Klin Zha Kinta's combat (Appendix D): strengths, spindle casts, rounds, recorded casts."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, NamedTuple, cast

from rules.errors import IllegalMoveError
from rules.position import KIND_NAMES

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

MOVER: Final = 0
DEFENDER: Final = 1

_CAST_RE: Final = re.compile(r"\[%cast\b([^\]]*)\]")
# What a note's body is written with: casts, blanks, commas between casts, `;` between rounds.
_CAST_CHARS: Final = "0123456789 \t,;"
_LONG_CAST: Final = re.compile(r"\d{3}")


# --- Appendix D: the combat itself ----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Combatant:
    """One side of a combat: its warrior and its strength once the Goal adjustment is added."""

    side: int
    kind: int
    strength: int


class CombatRound(NamedTuple):
    """One round of D.1.5-D.3.2, told from the casts (a named tuple: a combat has a score of
    rounds, and a frozen dataclass took 3 µs to build each: a fifth of validating a Kinta
    record).

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
    if striker_id != victim_id and (
        (x == striker_id and y == victim_id) or (x == victim_id and y == striker_id)
    ):
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


@cache
def _base_table() -> dict[tuple[int, int, int, int], tuple[int, str]]:
    """base_damage of every pair of spindle faces, striker ID and victim ID, looked up by
    combats (built by the first combat, not at import)."""
    return {
        (x, y, s, v): base_damage(x, y, s, v)
        for x in SPINDLE_FACES
        for y in SPINDLE_FACES
        for s in SPINDLE_FACES
        for v in SPINDLE_FACES
    }


def select_damage(
    spindles: tuple[int, int, int], striker_id: int, victim_id: int
) -> tuple[tuple[int, int], int, str]:
    """D.1.9: the pair of the three spindles the attacker selects, its base damage and clause.

    The attacker is taken to select the pair that does the most damage; among equal ones the
    first of (its two), (first, defender's), (second, defender's).
    """
    a1, a2, d = spindles
    table = _base_table()
    best: tuple[tuple[int, int], int, str] | None = None
    for pair in ((a1, a2), (a1, d), (a2, d)):
        found = table.get((pair[0], pair[1], striker_id, victim_id))
        base, rule = found if found is not None else base_damage(*pair, striker_id, victim_id)
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
    a1 = draw()
    a2 = draw()
    d = draw()
    casts = [a1, a2, d]
    triples: list[int] = []
    while a1 == a2 == d:
        triples.append(d)
        strengths[other] -= d
        if strengths[other] <= 0:
            return CombatRound(
                tuple(casts), caster, tuple(triples), caster, (), 0, "D.1.8", 0, _pair(strengths)
            )
        a1 = draw()
        casts.append(a1)
        a2 = draw()
        casts.append(a2)
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


# A usual round's outcome (striker, selected pair, base damage, clause, damage) by the
# warriors' kinds and the caster, then by the three casts: filled as combats are replayed
# (at most 36 x 2 tables of 210 rounds), so that a round is one look-up.
_Usual = tuple[int, tuple[int, ...], int, str, int]
_ROUNDS: dict[tuple[int, int, int], dict[tuple[int, ...], _Usual]] = {}


# CombatRound(*row) without the named tuple's Python-level __new__ in between.
_new_round: Final = tuple.__new__


def _rounds_of(kinds: tuple[int, int], caster: int) -> dict[tuple[int, ...], _Usual]:
    key = (kinds[0], kinds[1], caster)
    table = _ROUNDS.get(key)
    if table is None:
        table = _ROUNDS[key] = {}
    return table


def _usual_round(kinds: tuple[int, int], caster: int, casts: tuple[int, ...]) -> _Usual:
    """A round of three spindle faces, not all alike, as _fight_round plays it."""
    a1, a2, d = casts
    striker = 1 - caster if d > max(a1, a2) else caster
    victim = 1 - striker
    pair, base, rule = select_damage(
        (a1, a2, d), COMBAT_ID[kinds[striker]], COMBAT_ID[kinds[victim]]
    )
    return striker, pair, base, rule, max(0, base - DEFENSE_SCORE[kinds[victim]])


def resolve_combat(
    attacker: Combatant, defender: Combatant, casts: Sequence[Sequence[int]]
) -> CombatResult:
    """Replay a combat from recorded casts, one sequence a round; IllegalMoveError names the
    first impossible round (a value off the spindle, too few or too many casts in a round,
    a round after a death, or casts that end before the combat does)."""
    rounds: list[CombatRound] = []
    _replay(attacker, defender, casts, rounds)
    return CombatResult(attacker, defender, tuple(rounds))


def combat_strengths(
    attacker: Combatant, defender: Combatant, casts: Sequence[Sequence[int]]
) -> tuple[int, int]:
    """resolve_combat's (mover, defender) strengths at the end, without building its
    rounds (the validator needs only who won and with what); the same IllegalMoveError for
    the same casts."""
    return _replay(attacker, defender, casts, None)


def _replay(
    attacker: Combatant,
    defender: Combatant,
    casts: Sequence[Sequence[int]],
    rounds: list[CombatRound] | None,
) -> tuple[int, int]:
    """resolve_combat's replay, adding each round to `rounds` unless it is None; the
    strengths at the end."""
    kinds = (attacker.kind, defender.kind)
    strengths = [attacker.strength, defender.strength]
    caster = MOVER
    tables = (_rounds_of(kinds, MOVER), _rounds_of(kinds, DEFENDER))
    for n, values in enumerate(casts, start=1):
        if strengths[0] <= 0 or strengths[1] <= 0:
            raise IllegalMoveError.coded("cast_after_combat", "D.4", n=n, ended=n - 1)
        key = values if type(values) is tuple else tuple(values)
        known = tables[caster].get(key)
        if known is None:
            for v in values:
                if v not in SPINDLE_FACES:
                    raise IllegalMoveError.coded("spindle_face", "D.1.5", value=v, n=n)
            if len(values) == 3 and not values[0] == values[1] == values[2]:
                known = tables[caster][key] = _usual_round(kinds, caster, key)
        if known is not None:
            # The usual round, three casts and no triple: _fight_round's steps, looked up.
            striker, pair, base, rule, damage = known
            strengths[1 - striker] -= damage
            if rounds is not None:
                row = (key, caster, (), striker, pair, base, rule, damage, _pair(strengths))
                rounds.append(_new_round(CombatRound, row))
            caster = 1 - striker
            continue
        try:
            r = _fight_round(kinds, strengths, caster, _drawer(values))
        except _OutOfCasts:
            if len(values) < 3:
                raise IllegalMoveError.coded(
                    "round_too_few_casts", "D.1.5", n=n, count=len(values)
                ) from None
            raise IllegalMoveError.coded("triple_second_cast", "D.1.8", n=n) from None
        if len(r.casts) < len(values):
            raise IllegalMoveError.coded(
                "round_too_many_casts",
                "D.1.8" if r.triples else "D.1.5",
                n=n,
                count=len(values),
                used=len(r.casts),
            )
        if rounds is not None:
            rounds.append(r)
        caster = _next_caster(r)
    if strengths[0] > 0 and strengths[1] > 0:
        raise IllegalMoveError.coded(
            "combat_not_over",
            "D.4",
            rounds=len(casts),
            attacker=strengths[0],
            defender=strengths[1],
        )
    return strengths[0], strengths[1]


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


@cache
def _round_texts() -> dict[str, tuple[int, ...]]:
    """A round's casts as the writer writes them (after `[%cast` or `;`, so a space first),
    three digits or, after a triple, five: read by one look-up each instead of splitting and
    int() (built by the first note read, not at import)."""
    return {
        f"{lead}{' '.join(map(str, casts))}": casts
        for lead in ("", " ")
        for casts in [
            *((a, b, c) for a in range(10) for b in range(10) for c in range(10)),
            *((a, a, a, b, c) for a in range(10) for b in range(10) for c in range(10)),
        ]
    }


def parse_casts(text: str) -> tuple[tuple[int, ...], ...]:
    """The rounds of casts in the body of a `[%cast …]` note; IllegalMoveError if unreadable."""
    texts = _round_texts()
    known = [texts.get(part) for part in text.split(";")]
    if None not in known:
        # Every round written as the writer writes it: what the reading below gives.
        return cast("tuple[tuple[int, ...], ...]", tuple(known))
    if not text.strip(_CAST_CHARS) and _LONG_CAST.search(text) is None:
        # Digits and separators only, as the writer writes them, no cast of three digits:
        # read at once when no round is empty (the loop below names what is wrong).
        parts = text.replace(",", " ").split(";")
        quick = tuple([tuple(map(int, part.split())) for part in parts])
        if all(quick):
            return quick
    rounds = []
    for n, part in enumerate(text.split(";"), start=1):
        values = []
        for token in part.replace(",", " ").split():
            # len() first: a huge digit string must not reach int().
            if not (token.isascii() and token.isdigit() and len(token) <= 2):
                raise IllegalMoveError.coded("unreadable_cast", "D.1.5", token=repr(token[:20]))
            values.append(int(token))
        if not values:
            raise IllegalMoveError.coded("empty_cast_round", "D.1.5", n=n)
        rounds.append(tuple(values))
    return tuple(rounds)


def parse_cast_notes(comments: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    """The casts recorded in a ply's comments (empty when none)."""
    if not comments:
        return ()
    found = [m for c in comments for m in _CAST_RE.finditer(c)]
    if not found:
        if any("%cast" in c for c in comments):
            raise IllegalMoveError.coded("unreadable_cast_note", "D.1.5")
        return ()
    if len(found) > 1:
        raise IllegalMoveError.coded("cast_note_twice", "D.1.5")
    return parse_casts(found[0].group(1))


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
    "base_damage",
    "cast_combat",
    "describe_combat",
    "format_casts",
    "parse_cast_notes",
    "parse_casts",
    "resolve_combat",
    "select_damage",
]
