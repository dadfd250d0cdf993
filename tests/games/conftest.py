"""Shared by the games tests on the demo event: its arbiter and a game, sample records, and
waiting for a worker to validate a submission."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games.models import RecordSubmission
from tournaments.demo import demo_load
from tournaments.models import Game

RECORDS = Path(__file__).resolve().parents[1] / "rules" / "records"
CAPTURE = (RECORDS / "example1-laws-capture.kzr").read_bytes()
BAD = CAPTURE.replace("Fl@E49 → F69".encode(), "Fe@C29 → D28".encode())  # ply 21 illegal


def done(sub: RecordSubmission) -> RecordSubmission:
    """Wait for the worker (a real one when Redis is configured) to finish a submission."""
    from tests.workers import wait_for

    assert wait_for(lambda: RecordSubmission.objects.get(pk=sub.pk).status == "done", 60)
    sub.refresh_from_db()
    return sub


@pytest.fixture
def setup(worker):  # type: ignore[no-untyped-def]
    """(the first game of the demo's round 1, the demo's arbiter)."""
    tournament, login, _, _ = demo_load(rounds_played=1)
    arbiter = get_user_model().objects.get(username=login)
    game = Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME).first()
    return game, arbiter
