"""Fixtures of the direct service tests: the officials and a four-player event."""

from __future__ import annotations

import pytest

from tests.tournaments.services.factories import Officials, event_make, officials_make


@pytest.fixture
def officials(db) -> Officials:  # type: ignore[no-untyped-def]
    return officials_make()


@pytest.fixture
def event(officials):  # type: ignore[no-untyped-def]
    """(tournament, [Ann, Bob, Cid, Dax]) run by `officials`, nothing paired yet."""
    return event_make(officials)
