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
        return (
            f"the record's clouded triangles (Clouds tag, Art. 13.4) are "
            f"{squares_text(rules.clouds)}; this tournament fixes {squares_text(want.clouds)}",
            "9.1",
        )
    if rules.crown != want.crown:
        return (
            f"the record's designated apex of Kagga's Crown (Crown tag, Art. 13.3) is "
            f"{crown_text(rules.crown)}; this tournament fixes {crown_text(want.crown)}",
            "9.1",
        )
    if rules.ablation_limit != want.ablation_limit:
        return (
            f"the record's ablation limit (AblationLimit tag, Art. 13.6) is "
            f"{ablation_text(rules.ablation_limit)}; this tournament fixes "
            f"{ablation_text(want.ablation_limit)}",
            "9.1",
        )
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
        return (
            f"the record's TimeControl {text!r} cannot be read ({exc}); this tournament "
            f"plays {event} (Art. 6.4)",
            "9.1",
        )
    if got != want:
        return (
            f"the record's TimeControl is {text} ({describe_time_control(got)}); this "
            f"tournament plays {event} (Art. 6.4)",
            "9.1",
        )
    return None


def _notation_broken(tags: Mapping[str, str], expected: Expected) -> tuple[str, str] | None:
    if not expected.notation:
        return None
    # A record with no Notation tag is geometric, as the reader takes it.
    got = tags.get("Notation", "").strip().lower() or "geometric"
    if got != expected.notation:
        return (
            f"the record is written in {got} notation (Notation tag); this tournament "
            f"requires {expected.notation} notation",
            "8.3",
        )
    return None


def _resignation_broken(record: Record, expected: Expected) -> tuple[str, str] | None:
    if record.tags.get("Termination", "").strip().lower() != "resignation":
        return None
    if not expected.resignation_allowed:
        return (
            "the record ends in resignation (Termination tag); this tournament forbids resignation",
            "9.2",
        )
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
        f"{COLOR_NAMES[side]} resigned having made {made[side]} moves (the setup counting as "
        f"move 1, Art. 6.7); this tournament allows resignation after {need} moves",
        "9.2",
    )


def _moves_made(record: Record) -> tuple[int, int]:
    """The moves each side completed, as the clocks count them (setup = move 1)."""
    made = [0, 0]
    for turn in ply_turns(record):
        if turn.completes:
            made[turn.side] = max(made[turn.side], turn.move)
    return made[0], made[1]
