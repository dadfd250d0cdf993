"""Calendar files (.ics): an event's days and rounds, a player's battles from their side
(opponent, board, place, start); each file parsed back as a calendar app would read it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from icalendar import Calendar

from tests.tournaments.services.factories import Officials, event_make, officials_make, round_make
from tournaments.calendar_feed import CalendarItem, calendar_file
from tournaments.models import Round, Tournament

START = dt.datetime(2026, 11, 1, 14, 30, tzinfo=dt.UTC)


def events_of(body: bytes) -> list[dict[str, object]]:
    cal = Calendar.from_ical(body)
    return [
        {
            "uid": str(e["UID"]),
            "summary": str(e["SUMMARY"]),
            "start": e.decoded("DTSTART"),
            "end": e.decoded("DTEND") if "DTEND" in e else None,
            "location": str(e.get("LOCATION", "")),
            "description": str(e.get("DESCRIPTION", "")),
            "url": str(e.get("URL", "")),
        }
        for e in cal.walk("VEVENT")
    ]


def test_a_calendar_file_reads_back_with_its_times_days_and_escaped_texts():
    items = [
        CalendarItem(
            uid="a@x", summary="Cup; round 1, board 2", starts_at=START, location="Hall, B"
        ),
        CalendarItem(
            uid="b@x", summary="Cup", day=dt.date(2026, 11, 1), last_day=dt.date(2026, 11, 3)
        ),
    ]
    body = calendar_file(name="Cup", items=items, stamp=START)
    assert body.startswith(b"BEGIN:VCALENDAR\r\n")
    assert b"\r\nVERSION:2.0\r\n" in body
    read = events_of(body)
    assert [(e["uid"], e["summary"], e["location"]) for e in read] == [
        ("a@x", "Cup; round 1, board 2", "Hall, B"),
        ("b@x", "Cup", ""),
    ]
    assert read[0]["start"] == START
    # Whole days: DTEND is the day after the last.
    assert (read[1]["start"], read[1]["end"]) == (dt.date(2026, 11, 1), dt.date(2026, 11, 4))


@pytest.fixture
def scheduled(db):  # type: ignore[no-untyped-def]
    officials: Officials = officials_make()
    t, (ann, bob, cid, dax) = event_make(officials)
    Tournament.objects.filter(pk=t.pk).update(venue="Great Hall", end_date=dt.date(2026, 11, 2))
    rnd = round_make(t, [(ann, bob), (cid, dax)])
    Round.objects.filter(pk=rnd.pk).update(starts_at=START, place="Room 3")
    draft = round_make(t, [(ann, cid), (bob, dax)], draft=True)
    Round.objects.filter(pk=draft.pk).update(starts_at=START + dt.timedelta(days=1))
    t.refresh_from_db()
    return t, (ann, bob, cid, dax)


def test_the_events_file_holds_its_days_and_published_rounds(scheduled, client: Client):
    t, _ = scheduled
    answer = client.get(reverse("tournaments:calendar", args=[t.slug]))
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/calendar")
    read = events_of(answer.content)
    assert [(e["start"], e["location"]) for e in read] == [
        (dt.date(2026, 11, 1), "Great Hall"),
        (START, "Room 3"),
    ]
    assert read[0]["end"] == dt.date(2026, 11, 3)
    assert read[1]["url"].endswith(reverse("tournaments:round", args=[t.slug, 1]))


def test_a_players_file_holds_their_battles_from_their_side(scheduled, client: Client):
    t, (ann, bob, _cid, _dax) = scheduled
    answer = client.get(reverse("tournaments:player-calendar", args=[bob.pk]))
    assert answer.status_code == 200
    read = events_of(answer.content)
    assert read[0]["summary"] == t.name
    battles = read[1:]
    assert len(battles) == 1  # the draft round's battle is nobody's to know yet
    (battle,) = battles
    assert "board 1" in battle["summary"] and ann.name in battle["summary"]
    assert battle["description"] == f"{bob.name} places second"
    assert (battle["start"], battle["location"]) == (START, "Room 3")
    assert client.get(reverse("tournaments:player-calendar", args=[999999])).status_code == 404


def test_the_pages_link_their_calendar_files(scheduled, client: Client):
    t, (ann, *_rest) = scheduled
    page = client.get(reverse("tournaments:detail", args=[t.slug])).content.decode()
    assert reverse("tournaments:calendar", args=[t.slug]) in page
    page = client.get(reverse("tournaments:player", args=[ann.pk])).content.decode()
    assert reverse("tournaments:player-calendar", args=[ann.pk]) in page
