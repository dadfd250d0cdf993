"""Published pages across processes on PostgreSQL and Redis: readers in several processes ask
for a page's new version at once and it is rendered once, the others served the version
before (marked) or the one made; two deployments with other databases on one Redis never
serve each other's pages."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.db import connection
from django.test import Client

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tests.workers import ROOT, service_env
from tournaments import services
from tournaments.models import Game, Tournament

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# A reader in a process of its own: at the given moment, one request; what it was answered
# and how many renders this process made. Warmed first (its middleware, URLs and templates
# loaded by a page not cached), so that all ask together; the standings' render is slowed to
# a second, so that the others ask while it is under way.
READER = """
import json, sys, time
import django
django.setup()
from django.test import Client
from klinzha_site.page_cache import page_rendered
import tournaments.views as views
renders = []
page_rendered.connect(lambda sender, key, seconds, **kw: renders.append(key), weak=False)
rendered = views._standings
def slowed(request, slug):
    time.sleep(1.0)
    return rendered(request, slug)
views._standings = slowed
start, path = float(sys.argv[1]), sys.argv[2]
client = Client(HTTP_HOST="127.0.0.1")
assert client.get("/").status_code == 200
time.sleep(max(0.0, start - time.time()))
late = time.time() - start
r = client.get(path)
print(json.dumps({"status": r.status_code, "renders": renders, "late": late,
                  "version": r.get("X-KZ-Version", ""), "stale": r.get("X-KZ-Stale", "")}))
"""


def test_readers_in_several_processes_make_one_render_of_a_new_version():
    officials = officials_make()
    t, (a, b, c, d) = event_make(officials, slug="one-render")
    r1 = round_make(t, [(a, b), (c, d)])
    path = f"/t/{t.slug}/standings/"
    start = time.time() + 10  # every process up and warm by then, on a busy machine too
    readers = [
        subprocess.Popen(
            [sys.executable, "-c", READER, str(start), path],
            cwd=ROOT,
            env=service_env(),
            stdout=subprocess.PIPE,
        )
        for _ in range(6)
    ]
    time.sleep(max(0.0, start - 1.5 - time.time()))
    old = Client().get(path)  # the version before, read a moment ago
    services.game_result_set(game=r1.games.get(board=1), result=Game.Result.FIRST_WIN)
    new = f"t{t.pk}:v{Tournament.objects.get(pk=t.pk).published_version}"
    answers = [json.loads(p.communicate(timeout=120)[0]) for p in readers]
    assert all(x["status"] == 200 for x in answers), answers
    assert sum(len(x["renders"]) for x in answers) == 1, answers  # one render in all
    for x in answers:
        assert x["version"] == new or (x["version"] == old["X-KZ-Version"] and x["stale"])
    # Those asking together while it rendered got the version before (on a machine too busy
    # to start them together, only the single render above is shown).
    on_time = [x for x in answers if x["late"] < 0.3]
    if len(on_time) >= 2:
        assert any(x["stale"] for x in on_time), answers


# Each process makes the same event in its own database (the same ids, the same version),
# its players named as given, or serves its standings.
TWIN = """
import sys
import django
django.setup()
from django.test import Client
what, names = sys.argv[1], sys.argv[2].split(",")
if what == "make":
    from tests.tournaments.services.factories import event_make, officials_make, round_make
    t, players = event_make(officials_make(), slug="twin", names=tuple(names))
    round_make(t, [(players[0], players[1])])
    from tournaments.models import Tournament
    print(t.pk, Tournament.objects.get(pk=t.pk).published_version)
else:
    body = Client(HTTP_HOST="127.0.0.1").get("/t/twin/standings/").content.decode()
    print(",".join(n for n in names if n in body))
"""


@contextmanager
def twin_databases() -> Iterator[tuple[str, str]]:
    """Two new databases with the site's tables, their URLs; dropped at the end."""
    settings_dict = connection.settings_dict
    host = settings_dict["HOST"] or "127.0.0.1"
    base = f"postgresql://{settings_dict['USER']}@{host}:{settings_dict['PORT'] or 5432}"
    names = [f"{settings_dict['NAME']}_twin_a", f"{settings_dict['NAME']}_twin_b"]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        for name in names:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{names[0]}"')
        env = service_env(DATABASE_URL=f"{base}/{names[0]}")
        migrate = [sys.executable, "manage.py", "migrate", "-v0"]
        subprocess.run(migrate, cwd=ROOT, env=env, check=True, timeout=300)
        # A copy: the same sequences, so the same ids and versions in both.
        admin.execute(f'CREATE DATABASE "{names[1]}" TEMPLATE "{names[0]}"')
        try:
            yield f"{base}/{names[0]}", f"{base}/{names[1]}"
        finally:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _twin(url: str, what: str, names: str) -> str:
    run = [sys.executable, "-c", TWIN, what, names]
    done = subprocess.run(
        run, cwd=ROOT, env=service_env(DATABASE_URL=url), capture_output=True, check=True
    )
    return done.stdout.decode().strip()


def test_two_databases_on_one_redis_never_serve_each_others_pages():
    """Two deployments whose events have the same slug, ids and versions (all a page's key
    carried before, with the build): each is served its own standings."""
    with twin_databases() as (first, second):
        made = {_twin(first, "make", "Ann,Bob"), _twin(second, "make", "Xia,Yul")}
        assert len(made) == 1  # the same id and version in both: only the database differs
        everyone = "Ann,Bob,Xia,Yul"
        assert _twin(first, "serve", everyone) == "Ann,Bob"  # rendered, kept in Redis
        assert _twin(second, "serve", everyone) == "Xia,Yul"  # not the first one's page
        assert _twin(first, "serve", everyone) == "Ann,Bob"
