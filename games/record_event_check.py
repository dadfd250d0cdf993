"""A record checked against the event's own rules (Art. 9.1): its variants' parameters, time
control (6.4), notation (8.3) and resignation (9.2); plain code on a record read."""

from __future__ import annotations

from collections.abc import Mapping

from games.selectors import Expected
from rules.clock import (
    ClockError,
    TimeControl,
    describe_time_control,
    parse_time_control,
    ply_turns,
)
from rules.messages import message
from rules.position import COLOR_NAMES, Rules
from rules.record import Record
from tournaments.event_rules import ablation_text, crown_text, squares_text, time_control_read


def event_time_control(expected: Expected) -> TimeControl | None:
    """The time control the event states, which its games' clocks are adjudicated under;
    None when it states none (or one no clock can be adjudicated under)."""
    try:
        return time_control_read(expected.time_control)
    except ValueError:
        return None


def event_rules_broken(record: Record, rules: Rules, expected: Expected) -> tuple[str, str] | None:
    """(reason, Article) of the first of the event's own rules a valid record breaks, or
    None. `rules` are those the record's tags name, already found to be the game's ruleset
    and variants. Each reason names what the record says and what the event says."""
    tags = record.tags
    return (
        _parameters_broken(rules, expected)
        or _time_control_broken(tags, expected)
        or _notation_broken(tags, expected)
        or _resignation_broken(record, expected)
    )


def _parameters_broken(rules: Rules, expected: Expected) -> tuple[str, str] | None:
    want = expected.parameters
    if want is None:
        return None
    if rules.clouds != want.clouds:
        got, fixed = squares_text(rules.clouds), squares_text(want.clouds)
        return message("clouds_mismatch", clouds=got, expected=fixed), "9.1"
    if rules.crown != want.crown:
        got, fixed = crown_text(rules.crown), crown_text(want.crown)
        return message("crown_mismatch", crown=got, expected=fixed), "9.1"
    if rules.ablation_limit != want.ablation_limit:
        got, fixed = ablation_text(rules.ablation_limit), ablation_text(want.ablation_limit)
        return message("ablation_limit_mismatch", limit=got, expected=fixed), "9.1"
    return None


def _time_control_broken(tags: Mapping[str, str], expected: Expected) -> tuple[str, str] | None:
    """A record names its time control only to say what was played: one other than the
    event's is not the event's battle. A record naming none is played under the event's."""
    want = event_time_control(expected)
    text = tags.get("TimeControl", "").strip()
    if want is None or not text:
        return None
    event = f"{expected.time_control} ({describe_time_control(want)})"
    try:
        got = parse_time_control(text)
    except ClockError as exc:
        why = message("time_control_unreadable", written=repr(text), why=exc, expected=event)
        return why, "9.1"
    if got != want:
        played = describe_time_control(got)
        why = message("time_control_mismatch", written=text, played=played, expected=event)
        return why, "9.1"
    return None


def _notation_broken(tags: Mapping[str, str], expected: Expected) -> tuple[str, str] | None:
    if not expected.notation:
        return None
    # A record with no Notation tag is geometric, as the reader takes it.
    got = tags.get("Notation", "").strip().lower() or "geometric"
    if got != expected.notation:
        return message("notation_mismatch", notation=got, expected=expected.notation), "8.3"
    return None


def _resignation_broken(record: Record, expected: Expected) -> tuple[str, str] | None:
    if record.tags.get("Termination", "").strip().lower() != "resignation":
        return None
    if not expected.resignation_allowed:
        return message("resignation_forbidden"), "9.2"
    need = expected.resignation_after_moves
    if not need:
        return None
    try:
        made = _moves_made(record)
    except ClockError:
        return None  # who made each ply cannot be told: the arbiter's eye, not a refusal
    winner = record.tags.get("Result", "").strip().lower()
    # The side that resigned lost; with no winner named, neither may have resigned early.
    sides = [1 - COLOR_NAMES.index(winner)] if winner in COLOR_NAMES else [0, 1]
    side = min(sides, key=lambda s: made[s])
    if made[side] >= need:
        return None
    return (
        message("resigned_early", colour=COLOR_NAMES[side], moves=made[side], need=need),
        "9.2",
    )


def _moves_made(record: Record) -> tuple[int, int]:
    """The moves each side completed, as the clocks count them (setup = move 1)."""
    made = [0, 0]
    for turn in ply_turns(record):
        if turn.completes:
            made[turn.side] = max(made[turn.side], turn.move)
    return made[0], made[1]
