"""Migration 0014 gives every record an empty `result_upheld`: no ruling was made against
any of them, so a disagreement that exists today is reported."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.migrating import migrate as _migrate

BEFORE = [("games", "0013_validator_message_codes")]
AFTER = [("games", "0014_result_upheld")]


@pytest.mark.django_db(transaction=True)
def test_existing_records_carry_over_with_no_ruling() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    Submission = old.get_model("games", "RecordSubmission")
    made = Submission.objects.create(raw=b"x", locked=True, valid=True, winner="green")
    new = _migrate(AFTER).loader.project_state(AFTER).apps
    got = new.get_model("games", "RecordSubmission").objects.get(pk=made.pk)
    assert (got.result_upheld, got.locked, got.winner, bytes(got.raw)) == ("", True, "green", b"x")
    back = _migrate(BEFORE).loader.project_state(BEFORE).apps  # the column goes, not the record
    assert back.get_model("games", "RecordSubmission").objects.filter(pk=made.pk).exists()
    latest = MigrationExecutor(connection)
    _migrate(latest.loader.graph.leaf_nodes())  # the schema as the other tests expect it
