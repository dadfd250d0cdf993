"""A bulk upload of 2,000 records on PostgreSQL stores them in short transactions: a result
entered on the same event while it runs is not held up until the upload ends, and every
record is stored, audited and handed to the broker (bench/bulk_upload_bench.py times it)."""

from __future__ import annotations

import io
import os
import threading
import time
import zipfile
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from games import services as game_services
from games.models import RecordSubmission
from tests.workers import worker_quiet
from tournaments.audit import Action, audit_verify
from tournaments.demo import demo_load
from tournaments.models import AuditEntry, Game

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _worker_quiet_before_flush(transactional_db: None) -> Any:
    """The upload queues thousands of validations for the run's worker, if one is up: drop
    what is still queued and let it finish before the tables are flushed."""
    yield
    if os.environ.get("REDIS_URL"):
        worker_quiet()


RECORDS = 2000


def upload_zip(games: list[Game], n: int) -> bytes:
    """`n` short records, each tagged with the round and players of one of `games`."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(n):
            g = games[i % len(games)]
            text = (
                f'[Round "{g.round.number}"]\n[Green "{g.first.name}"]\n'
                f'[Gold "{g.second.name}"]\n\n1. Fl@E49 2. Fl@E33\n'
            )
            zf.writestr(f"r{i:04}.kzr", text)
    return buf.getvalue()


def test_a_result_is_not_held_up_by_a_2000_record_upload():
    tournament, login, _, _ = demo_load(rounds_played=2)
    user = get_user_model().objects.get(username=login)
    games = list(
        Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME).select_related(
            "round", "first", "second"
        )
    )
    target = games[0]
    data = upload_zip(games, RECORDS)
    done: dict[str, float] = {}
    stored_when_result_done: list[int] = []
    failure: list[BaseException] = []

    def upload() -> None:
        try:
            game_services.bulk_upload(
                tournament=tournament, data=data, filename="all.zip", user=user
            )
            done["upload"] = time.monotonic()
        except BaseException as exc:  # noqa: BLE001 - reported below
            failure.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=upload)
    thread.start()
    # Once the first batch is committed the upload is under way: enter a result then.
    deadline = time.monotonic() + 60
    while not RecordSubmission.objects.filter(tournament=tournament).exists():
        assert time.monotonic() < deadline and thread.is_alive(), failure
        time.sleep(0.01)
    api = APIClient()
    api.force_authenticate(user)
    new_result = "draw" if target.result != "draw" else "first_win"
    response = api.post(f"/api/games/{target.pk}/result/", {"result": new_result}, format="json")
    done["result"] = time.monotonic()
    stored_when_result_done.append(RecordSubmission.objects.filter(tournament=tournament).count())
    thread.join(120)
    assert not failure, failure
    assert response.status_code == 200, response.content
    # The result went through while the upload was still storing: not after it.
    assert stored_when_result_done[0] < RECORDS
    assert done["result"] < done["upload"]

    subs = RecordSubmission.objects.filter(tournament=tournament)
    assert subs.count() == RECORDS
    assert subs.filter(game__isnull=False).count() == RECORDS  # every one matched its game
    assert not subs.filter(queued_at__isnull=True).exists()
    assert set(subs.values_list("status", flat=True)) <= {"queued", "validating", "done"}
    # each game's versions are 1..n without a gap or a repeat
    for g in games:
        versions = sorted(subs.filter(game=g).values_list("version", flat=True))
        assert versions == list(range(1, len(versions) + 1))
    audited = AuditEntry.objects.filter(tournament=tournament, action=Action.RECORD_SUBMITTED)
    assert audited.count() == RECORDS
    ok, _count, problem = audit_verify(tournament=tournament)
    assert ok, problem
    target.refresh_from_db()
    assert target.result == new_result


def test_every_stored_record_is_handed_to_the_broker(monkeypatch):
    """Each committed batch is queued at once, in batches for the workers: all ids, once."""
    tournament, login, _, _ = demo_load(rounds_played=1)
    user = get_user_model().objects.get(username=login)
    games = list(
        Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME).select_related(
            "round", "first", "second"
        )
    )
    sent: list[list[int]] = []
    real_send = game_services.records.task_send

    def send(name: str, *args: object) -> bool:
        if name == game_services.records.VALIDATE_BATCH_TASK:
            sent.append(list(args[0]))  # type: ignore[call-overload]
        return real_send(name, *args)

    monkeypatch.setattr(game_services.records, "task_send", send)
    upload = game_services.bulk_upload(
        tournament=tournament, data=upload_zip(games, 450), filename="some.zip", user=user
    )
    ids = [s.pk for s in upload.submissions]
    assert sorted(i for batch in sent for i in batch) == sorted(ids)
    assert all(len(batch) <= game_services.records.VALIDATION_BATCH for batch in sent)
