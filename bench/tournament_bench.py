"""Tournament speed: an event of N players and 11 rounds (issue 3's benchmark).

Measures the standings computation cold (no cache of any kind; target < 50 ms at 1,000 ×
11), the crosstable built from standings (target < 50 ms), and the standings page, crosstable
page and standings API cold and cached: wall time (best of five) and SQL queries, for 100,
1,000 and 5,000 players, to show how the cost grows with the field and that the queries do
not.

    python bench/tournament_bench.py [--players 100 1000 5000] [--rounds 5 11]

On SQLite in a temporary file; on PostgreSQL with DATABASE_URL set (its events kept and
reused), with REDIS_URL the shared cache Redis.
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
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
        os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build_event(n_players: int, n_rounds: int, seed: int = 1, tag: str = "") -> object:
    from tournaments.models import Club, Game, Player, Registration, Round, Tournament

    rng = random.Random(seed)
    t = Tournament.objects.create(
        name=f"Bench {n_players}{tag}",
        slug=f"bench-{n_players}{tag}",
        start_date=date(2026, 11, 22),
        rounds_planned=n_rounds,
    )
    clubs = Club.objects.bulk_create([Club(name=f"Club {n_players}{tag}-{i}") for i in range(20)])
    players = Player.objects.bulk_create(
        [
            Player(
                name=f"Player {tag}{i:05d}",
                club=clubs[i % 20],
                rating=1000 + rng.randrange(1500),
            )
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


def event_get(n_players: int, n_rounds: int) -> object:
    """The event of this size, built unless the database has it (PostgreSQL: kept between
    runs)."""
    from tournaments.models import Tournament

    found = Tournament.objects.filter(slug=f"bench-{n_players}-{n_rounds}r").first()
    return found or build_event(n_players, n_rounds, tag=f"-{n_rounds}r")


def measure(t: object, repeat: int = 5) -> dict[str, tuple[float, int]]:
    """Seconds (the best of `repeat`, so that other load on the machine counts least) and
    queries of each step, every cache emptied before each try."""
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from klinzha_site.page_cache import page_cache_local_clear
    from tournaments.selectors import standings_compute, standings_memo_clear
    from tournaments.standings import crosstable_rows

    def cold() -> None:
        cache.clear()
        page_cache_local_clear()
        standings_memo_clear()

    def best(step: object) -> tuple[float, int]:
        times, count = [], 0
        for _ in range(repeat):
            cold()
            with CaptureQueriesContext(connection) as q:
                start = time.perf_counter()
                step()  # type: ignore[operator]
                times.append(time.perf_counter() - start)
            count = len(q)
        return min(times), count

    out = {"standings (cold)": best(lambda: standings_compute(tournament=t))}
    times = []
    for _ in range(repeat):
        cold()
        standings_compute(tournament=t)  # made and shared by "another process"
        standings_memo_clear()
        start = time.perf_counter()
        standings_compute(tournament=t)
        times.append(time.perf_counter() - start)
    out["standings (shared cache)"] = (min(times), 1)
    rows = standings_compute(tournament=t)
    rounds = max((r for row in rows for r in row.rounds), default=0)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        crosstable_rows(rows, rounds)
        times.append(time.perf_counter() - start)
    out["crosstable from standings"] = (min(times), 0)
    client = Client()
    for name, url in [
        ("standings page", f"/t/{t.slug}/standings/"),
        ("crosstable page", f"/t/{t.slug}/crosstable/"),
        ("standings API", f"/api/tournaments/{t.slug}/standings/"),
    ]:

        def get(url: str = url) -> None:
            assert client.get(url).status_code == 200, url

        out[f"{name} (cold)"] = best(get)
        get()
        with CaptureQueriesContext(connection) as q:
            start = time.perf_counter()
            get()
            out[f"{name} (cached)"] = (time.perf_counter() - start, len(q))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, nargs="+", default=[100, 1000, 5000])
    ap.add_argument("--rounds", type=int, nargs="+", default=[11])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(str(Path(tmp) / "bench.sqlite3"))
        from django.conf import settings

        settings.ALLOWED_HOSTS = ["*"]
        print(f"{'players':>7} {'rounds':>6} {'what':28} {'ms':>8} {'queries':>7}")
        for rounds in args.rounds:
            for n in args.players:
                t = event_get(n, rounds)
                for what, (secs, queries) in measure(t).items():
                    print(f"{n:>7} {rounds:>6} {what:28} {secs * 1000:>8.1f} {queries:>7}")


if __name__ == "__main__":
    main()
