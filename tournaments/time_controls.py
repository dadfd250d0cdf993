"""Time controls as people write and read them (Art. 6.4): the usual written forms the
arbiter's form reads ("90+30", "40/120, 30": minutes, seconds a move), the presets it offers,
and the words every page prints; what is stored stays the record format (seconds)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from rules.clock import Period, TimeControl, format_time_control
from tournaments.event_rules import time_control_read

# A written period: [moves/]time[+increment], the time in minutes unless a unit says
# otherwise ("90", "90m", "1h30", "5400s"), the increment in seconds ("+30", "+30s").
_PERIOD = re.compile(
    r"""^\s*(?:(?P<moves>\d+)\s*/\s*)?
    (?P<time>\d+(?:[.,]\d+)?)\s*(?P<unit>h|hours?|m|min|mins|minutes?|'|s|sec|secs|seconds?|")?
    (?:\s*(?P<hmin>\d+)\s*(?:m|min|')?)?
    (?:\s*\+\s*(?P<inc>\d+)\s*(?:s|sec|secs|seconds?|")?)?\s*$""",
    re.X | re.I,
)
# A form read as minutes no longer than this; more reads as seconds mistaken for minutes.
_MINUTES_MAX = 600


@dataclass(frozen=True)
class Preset:
    """A time control offered ready-made: its stored value and what it is."""

    value: str
    label: Promise

    @property
    def written(self) -> str:
        return time_control_written(self.value)


PRESETS = (
    Preset("20/1800:1200", gettext_lazy("The Laws' example (Art. 6.4)")),
    Preset("1200", gettext_lazy("The Italian society's 20 minutes")),
    Preset("1500+10", gettext_lazy("Rapid, 25 minutes + 10 seconds a move")),
    Preset("900+10", gettext_lazy("Rapid, 15 minutes + 10 seconds a move")),
    Preset("600+5", gettext_lazy("Rapid, 10 minutes + 5 seconds a move")),
    Preset("5400+30", gettext_lazy("Standard, 90 minutes + 30 seconds a move")),
    Preset("40/7200:1800", gettext_lazy("Standard, 40 moves in 120 minutes, then 30 minutes")),
)


def _seconds(m: re.Match[str], written: str) -> int:
    """A period's time in seconds, minutes unless its unit says otherwise."""
    amount = float(m["time"].replace(",", "."))
    unit = (m["unit"] or "m").lower()
    if unit.startswith("h"):
        return round(amount * 3600) + int(m["hmin"] or 0) * 60
    if m["hmin"]:
        raise ValueError(gettext("cannot read %(part)r") % {"part": written})
    if unit.startswith("s") or unit == '"':
        return round(amount)
    if amount > _MINUTES_MAX and not m["unit"]:
        raise ValueError(
            gettext(
                "%(part)r reads as %(n)s minutes: times are minutes here; write %(n)ss for seconds"
            )
            % {"part": written, "n": m["time"]}
        )
    return round(amount * 60)


def time_control_parse_written(text: str) -> str:
    """The record format (seconds) of a time control written the usual way: periods
    separated by commas, ';' or ':' ("40/120, 30"), each [moves/]minutes[+seconds a move]
    ("90+30"); "" for none. ValueError in words when it cannot be read."""
    if not text.strip():
        return ""
    periods = []
    for written in re.split(r"\s*[,;:]\s*", text.strip()):
        m = _PERIOD.match(written)
        if m is None:
            raise ValueError(
                gettext(
                    "cannot read %(part)r: write moves/minutes, or minutes for all moves, with "
                    "an optional +seconds a move (e.g. 90+30, or 40/120, 30)"
                )
                % {"part": written}
            )
        moves = int(m["moves"]) if m["moves"] else None
        period = Period(moves, _seconds(m, written), int(m["inc"] or 0))
        if not period.seconds and not period.increment:
            raise ValueError(gettext("%(part)r gives no time") % {"part": written})
        periods.append(period)
    value = format_time_control(TimeControl(tuple(periods)))
    time_control_read(value)  # the record format's own checks (a period with no time)
    return value


def _time_written(seconds: int) -> str:
    return str(seconds // 60) if seconds % 60 == 0 else f"{seconds}s"


def time_control_written(value: str) -> str:
    """A stored time control as the form shows it to be edited ("40/120, 30", "90+30");
    the stored text itself where it cannot be read."""
    try:
        tc = time_control_read(value)
    except ValueError:
        return value
    if tc is None:
        return ""
    parts = []
    for p in tc.periods:
        text = (f"{p.moves}/" if p.moves is not None else "") + _time_written(p.seconds)
        parts.append(text + (f"+{p.increment}" if p.increment else ""))
    return ", ".join(parts)


def _time_words(seconds: int) -> str:
    minutes, rest = divmod(seconds, 60)
    if not rest:
        return gettext("%(n)s min") % {"n": minutes}
    if not minutes:
        return gettext("%(n)s s") % {"n": rest}
    return gettext("%(m)s min %(s)s s") % {"m": minutes, "s": rest}


def _period_words(p: Period) -> str:
    time = _time_words(p.seconds)
    if p.moves is None:
        text = gettext("all moves in %(time)s") % {"time": time}
    else:
        text = gettext("%(moves)s moves in %(time)s") % {"moves": p.moves, "time": time}
    if p.increment:
        text += " " + gettext("+ %(n)s s a move") % {"n": p.increment}
    return text


def time_control_words(value: str) -> str:
    """A stored time control in words, in the active language ("20 moves in 30 min, then
    all moves in 20 min"); "" for none, the stored text where it cannot be read."""
    try:
        tc = time_control_read(value)
    except ValueError:
        return value
    if tc is None:
        return ""
    words = [_period_words(p) for p in tc.periods]
    return (", " + gettext("then") + " ").join(words)
