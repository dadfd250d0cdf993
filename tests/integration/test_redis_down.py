"""Redis down (a private redis-server on a spare port, killed): the site as deployed (the
Procfile's web line) keeps answering standings and crosstables (pages, CSV, JSON, API) from
the database, stores records as queued, and the worker and beat of the Procfile pick them
up once Redis is back, nobody polling a status URL. bench/chaos_bench.py prints the times."""

from __future__ import annotations

import json
import socket
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from games.models import RecordSubmission
from tests.workers import (
    free_port,
    http_wait,
    procfile_command,
    redis_server,
    service,
    wait_for,
    web_server_argv,
)
from tournaments.demo import demo_load
from tournaments.models import Game

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

RECORD = (
    Path(__file__).resolve().parents[1] / "rules" / "records" / "example2-laws-deadlock.kzr"
).read_text(encoding="utf-8")
# The sweep at test speed: records waiting 2 s are queued again, every second.
FAST_SWEEP = {"KZ_REQUEUE_AFTER": "2", "KZ_SWEEP_EVERY": "1"}


def http(base: str, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, bytes]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - local
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def public_reads(slug: str) -> list[str]:
    return [
        f"/t/{slug}/",
        f"/t/{slug}/standings/",
        f"/t/{slug}/crosstable/",
        f"/t/{slug}/crosstable.csv",
        f"/t/{slug}/crosstable.json",
        f"/api/tournaments/{slug}/",
        f"/api/tournaments/{slug}/standings/",
        f"/api/tournaments/{slug}/crosstable/",
    ]


def test_the_site_degrades_and_recovers_when_redis_is_down():
    tournament, login, _, _ = demo_load(rounds_played=2)
    token = Token.objects.create(user=get_user_model().objects.get(username=login)).key
    games = list(Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME)[:2])
    port = free_port(8390, 8399)
    base = f"http://127.0.0.1:{port}"
    with redis_server() as redis:
        env = {"REDIS_URL": redis.url, **FAST_SWEEP}
        with service("web", web_server_argv(port), **env):
            http_wait(base + "/")
            for path in public_reads(tournament.slug):  # the cache filled while Redis is up
                assert http(base, "GET", path)[0] == 200, path
            redis.stop()
            for path in public_reads(tournament.slug):
                status, body = http(base, "GET", path)
                assert status == 200, (path, body[:300])
            stored = []
            for game in games:  # the first send fails, the second is not even tried
                status, body = http(
                    base, "POST", f"/api/games/{game.pk}/records/", {"text": RECORD}, token
                )
                assert status == 201, body
                stored.append(json.loads(body)["id"])
            subs = RecordSubmission.objects.filter(pk__in=stored)
            assert [s.status for s in subs] == ["queued", "queued"]

            redis.start()
            with (
                service("worker", procfile_command("worker"), **env),
                service("beat", procfile_command("beat"), **env),
            ):
                # Nobody asks for a status: the sweep (or the worker starting) finds them.
                assert wait_for(lambda: all(s.status == "done" for s in subs.all()), 90)
            for path in public_reads(tournament.slug):  # and the cache works again
                assert http(base, "GET", path)[0] == 200, path
    assert all(s.valid and s.winner == "gold" for s in subs.all())


def test_a_broker_that_never_answers_holds_no_request():
    """A 'Redis' that takes connections and never answers (a hung server, a half-open
    network): the cache and the broker give up by their deadlines; the record is stored as
    queued and the pages answer (without the deadlines the requests hang)."""
    tournament, login, _, _ = demo_load(rounds_played=1)
    token = Token.objects.create(user=get_user_model().objects.get(username=login)).key
    game = Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME).first()
    assert game is not None
    hung = socket.socket()
    hung.bind(("127.0.0.1", free_port()))
    hung.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        hung.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(hung.accept()[0])
            except TimeoutError:
                continue

    acceptor = threading.Thread(target=accept, daemon=True)
    acceptor.start()
    port = free_port(8390, 8399)
    base = f"http://127.0.0.1:{port}"
    url = f"redis://127.0.0.1:{hung.getsockname()[1]}/0"
    try:
        with service("web-hung", web_server_argv(port), REDIS_URL=url):
            http_wait(base + "/")
            for path in public_reads(tournament.slug):
                assert http(base, "GET", path)[0] == 200, path
            status, body = http(
                base, "POST", f"/api/games/{game.pk}/records/", {"text": RECORD}, token
            )
            assert status == 201, body
            assert RecordSubmission.objects.get(pk=json.loads(body)["id"]).status == "queued"
    finally:
        stop.set()
        acceptor.join(5)
        for conn in held:
            conn.close()
        hung.close()
