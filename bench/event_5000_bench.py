"""A whole Swiss event through the REST API as its arbiter runs it: N players (5,000 by
default) registered in one request, then 9 rounds, each paired and published, its results
entered in one request, and the standings read (cold, then from the cache). Every step is
timed, with its SQL queries, on PostgreSQL (target: the whole 5,000-player event in under
3 minutes). The pairing step is split into the Swiss pairer itself (timed alone on the same
players) and the rest of the request (reading the field, storing the round, answering it).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klinzha_bench \\
    python bench/event_5000_bench.py [--players 500 5000] [--rounds 9] [--seed 1]

The requests go through Django's whole stack in this process (DRF's test client, a token
in the Authorization header), not over a socket. The bench makes its own database (the
URL's name with `_event_bench`) and drops it when done. With REDIS_URL set, Redis is the
cache, as in production; without it, the process's own memory.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RESULTS = ["first_win", "second_win", "draw"]
RESULT_WEIGHTS = [45, 45, 10]


@dataclass
class Step:
    what: str
    seconds: float
    queries: int
    note: str = ""


@dataclass
class Run:
    players: int
    rounds: int
    steps: list[Step] = field(default_factory=list)

    def total(self) -> float:
        return sum(s.seconds for s in self.steps)


def setup_django() -> None:
    # STATIC_ROOT exists only after collectstatic; the API serves no static file.
    warnings.filterwarnings("ignore", "No directory at")
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database (the bench makes its own beside it)")
    os.environ["DJANGO_SETTINGS_MODULE"] = "klinzha_site.settings.test"
    import django

    django.setup()


def database_make() -> Any:
    """A fresh database of its own, migrated (Django's test database machinery, named
    after the URL's database with `_event_bench`)."""
    from django.conf import settings
    from django.test.utils import setup_databases

    default = settings.DATABASES["default"]
    default.setdefault("TEST", {})["NAME"] = f"{default['NAME']}_event_bench"
    return setup_databases(verbosity=0, interactive=False)


def timed(run: Run, what: str, call: Any, note: str = "") -> Any:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        out = call()
        seconds = time.perf_counter() - start
    run.steps.append(Step(what, seconds, len(queries), note))
    return out


def answer(response: Any, status: int) -> Any:
    if response.status_code != status:
        raise SystemExit(f"{response.status_code}: {response.content[:500]!r}")
    return response.json()


def arbiter_client(slug: str) -> tuple[Any, Any]:
    """An organizer's API client (a token, as a script would hold one)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    user = get_user_model().objects.create_user(f"arbiter-{slug}", password="pw-bench-12345")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client, user


def entrant_rows(n: int, rng: random.Random) -> list[dict[str, Any]]:
    return [
        {
            "name": f"Warrior {i:05d}",
            "rating": rng.randrange(1000, 2600),
            "club_name": f"House {i % 97}",
            "federation": "KLI",
        }
        for i in range(n)
    ]


def swiss_alone(slug: str, number: int) -> float:
    """The Swiss pairer alone on the field of round `number` (read before, not timed);
    every cache emptied after, so that the request that pairs reads as it would alone."""
    from tournaments.models import Tournament
    from tournaments.pairing import pair_swiss
    from tournaments.pairing_selectors import pairing_players

    t = Tournament.objects.get(slug=slug)
    players, _ = pairing_players(tournament=t, round_number=number)
    start = time.perf_counter()
    pair_swiss(
        players,
        balanced=t.placement_order == Tournament.PlacementOrder.BALANCED,
        round_number=number,
        forbid_same_club=t.forbid_same_club,
        accelerated=number <= t.accelerated_rounds,
    )
    seconds = time.perf_counter() - start
    caches_empty()
    return seconds


def caches_empty() -> None:
    """The cache, this process's copy of published pages and its standings memo."""
    from django.core.cache import cache

    from klinzha_site.page_cache import page_cache_local_clear
    from tournaments.selectors import standings_memo_clear

    cache.clear()
    page_cache_local_clear()
    standings_memo_clear()


def event_run(n: int, rounds: int, seed: int, bar: Any) -> Run:
    """The event, step by step, each timed; `bar` moves once a step."""
    rng = random.Random(seed)
    slug = f"bench-{n}-{seed}"
    client, _ = arbiter_client(slug)
    base = f"/api/tournaments/{slug}"
    run = Run(players=n, rounds=rounds)
    body = {"name": f"Bench {n}", "slug": slug, "start_date": "2026-11-22"}
    body["rounds_planned"] = rounds
    answer(client.post("/api/tournaments/", body, format="json"), 201)
    rows = entrant_rows(n, rng)
    timed(
        run,
        "register (one request)",
        lambda: answer(
            client.post(base + "/registrations/bulk/", {"rows": rows}, format="json"), 201
        ),
    )
    bar.update()
    for number in range(1, rounds + 1):
        alone = swiss_alone(slug, number)
        paired = timed(
            run,
            f"pair round {number}",
            lambda: answer(client.post(base + "/pair/", {"publish": True}, format="json"), 201),
            note=f"Swiss pairer alone {alone:.2f} s",
        )
        bar.update()
        results = [
            {"board": g["board"], "result": rng.choices(RESULTS, RESULT_WEIGHTS)[0]}
            for g in paired["games"]
            if g["kind"] == "game"
        ]
        timed(
            run,
            f"results round {number}",
            lambda results=results, number=number: answer(
                client.post(f"{base}/rounds/{number}/results/", {"rows": results}, format="json"),
                200,
            ),
            note=f"{len(results)} games",
        )
        bar.update()
    caches_empty()
    for what in ("standings (cold)", "standings (cached)"):
        timed(run, what, lambda: answer(client.get(base + "/standings/"), 200))
    bar.update()
    return run


def report(run: Run) -> None:
    print(f"\n{run.players:,} players, {run.rounds} rounds")
    print(f"  {'step':24} {'s':>8} {'queries':>8}  note")
    for s in run.steps:
        print(f"  {s.what:24} {s.seconds:>8.2f} {s.queries:>8}  {s.note}")
    pairing = sum(s.seconds for s in run.steps if s.what.startswith("pair"))
    results = sum(s.seconds for s in run.steps if s.what.startswith("results"))
    register = sum(s.seconds for s in run.steps if s.what.startswith("register"))
    print(
        f"  total {run.total():.1f} s: register {register:.1f} s, pairing {pairing:.1f} s, "
        f"results {results:.1f} s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[500, 5000])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    setup_django()
    from django.conf import settings
    from django.test.utils import teardown_databases

    settings.ALLOWED_HOSTS = ["*"]
    old = database_make()
    try:
        runs = []
        for n in args.players:
            steps = 1 + 2 * args.rounds + 1
            with tqdm(total=steps, desc=f"{n:,} players", unit="step") as bar:
                runs.append(event_run(n, args.rounds, args.seed, bar))
        for run in runs:
            report(run)
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
