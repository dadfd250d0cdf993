"""Tournament speed: an event of N players and 11 rounds (issue 3's benchmark).

Measures the standings computation (cold, no cache), the crosstable page and the standings
API: wall time and SQL queries, for 100 and 1,000 players, to show the queries do not grow
with the field.

    python bench/tournament_bench.py [--players 100 1000] [--rounds 11]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup_django(db_path: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "klinzha_site.settings.test"
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{db_path}")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build_event(n_players: int, n_rounds: int, seed: int = 1) -> object:
    from tournaments.models import Club, Game, Player, Registration, Round, Tournament

    rng = random.Random(seed)
    t = Tournament.objects.create(
        name=f"Bench {n_players}",
        slug=f"bench-{n_players}",
        start_date=date(2026, 11, 22),
        rounds_planned=n_rounds,
    )
    clubs = Club.objects.bulk_create([Club(name=f"Club {n_players}-{i}") for i in range(20)])
    players = Player.objects.bulk_create(
        [
            Player(name=f"Player {i:05d}", club=clubs[i % 20], rating=1000 + rng.randrange(1500))
            for i in range(n_players)
        ]
    )
    Registration.objects.bulk_create(
        [Registration(tournament=t, player=p, start_rank=i + 1) for i, p in enumerate(players)]
    )
    ids = [p.pk for p in players]
    results = [Game.Result.FIRST_WIN, Game.Result.SECOND_WIN, Game.Result.DRAW]
    for rnd in range(1, n_rounds + 1):
        r = Round.objects.create(tournament=t, number=rnd)
        rng.shuffle(ids)
        games = []
        for b in range(0, len(ids) - 1, 2):
            games.append(
                Game(
                    round=r,
                    board=b // 2 + 1,
                    first_id=ids[b],
                    second_id=ids[b + 1],
                    result=rng.choices(results, weights=[5, 4, 1])[0],
                )
            )
        if len(ids) % 2:
            games.append(
                Game(round=r, board=len(ids) // 2 + 1, first_id=ids[-1], kind=Game.Kind.BYE)
            )
        Game.objects.bulk_create(games)
    return t


def measure(t: object) -> dict[str, tuple[float, int]]:
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tournaments.selectors import standings_compute

    out = {}
    cache.clear()
    with CaptureQueriesContext(connection) as q:
        start = time.perf_counter()
        standings_compute(tournament=t)
        out["standings (cold)"] = (time.perf_counter() - start, len(q))
    client = Client()
    for name, url in [
        ("crosstable page", f"/t/{t.slug}/crosstable/"),
        ("standings API", f"/api/tournaments/{t.slug}/standings/"),
    ]:
        cache.clear()
        with CaptureQueriesContext(connection) as q:
            start = time.perf_counter()
            resp = client.get(url)
            elapsed = time.perf_counter() - start
        assert resp.status_code == 200, (url, resp.status_code)
        out[f"{name} (cold)"] = (elapsed, len(q))
        with CaptureQueriesContext(connection) as q:
            start = time.perf_counter()
            client.get(url)
            out[f"{name} (cached)"] = (time.perf_counter() - start, len(q))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, nargs="+", default=[100, 1000])
    ap.add_argument("--rounds", type=int, default=11)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(str(Path(tmp) / "bench.sqlite3"))
        from django.conf import settings

        settings.ALLOWED_HOSTS = ["*"]
        print(f"{'players':>7} {'what':28} {'seconds':>8} {'queries':>7}")
        for n in args.players:
            t = build_event(n, args.rounds)
            for what, (secs, queries) in measure(t).items():
                print(f"{n:>7} {what:28} {secs:>8.3f} {queries:>7}")


if __name__ == "__main__":
    main()
