"""Migration 0015 gives pairing jobs the moment they last showed life: a job stored before
counts from when it was created, so that one stuck since then is failed by the sweep."""

from __future__ import annotations

from datetime import date

import pytest

from tests.migrating import migrate as _migrate

BEFORE = [("tournaments", "0015_player_manager_site_audit")]
AFTER = [("tournaments", "0016_pairing_job_heartbeat")]


@pytest.mark.django_db(transaction=True)
def test_existing_jobs_count_from_their_creation() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    t = old.get_model("tournaments", "Tournament").objects.create(
        name="Old Open", slug="old-open", start_date=date(2026, 1, 1)
    )
    PairingJob = old.get_model("tournaments", "PairingJob")
    stuck = PairingJob.objects.create(tournament=t, round_number=2, status="running")
    done = PairingJob.objects.create(tournament=t, round_number=1, status="done", progress=1.0)
    new = _migrate(AFTER).loader.project_state(AFTER).apps
    PairingJob = new.get_model("tournaments", "PairingJob")
    for job in (stuck, done):
        got = PairingJob.objects.get(pk=job.pk)
        assert (got.status, got.heartbeat_at) == (job.status, job.created_at)
