"""The `play` setting's migration carries existing events over: each keeps every setting
and is played over the board, as before; and back."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.migrating import migrate as _migrate

BEFORE = [("tournaments", "0023_check_in")]
AFTER = [("tournaments", "0024_tournament_play")]


@pytest.mark.django_db(transaction=True)
def test_existing_events_are_played_over_the_board() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    Tournament = old.get_model("tournaments", "Tournament")
    Tournament.objects.create(
        name="Old Open", slug="old-open", start_date=date(2026, 1, 1), time_control="1800+10"
    )

    new = _migrate(AFTER).loader.project_state(AFTER).apps
    moved = new.get_model("tournaments", "Tournament").objects.get(slug="old-open")
    assert (moved.name, moved.time_control, moved.play) == (
        "Old Open",
        "1800+10",
        "over_the_board",
    )

    back = _migrate(BEFORE).loader.project_state(BEFORE).apps
    assert back.get_model("tournaments", "Tournament").objects.get().name == "Old Open"
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
