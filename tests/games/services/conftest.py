"""Fixtures of the games' direct service tests: a four-player event's first game, records
made for it, and the tasks handed to the broker (none really is)."""

from __future__ import annotations

import pytest

from games.services import records
from rules.record import write_record
from tests.rules.test_clock import record
from tests.tournaments.services.factories import Officials, event_make, officials_make, round_make
from tournaments.models import Game


def clock_record(clocks: dict[int, str]) -> bytes:
    """A 30-ply record under 20/1800:1200 with these clock readings (ply: h:mm:ss): a reading
    of 0:00:00 at ply 30 flags gold, at ply 29 green."""
    return write_record(record("20/1800:1200", clocks)).encode()


@pytest.fixture
def officials(db) -> Officials:  # type: ignore[no-untyped-def]
    return officials_make()


@pytest.fixture
def game(officials) -> Game:  # type: ignore[no-untyped-def]
    """Ann (first) - Bob of the published round 1 of a four-player event (Cid - Dax on
    board 2), its arbiters `officials.arbiter` and `officials.arbiter2`."""
    t, (a, b, c, d) = event_make(officials, time_control="20/1800:1200")
    return round_make(t, [(a, b), (c, d)]).games.get(board=1)


@pytest.fixture
def sent(monkeypatch):  # type: ignore[no-untyped-def]
    """The tasks the records services hand to the broker, recorded instead of sent."""
    calls: list[tuple[str, tuple[object, ...]]] = []

    def task_send(name: str, *args: object) -> bool:
        calls.append((name, args))
        return True

    monkeypatch.setattr(records, "task_send", task_send)
    return calls
