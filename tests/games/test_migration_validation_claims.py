"""Migration 0014 gives records a claim generation, the moment a worker claimed them, a
re-send count and a failure reason; every record keeps its status, and one a worker holds
is timed from when it was last queued, as before."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.migrating import migrate as _migrate
from tests.migrating import migrate_latest

BEFORE = [("games", "0014_result_upheld")]
AFTER = [("games", "0015_validation_claims")]


@pytest.mark.django_db(transaction=True)
def test_records_keep_their_status_and_a_held_one_its_clock() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    Submission = old.get_model("games", "RecordSubmission")
    at = datetime(2026, 11, 20, 10, 0, tzinfo=UTC)
    ids = {
        status: Submission.objects.create(raw=b"x", status=status, attempts=2, queued_at=at).pk
        for status in ("queued", "validating", "done")
    }
    new = _migrate(AFTER).loader.project_state(AFTER).apps
    Submission = new.get_model("games", "RecordSubmission")
    rows = {
        s.pk: (s.status, s.attempts, s.generation, s.resends, s.failure_reason, s.claimed_at)
        for s in Submission.objects.all()
    }
    assert rows == {
        ids["queued"]: ("queued", 2, 0, 0, "", None),
        ids["validating"]: ("validating", 2, 0, 0, "", at),
        ids["done"]: ("done", 2, 0, 0, "", None),
    }
    migrate_latest()  # the schema as the other tests expect it
