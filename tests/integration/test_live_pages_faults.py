"""Published pages when what renders them ahead dies: a worker killed in the middle of a
render (its lock left behind) and Redis stopped while a render's lock is held. The site as
deployed (the Procfile's web line, two processes) keeps answering every reader, never two
versions behind, nobody waiting long, and is current again within the lock's time."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tests.workers import (
    ROOT,
    free_port,
    http_wait,
    kill_hard,
    redis_server,
    service,
    service_env,
    web_server_argv,
)
from tournaments.models import Tournament

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# What the worker's task does after a result (klinzha_site.page_prerender), in a process of its
# own on the test database: the result entered, the new version marked as made ahead, then
# the standings requested as the worker requests them, their render slowed to a minute and
# the process killed in it. Prints the new version once the render has begun.
HOLDER = """
import sys, time
import django
django.setup()
import tournaments.views as views
from klinzha_site.page_prerender import pages_ahead_mark
from tournaments import services
from tournaments.models import Game, Tournament
from tournaments.published import tournament_pages_prerender
rendered = views._standings
def stuck(request, slug):
    print(Tournament.objects.get(slug=slug).published_version, flush=True)
    time.sleep(60)
    return rendered(request, slug)
views._standings = stuck
game = Game.objects.get(pk=int(sys.argv[1]))
services.game_result_set(game=game, result=Game.Result.FIRST_WIN)
t = game.round.tournament
pages_ahead_mark(scope=f"t{t.pk}", number=Tournament.objects.get(pk=t.pk).published_version)
tournament_pages_prerender(tournament_id=t.pk)
"""
# How long a render's lock lasts (KZ_PAGE_RENDER_LOCK_SECONDS) and a reader waits for a
# render under way (KZ_PAGE_RENDER_WAIT_SECONDS): a reader never waits longer than the
# second (and its own render), and the page is current again within the first.
LOCK_SECONDS = 5.0
WAIT_SECONDS = 2.0


def _read(base: str, path: str) -> tuple[int, int, bool, float]:
    """(status, version shown, marked as the version before, seconds taken)."""
    started = time.monotonic()
    with urllib.request.urlopen(base + path, timeout=30) as response:  # noqa: S310 - local
        response.read()
        version = response.headers.get("X-KZ-Version", "")
        stale = bool(response.headers.get("X-KZ-Stale"))
        status = response.status
    return status, int(version.split(":v")[1]), stale, time.monotonic() - started


@contextmanager
def _holder(game_pk: int, redis_url: str) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """The process above, started and left holding the standings' render lock; killed
    (SIGKILL) at the end if still alive. Yields it and the version it renders."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(game_pk)],
        cwd=ROOT,
        env=service_env(REDIS_URL=redis_url),
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line, "the holder died before rendering"
        yield proc, int(line)
    finally:
        if proc.poll() is None:
            kill_hard(proc)


def _readers_until_current(base: str, path: str, new: int, seconds: float) -> list[tuple]:
    """Read `path` until version `new` is served (at most `seconds`); every answer."""
    answers = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answers.append(_read(base, path))
        if answers[-1][1] == new and not answers[-1][2]:
            break
        time.sleep(0.05)
    return answers


def test_a_worker_killed_mid_render_then_redis_stopped_with_a_lock_held():
    officials = officials_make()
    t, (a, b, c, d) = event_make(officials, slug="killed-render")
    r1 = round_make(t, [(a, b), (c, d)])
    path = f"/t/{t.slug}/standings/"
    port = free_port(8380, 8389)
    base = f"http://127.0.0.1:{port}"
    with redis_server() as redis:
        env = {"REDIS_URL": redis.url, "KZ_PAGE_RENDER_LOCK_SECONDS": str(LOCK_SECONDS)}
        with service("web", web_server_argv(port), **env):
            http_wait(base + "/")
            first = Tournament.objects.get(pk=t.pk).published_version
            for _ in range(4):  # both web processes have it, and it is noted as read
                assert _read(base, path)[:3] == (200, first, False)

            # 1. The worker dies in the render: its lock stays until it expires.
            with _holder(r1.games.get(board=1).pk, redis.url) as (proc, second):
                assert second == first + 1
                kill_hard(proc)
                killed = time.monotonic()
                answers = _readers_until_current(base, path, second, LOCK_SECONDS + 10)
            assert all(status == 200 for status, *_ in answers), answers
            assert answers[-1][1] == second and not answers[-1][2], answers
            assert all(version >= second - 1 for _, version, _, _ in answers), answers
            assert all(taken < WAIT_SECONDS + 2.0 for *_, taken in answers), answers
            assert time.monotonic() - killed < LOCK_SECONDS + WAIT_SECONDS + 3.0
            stale = [x for x in answers if x[2]]
            assert all(x[1] == first for x in stale), answers  # marked, one version behind

            # 2. Another render's lock held, its holder killed, then Redis stopped: every
            # process renders the new version on its own and keeps answering.
            with _holder(r1.games.get(board=2).pk, redis.url) as (proc, third):
                kill_hard(proc)
                redis.stop()
                answers = [_read(base, path) for _ in range(6)]
            assert all(status == 200 for status, *_ in answers), answers
            assert all(version == third and not stale for _, version, stale, _ in answers)

            # 3. Redis back, empty: the pages are made again and served from it.
            redis.start()
            answers = [_read(base, path) for _ in range(6)]
            assert all(x[:3] == (200, third, False) for x in answers), answers
