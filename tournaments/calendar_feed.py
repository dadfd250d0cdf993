"""Calendar files (.ics, RFC 5545) of an event and of a player: the event's days and its
rounds' scheduled starts; a player's battles (opponent, board, place) and events. Written
from plain items, so that the file's form is tested without a database."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from icalendar import Calendar, Event

PRODUCT = "-//Klin Zha tournaments//kz//EN"


@dataclass(frozen=True, slots=True)
class CalendarItem:
    """One entry: a scheduled start (`starts_at`, aware) or whole days (`day` to `last_day`)."""

    uid: str  # stable across downloads, so that a calendar updates the entry, not doubles it
    summary: str
    starts_at: dt.datetime | None = None
    day: dt.date | None = None
    last_day: dt.date | None = None
    location: str = ""
    description: str = ""
    url: str = ""


def calendar_file(*, name: str, items: Sequence[CalendarItem], stamp: dt.datetime) -> bytes:
    """The calendar named `name` holding `items` (DTSTAMP `stamp`, UTC)."""
    cal = Calendar()
    cal.add("prodid", PRODUCT)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", name)
    for item in items:
        event = Event()
        event.add("uid", item.uid)
        event.add("dtstamp", stamp.astimezone(dt.UTC))
        event.add("summary", item.summary)
        if item.starts_at is not None:
            event.add("dtstart", item.starts_at.astimezone(dt.UTC))
        elif item.day is not None:
            event.add("dtstart", item.day)
            # DTEND of whole days is the day after the last (RFC 5545, 3.6.1).
            event.add("dtend", (item.last_day or item.day) + dt.timedelta(days=1))
        for key, value in (
            ("location", item.location),
            ("description", item.description),
            ("url", item.url),
        ):
            if value:
                event.add(key, value)
        cal.add_component(event)
    return cal.to_ical()
