"""Dates as TRF files really write them: `2010/09/24`, `24/09/2010`, `28. 07. 2005`,
`May 29, 2020`, `26/11/26`, read day first where the form leaves it open."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from tournaments.trf.file_records import TrfError

_ISO = re.compile(r"([0-9]{4})[/.-]([0-9]{1,2})[/.-]([0-9]{1,2})", re.ASCII)
_SEP = r"\s*[/.\-]\s*"
_YEAR_FIRST = re.compile(rf"([0-9]{{4}}){_SEP}([0-9]{{1,2}}){_SEP}([0-9]{{1,2}})\.?", re.ASCII)
_NUMERIC = re.compile(
    rf"([0-9]{{1,2}}){_SEP}([0-9]{{1,2}})(?:{_SEP}|\s+)([0-9]{{4}}|[0-9]{{2}})\.?", re.ASCII
)
_ROUND_DATE = re.compile(r"([0-9]{2})[/.-]([0-9]{2})[/.-]([0-9]{2})", re.ASCII)  # YY/MM/DD
_MONTH_FIRST = re.compile(r"([^\W\d_]+)\.?\s+([0-9]{1,2})(?:st|nd|rd|th)?,?\s+([0-9]{4})")
_DAY_FIRST = re.compile(r"([0-9]{1,2})(?:st|nd|rd|th)?\.?\s+([^\W\d_]+)\.?,?\s+([0-9]{4})")
# English, German, French, Italian and Spanish month names, by their first three letters.
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            "jan gen ene",
            "feb fév fev",
            "mar mär mrz",
            "apr avr abr",
            "may mai mag",
            "jun jui giu",
            "jul juil lug",
            "aug aoû aou ago",
            "sep set",
            "oct okt ott",
            "nov",
            "dec dez déc dic",
        ),
        start=1,
    )
    for name in names.split()
}


@dataclass(frozen=True, slots=True)
class DateReading:
    """A date read from a file's text (None: no form fits), and why it may be wrong."""

    value: date | None
    doubt: str = ""


def trf_date(text: str) -> date | None:
    """A TRF date (YYYY/MM/DD, also with . or -), None when blank; TrfError if it is none."""
    if not text:
        return None
    m = _ISO.fullmatch(text)
    if m is None:
        raise TrfError(f"{text!r} is not a date (YYYY/MM/DD)")
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        raise TrfError(f"{text!r} is not a date of the calendar") from None


def date_read(text: str) -> DateReading:
    """The date `text` writes in any common form; a day and month both 12 or less are read
    day first, with a doubt saying so."""
    text = text.strip()
    for reader in (_year_first, _numeric, _named):
        reading = reader(text)
        if reading is not None:
            return reading
    return DateReading(None)


def _calendar(year: int, month: int, day: int, doubt: str = "") -> DateReading | None:
    try:
        return DateReading(date(year, month, day), doubt)
    except ValueError:
        return None


def _year_first(text: str) -> DateReading | None:
    m = _YEAR_FIRST.fullmatch(text)
    return None if m is None else _calendar(int(m[1]), int(m[2]), int(m[3]))


def _century(year: int) -> int:
    """A two-digit year: 70-99 the 1900s, the rest the 2000s."""
    return year + (1900 if year >= 70 else 2000)


def _numeric(text: str) -> DateReading | None:
    """Day, month and year (or month, day, year when the second number cannot be a month)."""
    m = _NUMERIC.fullmatch(text)
    if m is None:
        return None
    first, second, year = int(m[1]), int(m[2]), int(m[3])
    if len(m[3]) == 2:
        if first > 31:  # YY/MM/DD, as TRF's 132 record writes round dates
            return _calendar(_century(first), second, year)
        year = _century(year)
    if second > 12 >= first:
        return _calendar(year, first, second)
    doubt = ""
    if first <= 12 and first != second:
        doubt = f"{text!r} could be month first too; read day first"
    return _calendar(year, second, first, doubt)


def _named(text: str) -> DateReading | None:
    """`May 29, 2020` or `29 May 2020` (a month's name in one of five languages)."""
    m = _MONTH_FIRST.fullmatch(text)
    if m is not None:
        month, day = _month(m[1]), int(m[2])
    else:
        m = _DAY_FIRST.fullmatch(text)
        if m is None:
            return None
        month, day = _month(m[2]), int(m[1])
    return None if month is None else _calendar(int(m[3]), month, day)


def _month(name: str) -> int | None:
    """A month by its name's first four letters (juillet), else its first three."""
    folded = name.casefold()
    return _MONTHS.get(folded[:4]) or _MONTHS.get(folded[:3])


@dataclass(frozen=True, slots=True)
class EventDates:
    """The dates an import gives the event, and what it had to decide to find them."""

    start: date
    end: date | None
    notes: list[str]


def event_dates(
    *, start_text: str, end_text: str, lines: dict[str, int], round_dates: list[str], today: date
) -> EventDates:
    """The start (`042`; else the first round's date from `132`; else `today`) and end
    (`052`, None when it cannot be read or comes before the start) of an event, the texts
    kept as they were by the caller; a note for each guess, naming the line."""
    notes: list[str] = []
    start = _date_noted(text=start_text, what="start date", line=lines.get("042"), notes=notes)
    if start is None:
        start = _first_round_date(round_dates=round_dates, line=lines.get("132"))
        if start is not None:
            notes.append(f"line {lines['132']}: the first round's date {start:%Y/%m/%d} is taken")
        else:
            start = today
            notes.append(f"the import's date {today:%Y/%m/%d} is taken as the start date")
    end = _date_noted(text=end_text, what="end date", line=lines.get("052"), notes=notes)
    if end is not None and end < start:
        notes.append(
            f"line {lines['052']}: the end date {end_text!r} is before the start: left out"
        )
        end = None
    return EventDates(start, end, notes)


def _date_noted(*, text: str, what: str, line: int | None, notes: list[str]) -> date | None:
    """The date `text` writes; a note when it is in doubt or none can be read."""
    if not text.strip():
        if what == "start date":
            notes.append("no start date (042) in the file")
        return None
    reading = date_read(text)
    if reading.value is None:
        notes.append(f"line {line}: the {what} {text!r} fits no date form: kept as text only")
    elif reading.doubt:
        notes.append(f"line {line}: the {what} {reading.doubt}")
    return reading.value


def _first_round_date(*, round_dates: list[str], line: int | None) -> date | None:
    """Round 1's date on the first `132` line (columns 92-99, YY/MM/DD), if it reads."""
    for text in round_dates:
        if text[:3] == "132" and line is not None:
            m = _ROUND_DATE.fullmatch(text[91:99].strip())
            return None if m is None else _calendar_date(_century(int(m[1])), int(m[2]), int(m[3]))
    return None


def _calendar_date(year: int, month: int, day: int) -> date | None:
    reading = _calendar(year, month, day)
    return None if reading is None else reading.value
