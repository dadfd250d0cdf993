"""Migration 0022 gives every round already scheduled its plan (start and place, in step with
the round); rounds never scheduled get none; back, the rounds keep their schedule."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from tests.migrating import migrate as _migrate
from tests.migrating import migrate_latest

BEFORE = [("tournaments", "0025_player_requests")]
AFTER = [("tournaments", "0026_round_plan")]


@pytest.mark.django_db(transaction=True)
def test_scheduled_rounds_get_their_plans() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    t = old.get_model("tournaments", "Tournament").objects.create(
        name="Old Robin", slug="old-robin", start_date=date(2026, 1, 1)
    )
    Round = old.get_model("tournaments", "Round")
    start = datetime(2026, 1, 1, 10, tzinfo=UTC)
    Round.objects.create(tournament=t, number=1, starts_at=start, place="Hall")
    Round.objects.create(tournament=t, number=2, place="Annex")
    Round.objects.create(tournament=t, number=3)
    new = _migrate(AFTER).loader.project_state(AFTER).apps
    RoundPlan = new.get_model("tournaments", "RoundPlan")
    plans = list(
        RoundPlan.objects.filter(tournament_id=t.pk)
        .order_by("number")
        .values_list("number", "starts_at", "place")
    )
    assert plans == [(1, start, "Hall"), (2, None, "Annex")]
    back = _migrate(BEFORE).loader.project_state(BEFORE).apps
    rounds = back.get_model("tournaments", "Round").objects.filter(tournament_id=t.pk)
    assert rounds.get(number=1).place == "Hall"
    migrate_latest()
