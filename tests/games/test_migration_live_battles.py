"""Migration 0016 adds the online battles' tables and the `online` source: every record
kept carries over as it was, and an online one can be stored after."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.migrating import migrate as _migrate

BEFORE = [("games", "0015_validation_claims")]
AFTER = [("games", "0016_live_battles")]


@pytest.mark.django_db(transaction=True)
def test_existing_records_carry_over_and_online_ones_can_be_stored() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    Submission = old.get_model("games", "RecordSubmission")
    made = Submission.objects.create(raw=b"x", source="bulk", valid=True, winner="gold")
    new = _migrate(AFTER).loader.project_state(AFTER).apps
    NewSubmission = new.get_model("games", "RecordSubmission")
    got = NewSubmission.objects.get(pk=made.pk)
    assert (got.source, got.valid, got.winner, bytes(got.raw)) == ("bulk", True, "gold", b"x")
    online = NewSubmission.objects.create(raw=b"y", source="online")
    battle = new.get_model("games", "LiveBattle").objects.create(record=online, tags={})
    assert (battle.status, battle.result, battle.green_quota_ms) == ("waiting", "*", 2000)
    back = _migrate(BEFORE).loader.project_state(BEFORE).apps  # the tables go, not the records
    assert back.get_model("games", "RecordSubmission").objects.filter(pk=made.pk).exists()
    latest = MigrationExecutor(connection)
    _migrate(latest.loader.graph.leaf_nodes())  # the schema as the other tests expect it
