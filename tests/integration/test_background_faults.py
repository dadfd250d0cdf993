"""The background jobs' faults walked with the whole process set (the Procfile's web, worker
and beat on a private Redis, on PostgreSQL), issue 22 items 10-12: a worker killed in the
middle of pairing a 300-player field, a clock adjustment made while a long validation runs,
and the worker pool killed during a bulk upload."""

from __future__ import annotations

import io
import json
import time
import urllib.request
import uuid
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from games.models import RecordSubmission
from rules.record import write_record
from tests.integration.test_redis_down import http
from tests.rules.test_clock import record
from tests.tournaments.services.factories import event_make, officials_make, round_make
from tests.workers import (
    RedisServer,
    free_port,
    http_wait,
    kill_hard,
    procfile_command,
    redis_server,
    service,
    wait_for,
    web_server_argv,
)
from tournaments import services as tournament_services
from tournaments.models import PairingJob, Tournament

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
RECORD = (
    Path(__file__).resolve().parents[1] / "rules" / "records" / "example2-laws-deadlock.kzr"
).read_bytes()
# Test speed: the beat sweeps every second, records wait 3 s, pairing jobs 4 s.
ENV = {"KZ_REQUEUE_AFTER": "3", "KZ_SWEEP_EVERY": "1", "KZ_PAIRING_STALE_AFTER": "4"}


@contextmanager
def site(redis: RedisServer, **env: str) -> Iterator[str]:
    """The web and beat processes on `redis`; yields the web's base URL."""
    port = free_port(8390, 8399)
    env = {"REDIS_URL": redis.url, **ENV, **env}
    with (
        service("web", web_server_argv(port), **env),
        service("beat", procfile_command("beat"), **env),
    ):
        base = f"http://127.0.0.1:{port}"
        http_wait(base + "/")
        yield base


def worker(redis: RedisServer, name: str, **env: str) -> Any:
    return service(name, procfile_command("worker"), REDIS_URL=redis.url, **ENV, **env)


def token_of(user: Any) -> str:
    return Token.objects.create(user=user).key


def call(base: str, token: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    status, answer = http(base, method, path, body, token)
    return status, json.loads(answer) if answer else None


def test_a_worker_killed_mid_pairing_of_300_players():
    arbiter = get_user_model().objects.create_user("arb", password="pw-arbiter-1", is_staff=True)
    t = tournament_services.tournament_create(
        name="Big Open", slug="big-open", start_date=date(2026, 1, 1), rounds_planned=7
    )
    for i in range(300):
        player = tournament_services.player_create(name=f"P{i:03d}", rating=2400 - i)
        tournament_services.registration_create(tournament=t, player=player)
    token = token_of(arbiter)
    pair = f"/api/tournaments/{t.slug}/pair/"
    with redis_server() as redis, site(redis) as base:
        # The pairing holds its transaction (and the tournament's lock) for 30 s: long
        # enough for the SIGKILL to find it mid-pairing.
        with worker(redis, "pairing1", KZ_PAIRING_DELAY="30") as pairing1:
            status, job = call(base, token, "POST", pair, {"background": True})
            assert status == 202, job
            assert wait_for(lambda: PairingJob.objects.get(pk=job["id"]).status == "running", 60)
            time.sleep(2)
            kill_hard(pairing1)
        with worker(redis, "pairing2"):
            # The beat's sweep, run by the worker that replaced it, finds that the job's
            # progress stopped.
            url = f"/api/tournaments/{t.slug}/pairing-jobs/{job['id']}/"
            assert wait_for(lambda: call(base, token, "GET", url)[1]["status"] == "failed", 60)
            assert "no progress for 4 s" in call(base, token, "GET", url)[1]["message"]
            assert not t.rounds.exists()
            status, again = call(base, token, "POST", pair, {"background": True})
            assert status == 202, again
            url = f"/api/tournaments/{t.slug}/pairing-jobs/{again['id']}/"
            assert wait_for(lambda: call(base, token, "GET", url)[1]["status"] == "done", 120)
    rnd = Tournament.objects.get(pk=t.pk).rounds.get()
    assert (rnd.number, rnd.status, rnd.games.count()) == (1, "draft", 150)


def test_a_job_failed_by_the_sweep_while_its_worker_pairs_stores_no_round():
    """The worker lives, but its pairing stalls longer than KZ_PAIRING_STALE_AFTER: the
    sweep (in the worker's other pool process) fails the job, and when the pairing wakes
    up its round is not stored; the arbiter pairs again."""
    arbiter = get_user_model().objects.create_user("arb", password="pw-arbiter-1", is_staff=True)
    t = tournament_services.tournament_create(
        name="Slow Open", slug="slow-open", start_date=date(2026, 1, 1), rounds_planned=7
    )
    for i in range(200):
        player = tournament_services.player_create(name=f"P{i:03d}", rating=2400 - i)
        tournament_services.registration_create(tournament=t, player=player)
    token = token_of(arbiter)
    pair = f"/api/tournaments/{t.slug}/pair/"
    with redis_server() as redis, site(redis) as base:
        with worker(redis, "stalling", KZ_PAIRING_DELAY="10"):
            status, job = call(base, token, "POST", pair, {"background": True})
            assert status == 202, job
            url = f"/api/tournaments/{t.slug}/pairing-jobs/{job['id']}/"
            assert wait_for(lambda: call(base, token, "GET", url)[1]["status"] == "failed", 60)
            time.sleep(15)  # the stalled pairing wakes up, pairs, and must store nothing
            assert call(base, token, "GET", url)[1]["status"] == "failed"
            assert not t.rounds.exists()
        with worker(redis, "pairing"):
            status, again = call(base, token, "POST", pair, {"background": True})
            assert status == 202, again
            url = f"/api/tournaments/{t.slug}/pairing-jobs/{again['id']}/"
            assert wait_for(lambda: call(base, token, "GET", url)[1]["status"] == "done", 120)
    assert t.rounds.get().games.count() == 100


def test_a_record_whose_validation_raises_in_a_real_worker():
    officials = officials_make()
    t, _ = event_make(officials)
    token = token_of(officials.arbiter)
    faulty = RECORD.decode().replace("[Result", '[Fault "raise"]\n[Result')
    argv = procfile_command("worker")
    argv[argv.index("klinzha_site")] = "tests.integration.faulty_celery"
    with redis_server() as redis, site(redis, KZ_REQUEUE_AFTER="1") as base:
        env = {"REDIS_URL": redis.url, **ENV, "KZ_REQUEUE_AFTER": "1"}
        with service("faulty", argv, **env):
            status, upload = upload_post(base, token, t.slug, faulty.encode(), "faulty.kzr")
            assert status == 201, upload
            sub = RecordSubmission.objects.get(tournament=t)
            url = f"/api/records/{sub.pk}/"
            assert wait_for(lambda: call(base, token, "GET", url)[1]["status"] == "failed", 90)
            got = call(base, token, "GET", url)[1]
            assert got["attempts"] == 3
            assert got["failure_reason"] == "RuntimeError: the engine broke on this record"
            time.sleep(4)  # the sweep leaves it alone now
            assert RecordSubmission.objects.get(pk=sub.pk).attempts == 3
        with worker(redis, "mended"):  # the engine is mended; the arbiter queues it again
            status, requeued = call(base, token, "POST", f"/api/records/{sub.pk}/requeue/")
            assert status == 200 and requeued["attempts"] == 0, requeued
            assert wait_for(lambda: call(base, token, "GET", url)[1]["status"] == "done", 60)
            got = call(base, token, "GET", url)[1]
    assert got["valid"] and got["failure_reason"] == ""


def test_an_adjustment_made_while_a_long_validation_runs():
    officials = officials_make()
    tc = "20/1800:1200"
    t, (a, b, c, d) = event_make(officials, time_control=tc)
    game = round_make(t, [(a, b), (c, d)]).games.get(board=1)
    token = token_of(officials.arbiter)
    text = write_record(record(tc, {26: "0:00:00"}))  # gold's flag falls at ply 26
    with (
        redis_server() as redis,
        site(redis) as base,
        worker(redis, "slow", KZ_VALIDATION_DELAY="6"),
    ):
        status, sub = call(base, token, "POST", f"/api/games/{game.pk}/records/", {"text": text})
        assert status == 201, sub
        assert wait_for(
            lambda: RecordSubmission.objects.get(pk=sub["id"]).status == "validating", 30
        )
        body = {"side": "gold", "seconds": 60, "article": "12.5", "from_ply": 26, "reason": "noise"}
        status, adj = call(base, token, "POST", f"/api/games/{game.pk}/clock-adjustments/", body)
        assert status == 201, adj

        def judged() -> bool:
            got = RecordSubmission.objects.get(pk=sub["id"])
            return got.status == "done" and got.generation >= 3

        assert wait_for(judged, 60)
        time.sleep(8)  # the first validation's save, had it been kept, would land by now
        got = call(base, token, "GET", f"/api/records/{sub['id']}/")[1]
    assert got["status"] == "done" and got["clock"]["decision"] is None  # the minute counts


def test_the_worker_pool_killed_during_a_bulk_upload():
    officials = officials_make()
    t, _ = event_make(officials)
    token = token_of(officials.arbiter)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for i in range(300):
            zf.writestr(f"r{i:03d}.kzr", RECORD)
    with redis_server() as redis, site(redis) as base:
        # Each batch of 50 takes 2 s: the SIGKILL finds batches done, one under way and
        # others waiting.
        with worker(redis, "pool1", KZ_VALIDATION_DELAY="2") as pool1:
            status, upload = upload_post(base, token, t.slug, buf.getvalue())
            assert status == 201, upload
            subs = RecordSubmission.objects.filter(tournament=t)
            assert subs.count() == 300
            under_way = subs.filter(status="validating")
            assert wait_for(
                lambda: subs.filter(status="done").exists() and under_way.exists(), 60, 0.05
            )
            kill_hard(pool1)
        cut_short = set(under_way.values_list("pk", flat=True))
        with worker(redis, "pool2", KZ_VALIDATION_DELAY="0.5"):
            assert wait_for(lambda: not subs.exclude(status="done").exists(), 180, 0.5)
    assert set(subs.values_list("status", flat=True)) == {"done"}
    assert all(s.valid for s in subs)
    assert cut_short  # the kill found validations under way; they ran again
    # Each record was sent again only when stale by its own clock, each time counted.
    assert max(subs.values_list("attempts", flat=True)) <= 3
    assert max(subs.values_list("resends", flat=True)) <= 4


def upload_post(
    base: str, token: str, slug: str, data: bytes, name: str = "round.zip"
) -> tuple[int, Any]:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    request = urllib.request.Request(
        f"{base}/api/tournaments/{slug}/record-uploads/", data=body, method="POST"
    )
    request.add_header("Content-Type", f"multipart/form-data; boundary={boundary}")
    request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=120) as response:  # noqa: S310 - local
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
