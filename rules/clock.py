"""Clocks (Art. 6): time controls, move counting with the setup as move 1, and the flag
adjudication of records.md §4."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from rules.engines import new_position, position_class
from rules.errors import RulesError
from rules.position import COLOR_NAMES, GOLD, GREEN
from rules.record import Record
from rules.validate import rules_from_tags, validate_record


class ClockError(RulesError):
    """A time control or clock tag that cannot be read."""


@dataclass(frozen=True, slots=True)
class Period:
    """`moves` in `seconds` (None: all remaining moves), plus `increment` a move."""

    moves: int | None
    seconds: int
    increment: int = 0


@dataclass(frozen=True, slots=True)
class TimeControl:
    periods: tuple[Period, ...]

    def requirement_after(self, completed: int) -> int | None:
        """The number of moves the period a side is in requires, having completed
        `completed` moves: None for a final period (all moves), -1 when nothing more is
        required (every period with a move count is done and none follows)."""
        total = 0
        for p in self.periods:
            if p.moves is None:
                return None
            total += p.moves
            if completed < total:
                return total
        return -1


_PERIOD_RE = re.compile(r"^(?:(\d+)/)?(\d+)(?:\+(\d+))?$")


def parse_time_control(text: str) -> TimeControl:
    """`20/1800:1200` = 20 moves in 30 minutes, then the rest in 20 minutes."""
    periods = []
    parts = [p.strip() for p in text.strip().split(":")]
    if not text.strip():
        raise ClockError("empty time control")
    for i, part in enumerate(parts):
        m = _PERIOD_RE.match(part)
        if m is None:
            raise ClockError(
                f"cannot read time control period {part!r}: use moves/seconds or seconds, "
                "with an optional +increment"
            )
        moves = int(m.group(1)) if m.group(1) else None
        if moves == 0:
            raise ClockError(f"period {part!r} requires no moves")
        if moves is None and i != len(parts) - 1:
            raise ClockError(f"period {part!r} covers all moves, so it must be the last")
        periods.append(Period(moves, int(m.group(2)), int(m.group(3) or 0)))
    return TimeControl(tuple(periods))


def format_time_control(tc: TimeControl) -> str:
    out = []
    for p in tc.periods:
        text = f"{p.moves}/{p.seconds}" if p.moves is not None else f"{p.seconds}"
        out.append(text + (f"+{p.increment}" if p.increment else ""))
    return ":".join(out)


def describe_time_control(tc: TimeControl) -> str:
    """Art. 6.4 wording: '20 moves in 30 minutes, then all moves in 20 minutes'."""
    parts = []
    for i, p in enumerate(tc.periods):
        minutes = f"{p.seconds // 60} minutes" if p.seconds % 60 == 0 else f"{p.seconds} seconds"
        what = f"{p.moves} moves" if p.moves is not None else "all moves"
        inc = f" plus {p.increment} seconds a move" if p.increment else ""
        parts.append(("then " if i else "") + f"{what} in {minutes}{inc}")
    return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class PlyTurn:
    """Who made a ply and which of that side's moves it belongs to (setup = move 1);
    `completes` when the ply finishes that move."""

    side: int
    move: int
    completes: bool


def ply_turns(record: Record) -> list[PlyTurn]:
    try:
        rules, first = rules_from_tags(record.tags)
    except ValueError as exc:
        raise ClockError(f"cannot tell who made each ply: {exc}") from None
    pos = new_position(rules, first)
    battle_moves = [0, 0]
    out = []
    for i in range(len(record.plies)):
        pos.ply = i
        side, stage = pos.stage()
        if stage == "battle":
            battle_moves[side] += 1
            out.append(PlyTurn(side, 1 + battle_moves[side], True))
        else:
            # A variant whose setup does not end with each side's Goal ply (reflective, Art.
            # 13.7) says itself which ply completes a side's setup.
            out.append(PlyTurn(side, 1, pos.completes_setup()))
    return out


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A change to a side's remaining time from a ply on (Art. 6.8, 6.9, 6.12, 6.13,
    12.4 b/c, 12.5): positive adds time, negative takes it away. Readings before `from_ply`
    are untouched. `at`, a moment in seconds after the scheduled start, places it instead
    at the first ply whose reading was taken after that moment (`ply_at_moment`; after the
    last ply when none was), where the record's readings tell; `from_ply` stands when it has
    none (no readings, no time control). `in_readings`: a charge the
    clock itself already ran (a latecomer's, Art. 6.8), recorded but never applied again."""

    side: int
    from_ply: int = 1
    seconds: int = 0
    article: str = ""
    at: int | None = None
    in_readings: bool = False


def latecomer_adjustments(
    late_green: int, late_gold: int, running: int = GREEN
) -> tuple[Adjustment, ...]:
    """The clock charges for latecomers, from each side's seconds late after the scheduled
    start (0 for on time), from ply 1. Art. 6.8: the absent combatant's clock runs until they
    arrive, so its readings already hold the charge (`in_readings`: recorded, not applied
    again). Art. 6.9: with both absent the clock runs for one of them (`running`) until they
    arrive, and the other is adjusted so that each is charged the time from the scheduled
    start to their own arrival: the other's clock is adjusted by the time the running one
    ran while both were away (the lesser lateness); if the other came later still, its own
    clock ran for the rest (6.8 again, in the readings)."""
    if late_green < 0 or late_gold < 0:
        raise ValueError("lateness cannot be negative")
    if running not in (GREEN, GOLD):
        raise ValueError("the running clock is green's (0) or gold's (1)")
    late = (late_green, late_gold)
    if not (late_green and late_gold):
        return tuple(
            Adjustment(side, 1, -late[side], "6.8", in_readings=True)
            for side in (GREEN, GOLD)
            if late[side]
        )
    other = 1 - running
    adjusted = min(late[other], late[running])
    out = [
        Adjustment(running, 1, -late[running], "6.9", in_readings=True),
        Adjustment(other, 1, -adjusted, "6.9"),
    ]
    if late[other] > adjusted:
        out.append(Adjustment(other, 1, adjusted - late[other], "6.8", in_readings=True))
    return tuple(sorted(out, key=lambda a: (a.side, a.in_readings)))


def allotted_seconds(tc: TimeControl, completed: int) -> int:
    """The time a side's clock has been given having completed `completed` moves (the
    server's clock reads its time left from it, rules.live_clock)."""
    return _allotted(tc, completed)


def _allotted(tc: TimeControl, completed: int) -> int:
    """The time a side's clock has been given having completed `completed` moves: the
    periods reached (a reading that completes a period already holds the next one's time,
    records.md §4) and their increments."""
    total, start = 0, 0
    for p in tc.periods:
        if completed < start:
            break
        total += p.seconds
        done = completed - start if p.moves is None else min(completed - start, p.moves)
        total += p.increment * done
        if p.moves is None:
            break
        start += p.moves
    return total


def reading_moments(record: Record, tc: TimeControl | None = None) -> dict[int, int]:
    """{ply: the moment its reading was taken, in seconds after the scheduled start}. Only
    one clock runs at a time and, with latecomers, it runs from the scheduled start (Art.
    6.8, 6.9), so a reading's moment is the time both clocks have used: each side's time
    given (`_allotted`) less its latest reading. Empty without a time control."""
    if tc is None:
        text = record.tags.get("TimeControl", "").strip()
        if not text:
            return {}
        tc = parse_time_control(text)
    if sum(p.seconds for p in tc.periods) <= 0:
        return {}
    turns = ply_turns(record)
    used: list[int | None] = [None, None]
    out: dict[int, int] = {}
    for i, (rp, turn) in enumerate(zip(record.plies, turns, strict=True)):
        if rp.clock is None:
            continue
        completed = turn.move if turn.completes else turn.move - 1
        used[turn.side] = max(0, _allotted(tc, completed) - rp.clock)
        out[i + 1] = sum(u or 0 for u in used)
    return out


def ply_at_moment(record: Record, at: int, tc: TimeControl | None = None) -> int | None:
    """The first ply whose reading was taken after the moment `at` (seconds after the
    scheduled start), or None when the readings do not tell (none after it, no control)."""
    moments = reading_moments(record, tc)
    return next((ply for ply, moment in sorted(moments.items()) if moment > at), None)


def _resolved(
    record: Record, tc: TimeControl, adjustments: tuple[Adjustment, ...]
) -> tuple[Adjustment, ...]:
    """The adjustments as the readings take them: charges already in the readings left out,
    a moment placed at its ply."""
    moments: dict[int, int] | None = None
    out = []
    for a in adjustments:
        if a.in_readings:
            continue
        if a.at is not None:
            moments = reading_moments(record, tc) if moments is None else moments
            if moments:
                # no reading after the moment: it changes none of this record's readings
                ply = next((p for p, m in sorted(moments.items()) if m > a.at), None)
                a = replace(a, from_ply=ply if ply is not None else len(record.plies) + 1)
        out.append(a)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class ClockDecision:
    decision: str | None
    loser: str | None
    article: str | None
    explanation: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"decision": self.decision, "loser": self.loser, "article": self.article}


NO_DECISION = ClockDecision(None, None, None, "no flag fell before its requirement")


# Art. 6.14: both flags fell, and neither the tags nor the readings tell which first.
_BOTH_FELL = ClockDecision(
    "continue", None, "6.14", "both flags fell and it is not known which fell first"
)


def adjudicate(record: Record, adjustments: tuple[Adjustment, ...] = ()) -> ClockDecision:
    """Decide the clocks of a record (records.md §4)."""
    tags = record.tags
    tc_text = tags.get("TimeControl", "").strip()
    tc = parse_time_control(tc_text) if tc_text else TimeControl((Period(None, 0),))
    flag_tag = tags.get("Flag", "").strip().lower()
    turns = ply_turns(record)
    adjustments = _resolved(record, tc, adjustments)
    # (ply index, side, completed moves at the flag) of each flag fallen
    flags = _readings_flags(record, turns, adjustments)
    ply_text = tags.get("FlagPly", "").strip()
    if flag_tag == "both" and not ply_text and not flags:
        return _BOTH_FELL
    tagged = _tags_flags(flag_tag, ply_text, turns)  # the flags the arbiter noted in tags
    if position_class(rules_from_tags(tags)[0]).counts_at_time_out:
        # The battle, not each side, has the control's time (the Italian society's "le
        # partite durano 20 minuti"): it is up when both clocks together have run it, or
        # when the arbiter noted the time-out (a Flag tag).
        ups = [t[0] for t in tagged] + _battle_time_up(record, turns, tc, adjustments)
        return _time_out_count(record, min(ups)) if ups else NO_DECISION
    decision = _first_flag_decision(flags + tagged, tc)
    if decision is not None:
        return decision
    return _BOTH_FELL if flag_tag == "both" and not ply_text else NO_DECISION


def _readings_flags(
    record: Record, turns: list[PlyTurn], adjustments: tuple[Adjustment, ...]
) -> list[tuple[int, int, int]]:
    """The flags the readings show fallen: (ply index, side, completed moves at the flag)
    for each reading at zero or below, its adjustments counted."""
    flags = []
    for i, (rp, turn) in enumerate(zip(record.plies, turns, strict=True)):
        if rp.clock is None:
            continue
        bonus = sum(a.seconds for a in adjustments if a.side == turn.side and a.from_ply <= i + 1)
        if rp.clock + bonus <= 0:
            # The clock stopped at zero: the flag fell before this ply's move was complete.
            flags.append((i, turn.side, turn.move - 1))
    return flags


def _tags_flags(flag_tag: str, ply_text: str, turns: list[PlyTurn]) -> list[tuple[int, int, int]]:
    """The flags the `Flag` and `FlagPly` tags note, as _readings_flags gives them."""
    if flag_tag == "both":
        return _both_flags(ply_text, turns)
    if flag_tag in ("green", "gold"):
        return [_tagged_flag(COLOR_NAMES.index(flag_tag), ply_text, turns)]
    return []


def _first_flag_decision(
    flags: list[tuple[int, int, int]], tc: TimeControl
) -> ClockDecision | None:
    """The loss on time of the first flag fallen before its period's requirement (Art.
    6.5), or None when none did."""
    for index, side, completed in sorted(flags):
        need = tc.requirement_after(completed)
        if need == -1:
            continue
        what = "all moves" if need is None else f"{need} moves"
        return ClockDecision(
            "time",
            COLOR_NAMES[side],
            "6.5",
            f"{COLOR_NAMES[side]}'s flag fell at ply {index + 1} having completed {completed} "
            f"moves; its period requires {what}",
        )
    return None


def _battle_time_up(
    record: Record, turns: list[PlyTurn], tc: TimeControl, adjustments: tuple[Adjustment, ...]
) -> list[int]:
    """[the index of the ply during which the battle's time ran out], or []: each clock
    starts with the control's time and the battle's time is up once the two together have
    run it (a reading, with its adjustments, counts from its ply until the side's next)."""
    battle = sum(p.seconds for p in tc.periods)
    if battle <= 0:
        return []
    remaining = [battle, battle]
    for i, (rp, turn) in enumerate(zip(record.plies, turns, strict=True)):
        if rp.clock is None:
            continue
        bonus = sum(a.seconds for a in adjustments if a.side == turn.side and a.from_ply <= i + 1)
        remaining[turn.side] = rp.clock + bonus
        if (battle - remaining[0]) + (battle - remaining[1]) >= battle:
            return [i]
    return []


def _time_out_count(record: Record, index: int) -> ClockDecision:
    """A ruleset's own time-out (the Italian society's): the battle's time is up, and a count
    decides (a tie goes to the coin), not whose flag fell."""
    tags = {k: v for k, v in record.tags.items() if k not in ("Result", "Termination", "Coin")}
    verdict = validate_record(Record(tags, record.plies[:index]))
    if verdict.position is None or not verdict.valid:
        raise ClockError("the record must be valid up to the time-out to count it")
    count = verdict.position.time_out_count()
    assert count is not None
    winner, described, article = count
    if winner is None:
        return ClockDecision("coin", None, article, f"{described}: a coin decides")
    loser = COLOR_NAMES[1 - winner]
    return ClockDecision("count", loser, article, f"{described}: {loser} loses")


def _both_flags(ply_text: str, turns: list[PlyTurn]) -> list[tuple[int, int, int]]:
    """Both flags down (Art. 6.14) with the order noted. Only the mover's clock runs during a
    ply, so the flag `FlagPly` names fell on the side that made that ply, first; the other
    fell later, at a ply not noted (taken as after the last). With no `FlagPly` only the
    readings' flags (a zero reading) are ordered: the battle continues if none decides."""
    if not ply_text:
        return []  # after the readings' flags, the order of the two is unknown (6.14)
    first = _tagged_flag(GREEN, ply_text, turns)  # checks the ply number
    mover = turns[first[0]].side
    return [_tagged_flag(mover, ply_text, turns), _tagged_flag(1 - mover, "", turns)]


def _tagged_flag(side: int, ply_text: str, turns: list[PlyTurn]) -> tuple[int, int, int]:
    if ply_text:
        if not ply_text.isdigit() or not 1 <= int(ply_text) <= max(len(turns), 1):
            raise ClockError(f"FlagPly must be a ply number of the record, not {ply_text!r}")
        index = int(ply_text) - 1
    else:
        index = len(turns)  # after the last ply: during the side's next move
    # Moves the side had completed before the ply during which its flag fell.
    done = [t for t in turns[:index] if t.side == side and t.completes]
    completed = max((t.move for t in done), default=0)
    return index, side, completed
