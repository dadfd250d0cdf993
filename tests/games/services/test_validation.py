"""Faults of the background validation (issue 22 items 10 and 12): a verdict overtaken by a
clock adjustment is not stored over it; a record whose validation raises fails after
KZ_VALIDATION_MAX_ATTEMPTS with its reason, shown on the API and the console, and the
arbiter queues it again; the sweep times each record by its own clock."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from celery import current_app
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games import tasks as _tasks  # noqa: F401 - registers the tasks run in_process
from games.models import RecordSubmission
from games.services import records
from rules.record import write_record
from tests.games.conftest import CAPTURE
from tests.rules.test_clock import record
from tournaments.models import Game

TC = "20/1800:1200"


@pytest.fixture
def in_process(monkeypatch):  # type: ignore[no-untyped-def]
    """Tasks the records services queue run here, at once (with or without a broker): this
    test's transaction is never committed, so no worker could see its records; the real
    workers' walks are in tests/integration/test_background_faults.py."""
    monkeypatch.setattr(
        records, "task_send", lambda name, *args: current_app.tasks[name].apply(args=args) or True
    )


def api(user: object = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def submitted(game: Game, user: object, text: str) -> int:
    """A record posted through the API (its validation is not run: no commit here)."""
    resp = api(user).post(f"/api/games/{game.pk}/records/", {"text": text}, format="json")
    assert resp.status_code == 201, resp.content
    return resp.json()["id"]


def test_a_verdict_overtaken_by_a_clock_adjustment_is_not_stored(
    officials, game, settings, monkeypatch, django_capture_on_commit_callbacks, in_process
):
    """The race as it happens: the worker reads the record and its adjustments, the arbiter
    adds +60 s for gold through the API while the worker computes (which sends the record
    back to the queue), then the worker saves. The stale verdict (gold lost on time) must
    not be stored, and the re-queued task must judge the record with the minute."""
    pk = submitted(game, officials.arbiter, write_record(record(TC, {26: "0:00:00"})))
    requeued: list[list] = []  # the adjustment's on-commit work, held until the worker saved
    body = {"side": "gold", "seconds": 60, "article": "12.5", "from_ply": 26, "reason": "noise"}

    def adjustment_meanwhile(seconds: float) -> None:
        if requeued:
            return  # only the first validation is overtaken
        with django_capture_on_commit_callbacks() as callbacks:
            url = f"/api/games/{game.pk}/clock-adjustments/"
            resp = api(officials.arbiter).post(url, body, format="json")
            assert resp.status_code == 201, resp.content
        requeued.append(callbacks)

    # The worker's pause between reading and computing (KZ_VALIDATION_DELAY) is where the
    # arbiter acts.
    settings.KZ_VALIDATION_DELAY = 0.001
    monkeypatch.setattr(time, "sleep", adjustment_meanwhile)
    services.submission_validate(submission_id=pk)
    assert requeued and len(requeued[0]) == 1
    requeued[0][0]()  # the re-queued task (in-process here) runs
    got = api().get(f"/api/records/{pk}/").json()
    assert got["status"] == "done"
    assert got["clock"]["decision"] is None  # gold's flag no longer falls: the +60 s counts


def test_a_verdict_is_stored_only_over_the_claim_it_came_from(officials, game, sent):
    """The same race driven step by step through the worker's three phases."""
    from games.services import validation

    pk = submitted(game, officials.arbiter, write_record(record(TC, {26: "0:00:00"})))
    _, claims = validation.submissions_claim(submission_ids=[pk])
    outcomes = validation.claims_judge(claims=claims)
    assert outcomes[pk]["clock"]["decision"] == "time"
    services.clock_adjustment_add(
        game=game, side="gold", seconds=60, article="12.5", from_ply=26, user=officials.arbiter
    )
    validation.claims_store(submissions=[claims[0].submission], claims=claims, outcomes=outcomes)
    stored = RecordSubmission.objects.get(pk=pk)
    assert (stored.status, stored.clock) == ("queued", None)
    again = services.submission_validate(submission_id=pk)
    assert again.status == "done" and again.clock["decision"] is None


def test_a_record_whose_validation_raises_fails_and_the_arbiter_queues_it_again(
    officials, game, settings, client, django_capture_on_commit_callbacks, in_process, request
):
    settings.KZ_VALIDATION_MAX_ATTEMPTS = 3

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the engine broke")

    engine = pytest.MonkeyPatch()  # undone below, when the engine is mended
    request.addfinalizer(engine.undo)
    engine.setattr(records, "validate_record", broken)
    pk = submitted(game, officials.arbiter, CAPTURE.decode())
    first = services.submission_validate(submission_id=pk)
    assert (first.status, first.attempts) == ("queued", 1)
    assert first.failure_reason == "RuntimeError: the engine broke"
    assert services.submission_requeue_stale() == 0  # back in the queue: it waits its turn
    # The sweep sends it again (validated in-process here) until the last attempt fails it.
    assert services.submission_requeue_stale(older_than=timedelta(0)) == 1
    assert RecordSubmission.objects.get(pk=pk).attempts == 2
    assert services.submission_requeue_stale(older_than=timedelta(0)) == 1
    assert services.submission_requeue_stale(older_than=timedelta(0)) == 0  # not for ever
    got = api().get(f"/api/records/{pk}/").json()
    assert (got["status"], got["attempts"]) == ("failed", 3)
    assert got["failure_reason"] == "RuntimeError: the engine broke"
    # The arbiter sees it on the round's console, with a button to queue it again.
    client.force_login(officials.arbiter)
    page = client.get(f"/arbiter/t/{game.round.tournament.slug}/round/1/").content.decode()
    assert "RuntimeError: the engine broke" in page
    assert f"/record/{pk}/requeue/" in page
    # Only the event's arbiters queue it again.
    assert api(officials.stranger).post(f"/api/records/{pk}/requeue/").status_code == 403
    engine.undo()  # the engine is mended
    with django_capture_on_commit_callbacks(execute=True):
        resp = api(officials.arbiter).post(f"/api/records/{pk}/requeue/")
    assert resp.status_code == 200, resp.content
    assert (resp.json()["status"], resp.json()["attempts"]) == ("queued", 0)
    got = api().get(f"/api/records/{pk}/").json()
    assert (got["status"], got["valid"], got["failure_reason"]) == ("done", True, "")
    entry = game.round.tournament.audit.get(action="record_requeued")
    assert entry.before["reason"] == "RuntimeError: the engine broke"
    # A record that did not fail is not queued again this way.
    assert api(officials.arbiter).post(f"/api/records/{pk}/requeue/").status_code == 409


def test_the_console_button_queues_a_failed_record_again(officials, game, client, sent):
    sub = RecordSubmission.objects.get(pk=submitted(game, officials.arbiter, CAPTURE.decode()))
    RecordSubmission.objects.filter(pk=sub.pk).update(status="failed", failure_reason="boom")
    client.force_login(officials.arbiter)
    slug = game.round.tournament.slug
    resp = client.post(f"/arbiter/t/{slug}/record/{sub.pk}/requeue/")
    assert resp.status_code == 302 and resp["Location"].endswith("/round/1/")
    again = RecordSubmission.objects.get(pk=sub.pk)
    assert (again.status, again.attempts, again.failure_reason) == ("queued", 0, "")


def test_the_sweep_times_each_record_by_its_own_clock(officials, game, sent, settings):
    settings.KZ_REQUEUE_AFTER = 30
    settings.KZ_VALIDATION_MAX_ATTEMPTS = 3
    now = timezone.now()
    waiting, working, stopped = (
        RecordSubmission.objects.get(pk=submitted(game, officials.arbiter, CAPTURE.decode()))
        for _ in range(3)
    )
    long_ago = now - timedelta(seconds=45)
    RecordSubmission.objects.filter(pk=waiting.pk).update(queued_at=long_ago)
    # queued long ago, but a worker claimed it a moment ago: it is at work, not stranded
    RecordSubmission.objects.filter(pk=working.pk).update(
        status="validating", queued_at=long_ago, claimed_at=now - timedelta(seconds=5)
    )
    # claimed for the third time long ago and never finished: its workers died
    RecordSubmission.objects.filter(pk=stopped.pk).update(
        status="validating", attempts=3, queued_at=long_ago, claimed_at=long_ago
    )
    assert services.submission_requeue_stale() == 1
    assert sent == [("games.validate_records", ([waiting.pk],))]
    failed = RecordSubmission.objects.get(pk=stopped.pk)
    assert failed.status == "failed" and "never finished" in failed.failure_reason
    # Sent once, it waits twice as long before the next time: a long backlog is not sent
    # again on every sweep.
    RecordSubmission.objects.filter(pk=waiting.pk).update(queued_at=now - timedelta(seconds=45))
    assert services.submission_requeue_stale() == 0
    RecordSubmission.objects.filter(pk=waiting.pk).update(queued_at=now - timedelta(seconds=61))
    assert services.submission_requeue_stale() == 1
    assert RecordSubmission.objects.get(pk=waiting.pk).resends == 2


@pytest.mark.django_db
def test_a_failed_record_is_left_alone_by_a_late_task(officials, game, sent):
    sub = RecordSubmission.objects.get(pk=submitted(game, officials.arbiter, CAPTURE.decode()))
    RecordSubmission.objects.filter(pk=sub.pk).update(status="failed", failure_reason="boom")
    assert services.submission_validate(submission_id=sub.pk).status == "failed"
