"""Pairing jobs that fail other than by a refusal (issue 22 item 11): an error in the
pairing fails the job with its reason; a job whose progress stopped is failed by the sweep
(or by the next request to pair); a job failed while it pairs stores no round. After each,
the round is paired again."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from tournaments import pairing_selectors, services
from tournaments.models import PairingJob
from tournaments.services import pairing_jobs, round_pairing
from tournaments.tasks import pairing_jobs_sweep_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):  # type: ignore[no-untyped-def]
    """The tasks handed to the broker (none really is: the tests run the job themselves)."""
    calls: list[tuple[str, tuple[object, ...]]] = []
    monkeypatch.setattr(pairing_jobs, "task_send", lambda name, *args: calls.append(args) or True)
    return calls


def pair_in_background(t, user) -> tuple[int, dict]:  # type: ignore[no-untyped-def]
    api = APIClient()
    api.force_authenticate(user)
    resp = api.post(f"/api/tournaments/{t.slug}/pair/", {"background": True}, format="json")
    return resp.status_code, resp.json()


def job_state(t, user, job_id: int) -> dict:  # type: ignore[no-untyped-def]
    api = APIClient()
    api.force_authenticate(user)
    return api.get(f"/api/tournaments/{t.slug}/pairing-jobs/{job_id}/").json()


def test_a_pairing_that_raises_fails_the_job_and_the_round_is_paired_again(
    officials, event, sent, monkeypatch
):
    t, _ = event

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the pairing engine broke")

    monkeypatch.setattr(round_pairing, "pair_swiss", broken)
    code, job = pair_in_background(t, officials.arbiter)
    assert code == 202
    assert services.pairing_job_run(job_id=job["id"]).status == "failed"
    state = job_state(t, officials.arbiter, job["id"])
    assert (state["status"], state["message"]) == (
        "failed",
        "RuntimeError: the pairing engine broke",
    )
    assert not t.rounds.exists()
    monkeypatch.undo()
    code, again = pair_in_background(t, officials.arbiter)
    assert code == 202, again
    assert services.pairing_job_run(job_id=again["id"]).status == "done"
    assert t.rounds.get().number == 1


def test_a_job_whose_progress_stopped_no_longer_blocks_pairing(officials, event, sent, settings):
    settings.KZ_PAIRING_STALE_AFTER = 120
    t, _ = event
    code, job = pair_in_background(t, officials.arbiter)
    # Its worker took it, then was killed: running, and nothing moved for three minutes.
    PairingJob.objects.filter(pk=job["id"]).update(
        status="running", heartbeat_at=timezone.now() - timedelta(seconds=180)
    )
    code, again = pair_in_background(t, officials.arbiter)
    assert code == 202, again
    state = job_state(t, officials.arbiter, job["id"])
    assert state["status"] == "failed" and "no progress for 120 s" in state["message"]
    assert services.pairing_job_run(job_id=again["id"]).status == "done"
    assert services.pairing_job_run(job_id=job["id"]).status == "failed"  # a late delivery
    assert t.rounds.count() == 1


def test_the_sweep_fails_only_the_jobs_whose_progress_stopped(officials, event, sent, settings):
    settings.KZ_PAIRING_STALE_AFTER = 120
    t, _ = event
    old = timezone.now() - timedelta(seconds=180)
    lost = services.pairing_job_create(tournament=t, user=officials.arbiter)  # task lost
    moving = PairingJob.objects.create(tournament=t, round_number=1, status="running")
    fresh = PairingJob.objects.create(tournament=t, round_number=1, heartbeat_at=timezone.now())
    PairingJob.objects.filter(pk__in=[lost.pk, moving.pk]).update(heartbeat_at=old)
    # A running pairing keeps its progress in the cache, with the time it last moved.
    cache.set(pairing_selectors.pairing_heartbeat_key(moving.pk), time.time())
    assert pairing_jobs_sweep_task() == 1
    statuses = dict(PairingJob.objects.values_list("pk", "status"))
    assert statuses == {lost.pk: "failed", moving.pk: "running", fresh.pk: "queued"}
    cache.set(pairing_selectors.pairing_heartbeat_key(moving.pk), time.time() - 150)
    assert pairing_jobs_sweep_task() == 1
    assert PairingJob.objects.get(pk=moving.pk).status == "failed"


def test_a_job_failed_while_it_pairs_stores_no_round(officials, event, sent, settings, monkeypatch):
    t, _ = event
    real = round_pairing.pair_swiss

    def swept_meanwhile(*args: object, **kwargs: object) -> object:
        # The sweep runs while the worker pairs and finds its progress too old.
        settings.KZ_PAIRING_STALE_AFTER = 0
        assert pairing_jobs.pairing_jobs_fail_stale() == 1
        return real(*args, **kwargs)

    monkeypatch.setattr(round_pairing, "pair_swiss", swept_meanwhile)
    code, job = pair_in_background(t, officials.arbiter)
    done = services.pairing_job_run(job_id=job["id"])
    # Here the sweep's write shares the test's one transaction and is undone with the
    # worker's; tests/integration/test_pairing_job_killed.py has them in two processes.
    assert done.status != "done"
    assert not t.rounds.exists()
    assert not t.audit.filter(action="round_paired").exists()
