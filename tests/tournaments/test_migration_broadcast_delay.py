"""The broadcast delay's migration carries existing events over: each keeps every setting,
its battles broadcast live (no delay), as before; and back."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.migrating import migrate as _migrate

BEFORE = [("tournaments", "0026_round_plan")]
AFTER = [("tournaments", "0027_broadcast_delay")]


@pytest.mark.django_db(transaction=True)
def test_existing_events_broadcast_live() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    Tournament = old.get_model("tournaments", "Tournament")
    Tournament.objects.create(
        name="Old Online",
        slug="old-online",
        start_date=date(2026, 1, 1),
        time_control="1800+10",
        play="online_live",
    )

    new = _migrate(AFTER).loader.project_state(AFTER).apps
    moved = new.get_model("tournaments", "Tournament").objects.get(slug="old-online")
    assert (moved.name, moved.time_control, moved.play, moved.broadcast_delay_minutes) == (
        "Old Online",
        "1800+10",
        "online_live",
        0,
    )

    back = _migrate(BEFORE).loader.project_state(BEFORE).apps
    assert back.get_model("tournaments", "Tournament").objects.get().play == "online_live"
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
