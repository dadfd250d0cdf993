"""Chaos: the site as deployed (the Procfile's web, worker and beat) under a steady stream of
record submissions and standings reads, while its private Redis is killed and started again
twice and a worker is killed with SIGKILL in the middle of validations. Nothing is lost
(every record accepted is stored), nothing is stranded (every one is validated, nobody
polling a status URL), no request fails, and the worker lives through the outages.
bench/chaos_bench.py runs the same with the production timings and prints the figures."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from kombu import Connection
from redis.exceptions import ConnectionError as RedisConnectionError
from rest_framework.authtoken.models import Token

from games.models import RecordSubmission
from tests.integration.test_redis_down import http
from tests.workers import (
    free_port,
    http_wait,
    kill_hard,
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
# Test speed: the sweep every second for records waiting 3 s; each validation takes 0.3 s so
# that the SIGKILL finds one under way.
ENV = {"KZ_REQUEUE_AFTER": "3", "KZ_SWEEP_EVERY": "1", "KZ_VALIDATION_DELAY": "0.3"}


class Traffic(threading.Thread):
    """Posts a record and reads the standings in turn until stopped; keeps every answer."""

    def __init__(self, base: str, slug: str, games: list[Game], token: str) -> None:
        super().__init__(daemon=True)
        self.base, self.slug, self.games, self.token = base, slug, games, token
        self.stop = threading.Event()
        self.accepted: list[int] = []
        self.failures: list[tuple[str, int, bytes]] = []
        self.requests = 0
        # (when it started, what, how long it took), for bench/chaos_bench.py
        self.timings: list[tuple[float, str, float]] = []

    def _call(self, method: str, path: str, body: object = None) -> tuple[int, bytes]:
        start = time.monotonic()
        status, answer = http(self.base, method, path, body, self.token)
        self.timings.append((start, f"{method} {path}", time.monotonic() - start))
        self.requests += 1
        return status, answer

    def run(self) -> None:
        n = 0
        while not self.stop.is_set():
            game = self.games[n % len(self.games)]
            path = f"/api/games/{game.pk}/records/"
            status, body = self._call("POST", path, {"text": RECORD})
            if status == 201:
                self.accepted.append(json.loads(body)["id"])
            else:
                self.failures.append((path, status, body[:300]))
            for path in (f"/t/{self.slug}/standings/", f"/api/tournaments/{self.slug}/standings/"):
                status, body = self._call("GET", path)
                if status != 200:
                    self.failures.append((path, status, body[:300]))
            n += 1
            time.sleep(0.1)


def test_nothing_lost_nothing_stranded_through_redis_restarts_and_a_killed_worker():
    tournament, login, _, _ = demo_load(rounds_played=2)
    token = Token.objects.create(user=get_user_model().objects.get(username=login)).key
    games = list(Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME))
    port = free_port(8390, 8399)
    base = f"http://127.0.0.1:{port}"
    with redis_server() as redis:
        env = {"REDIS_URL": redis.url, **ENV}
        with (
            service("web", web_server_argv(port), **env),
            service("beat", procfile_command("beat"), **env),
            service("worker1", procfile_command("worker"), **env) as worker1,
        ):
            http_wait(base + "/")
            traffic = Traffic(base, tournament.slug, games, token)
            traffic.start()
            try:
                for _ in range(2):  # Redis crashes (its queue lost) and comes back, twice
                    time.sleep(3)
                    redis.stop()
                    time.sleep(4)
                    redis.start()
                    time.sleep(2)
                    assert worker1.poll() is None, "the worker died in a Redis outage"
                # a worker killed in the middle of a validation; its replacement comes up
                assert wait_for(
                    lambda: RecordSubmission.objects.filter(status="validating").exists(), 30, 0.05
                )
                cut_short = set(
                    RecordSubmission.objects.filter(status="validating").values_list(
                        "pk", flat=True
                    )
                )
                kill_hard(worker1)  # with its pool processes: nothing finishes the task
                with service("worker2", procfile_command("worker"), **env) as worker2:
                    time.sleep(3)
                    traffic.stop.set()
                    traffic.join(60)
                    accepted = set(traffic.accepted)

                    def settled() -> bool:
                        subs = RecordSubmission.objects.filter(pk__in=accepted)
                        return not subs.exclude(status="done").exists()

                    # Nobody polls a status URL: the sweep finds what the outages left.
                    assert wait_for(settled, 120, 0.5)
                    assert worker2.poll() is None
            finally:
                traffic.stop.set()
    assert not traffic.failures, traffic.failures[:5]
    assert traffic.requests > 50 and len(accepted) > 15
    stored = RecordSubmission.objects.filter(game__in=games)
    assert set(stored.values_list("pk", flat=True)) == accepted  # nothing lost or invented
    assert set(stored.values_list("status", flat=True)) == {"done"}
    assert all(s.valid and s.winner == "gold" for s in stored)
    # the validations the SIGKILL cut short ran again (their messages were never acknowledged)
    assert cut_short and all(s.attempts >= 2 for s in stored.filter(pk__in=cut_short))


def test_a_channel_whose_connection_closed_fails_as_a_connection_error():
    """kombu's stock Redis channel, asked for a client after its connection closed (an ack
    after Redis went away), raises AttributeError, which kills a worker; ours raises the
    connection error the worker handles."""
    with redis_server() as redis:
        for transport, error in (
            ("redis", AttributeError),
            ("klinzha_site.broker:Transport", RedisConnectionError),
        ):
            conn = Connection(redis.url, transport=transport)
            channel = conn.channel()
            channel.client.ping()
            conn.close()
            channel._pool = None
            with pytest.raises(error):
                channel.conn_or_acquire().__enter__()
