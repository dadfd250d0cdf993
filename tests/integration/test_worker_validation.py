"""Records validated by real Celery workers through Redis, on PostgreSQL: the normal path,
a worker killed in the middle of a validation, and Redis down when the record arrives."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import RecordSubmission
from games.tasks import validate_record_task
from tests.workers import ROOT, celery_worker, service_env, wait_for
from tournaments.demo import demo_load
from tournaments.models import Game

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
RECORD = (
    Path(__file__).resolve().parents[1] / "rules" / "records" / "example2-laws-deadlock.kzr"
).read_bytes()


def status_of(pk: int) -> str:
    return RecordSubmission.objects.get(pk=pk).status


def make_game() -> tuple[Game, object]:
    tournament, login, _, _ = demo_load(rounds_played=1)
    return Game.objects.filter(round__tournament=tournament).first(), get_user_model().objects.get(
        username=login
    )


def test_worker_validates_a_submission(worker):
    game, arbiter = make_game()
    sub = services.submission_create(game=game, raw=RECORD, user=arbiter)
    assert wait_for(lambda: status_of(sub.pk) == "done", 60)
    sub.refresh_from_db()
    assert sub.valid and sub.termination == "deadlock" and sub.winner == "gold"


def test_worker_killed_mid_validation_loses_nothing():
    game, _ = make_game()
    sub = RecordSubmission.objects.create(game=game, raw=RECORD, version=9)
    with celery_worker(
        "slow", queues="killtest", KZ_VALIDATION_DELAY="8", CELERY_VISIBILITY_TIMEOUT="3"
    ) as slow:
        validate_record_task.apply_async(args=[sub.pk], queue="killtest")
        assert wait_for(lambda: status_of(sub.pk) == "validating", 30)
        os.kill(slow.pid, signal.SIGKILL)  # mid-validation: the task was never acknowledged
        slow.wait(10)
    assert status_of(sub.pk) == "validating"
    with celery_worker(
        "rescue",
        queues="killtest",
        CELERY_VISIBILITY_TIMEOUT="3",
        CELERY_UNACKED_RESTORE_INTERVAL="1",
        CELERY_UNACKED_RESTORE_THROTTLE="1",
    ):
        assert wait_for(lambda: status_of(sub.pk) == "done", 90)
    sub.refresh_from_db()
    assert sub.valid and sub.attempts == 2


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_redis_down_then_back():
    redis_server = shutil.which("redis-server")
    assert redis_server, "redis-server is installed on every machine here"
    port = _free_port()
    url = f"redis://127.0.0.1:{port}/0"
    game, arbiter = make_game()
    # Redis is down: the record is still stored, and waits.
    record_path = ROOT / "tests" / "rules" / "records" / "example2-laws-deadlock.kzr"
    code = (
        "from tournaments.models import Game; from games import services; "
        f"g = Game.objects.get(pk={game.pk}); "
        f"raw = open({str(record_path)!r}, 'rb').read(); "
        "s = services.submission_create(game=g, raw=raw); print(s.pk)"
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=service_env(REDIS_URL=url),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    pk = int(out.stdout.strip().splitlines()[-1])
    assert status_of(pk) == "queued"
    # Redis comes back; a worker starting takes over what waited.
    server = subprocess.Popen(
        [
            redis_server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(0.5)
        with celery_worker("back", REDIS_URL=url, KZ_REQUEUE_AFTER="0"):
            assert wait_for(lambda: status_of(pk) == "done", 60)
    finally:
        server.terminate()
        server.wait(10)
    sub = RecordSubmission.objects.get(pk=pk)
    assert sub.valid and sub.winner == "gold"
    assert arbiter
