"""Pairing jobs, called directly and run in-process: creating one (its checks, and its
queueing once committed), running one (a proposed round, progress, failures kept with
their reason, idempotence)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError

from tests.tournaments.services.factories import round_make
from tournaments import pairing_selectors, services
from tournaments.models import PairingJob, Round
from tournaments.services import pairing_jobs

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):  # type: ignore[no-untyped-def]
    """The tasks handed to the broker (none really is)."""
    calls: list[tuple[str, tuple[object, ...]]] = []

    def task_send(name: str, *args: object) -> bool:
        calls.append((name, args))
        return True

    monkeypatch.setattr(pairing_jobs, "task_send", task_send)
    return calls


def test_a_job_is_queued_for_the_next_round_once_committed(
    officials, event, sent, django_capture_on_commit_callbacks
):
    t, _ = event
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        job = services.pairing_job_create(tournament=t, user=officials.arbiter)
    assert (job.round_number, job.status, job.requested_by) == (1, "queued", officials.arbiter)
    assert len(callbacks) == 1
    assert sent == [("tournaments.pair_round", (job.pk,))]
    assert not t.rounds.exists()  # nothing is paired until a worker runs it


def test_a_job_that_no_worker_takes_fails_with_the_reason(
    officials, event, monkeypatch, django_capture_on_commit_callbacks
):
    t, _ = event
    monkeypatch.setattr(pairing_jobs, "task_send", lambda name, *args: False)
    with django_capture_on_commit_callbacks(execute=True):
        job = services.pairing_job_create(tournament=t, user=officials.arbiter)
    job.refresh_from_db()
    assert (job.status, job.message) == ("failed", "no worker could be reached")


def test_one_job_at_a_time(officials, event, sent):
    t, _ = event
    services.pairing_job_create(tournament=t, user=officials.arbiter)
    with pytest.raises(ValidationError) as e:
        services.pairing_job_create(tournament=t, user=officials.arbiter2)
    assert e.value.message_dict == {"round": ["round 1 is being paired already"]}
    PairingJob.objects.filter(tournament=t).update(status="running")
    with pytest.raises(ValidationError, match="being paired already"):
        services.pairing_job_create(tournament=t, user=officials.arbiter2)
    PairingJob.objects.filter(tournament=t).update(status="failed")
    assert services.pairing_job_create(tournament=t, user=officials.arbiter2).round_number == 1
    assert PairingJob.objects.filter(tournament=t).count() == 2


def test_no_job_while_a_round_is_proposed_or_beyond_the_plan(officials, event, sent):
    t, (a, b, c, d) = event
    rnd = round_make(t, [(a, b), (c, d)], draft=True)
    with pytest.raises(ValidationError) as e:
        services.pairing_job_create(tournament=t, user=officials.arbiter)
    assert e.value.message_dict == {"round": ["round 1 is proposed: publish or discard it first"]}
    services.round_publish(round=rnd)
    t.rounds_planned = 1
    t.save(update_fields=["rounds_planned"])
    with pytest.raises(ValidationError) as e:
        services.pairing_job_create(tournament=t, user=officials.arbiter)
    assert e.value.message_dict == {
        "round": [
            "the tournament has 1 rounds; raise the number of rounds in the settings to "
            "pair another"
        ]
    }
    assert not PairingJob.objects.exists()


def test_only_arbiters_queue_a_job(officials, event, sent):
    t, _ = event
    with pytest.raises(PermissionDenied):
        services.pairing_job_create(tournament=t, user=officials.stranger)
    assert not PairingJob.objects.exists()
    assert services.pairing_job_create(tournament=t).requested_by is None  # the system


def test_running_a_job_proposes_the_round(officials, event, sent):
    t, (a, b, c, d) = event
    job = services.pairing_job_create(tournament=t, user=officials.arbiter)
    done = services.pairing_job_run(job_id=job.pk)
    assert (done.status, done.progress, done.message) == ("done", 1.0, "round 1 proposed")
    assert done.finished_at is not None
    rnd = t.rounds.get()
    assert (rnd.number, rnd.status) == (1, Round.Status.DRAFT)
    # Balanced placement, start ranks 1-4: the top half meets the bottom half.
    assert sorted(rnd.games.values_list("first_id", "second_id")) == [(a.pk, c.pk), (b.pk, d.pk)]
    fraction, what = cache.get(pairing_selectors.pairing_progress_key(job.pk))
    assert 0 <= fraction < 1 and "score group" in what
    state = pairing_selectors.pairing_job_state(job=done)
    assert (state["status"], state["progress"], state["round"]) == ("done", 100, 1)


def test_a_finished_job_is_left_alone(officials, event, sent):
    t, _ = event
    job = services.pairing_job_create(tournament=t, user=officials.arbiter)
    first = services.pairing_job_run(job_id=job.pk)
    again = services.pairing_job_run(job_id=job.pk)
    assert t.rounds.count() == 1
    assert (again.status, again.finished_at) == ("done", first.finished_at)


def test_a_failed_pairing_is_kept_with_its_reason(officials, event, sent):
    t, (a, b, c, d) = event
    job = services.pairing_job_create(tournament=t, user=officials.arbiter)
    round_make(t, [(a, b), (c, d)])  # round 1 paired meanwhile by hand
    failed = services.pairing_job_run(job_id=job.pk)
    assert (failed.status, failed.message) == ("failed", "the next round to pair is round 2")
    assert failed.finished_at is not None and t.rounds.count() == 1
    # A failed job stays failed.
    assert services.pairing_job_run(job_id=job.pk).message == "the next round to pair is round 2"
    assert t.rounds.count() == 1


def test_a_job_whose_requester_lost_the_right_fails(officials, event, sent):
    t, _ = event
    job = services.pairing_job_create(tournament=t, user=officials.arbiter)
    t.arbiters.remove(officials.arbiter)
    failed = services.pairing_job_run(job_id=job.pk)
    assert failed.status == "failed" and "arbiters" in failed.message
    assert not t.rounds.exists()


@pytest.mark.skipif(not settings.CELERY_TASK_ALWAYS_EAGER, reason="tasks run in a worker")
def test_in_process_the_committed_job_is_run_at_once(
    officials, event, django_capture_on_commit_callbacks
):
    t, _ = event
    with django_capture_on_commit_callbacks(execute=True):
        job = services.pairing_job_create(tournament=t, user=officials.arbiter)
    job.refresh_from_db()
    assert (job.status, job.message) == ("done", "round 1 proposed")
    assert t.rounds.get().status == Round.Status.DRAFT
