"""Speed of the ratings (issue 25 item 1): recomputing a pool of 100,000 players and
1,000,000 rated battles over 60 periods from its history (the pure package, as `kz ratings
recompute` runs it period by period; target 60 s), and closing one period of 10,000 battles
through the service on the database (target 2 s; `--close`, needs DATABASE_URL).

    python bench/ratings_speed_bench.py [--players 100000] [--battles 1000000] [--periods 60]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kz_bench \\
        python bench/ratings_speed_bench.py --close
"""

from __future__ import annotations

import argparse
import cProfile
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournaments.ratings.history import (  # noqa: E402
    RatedBattle,
    pool_recompute,
    standings_fingerprint,
)
from tournaments.ratings.pools import DEFAULT_SETTINGS  # noqa: E402


def history(
    seed: int, players: int, battles: int, periods: int
) -> list[tuple[str, list[RatedBattle]]]:
    """`battles` battles spread evenly over `periods` months among `players` players."""
    rng = random.Random(seed)
    per = battles // periods
    out = []
    number = 0
    for p in range(periods):
        rows = []
        for _ in range(per):
            white = rng.randrange(1, players + 1)
            black = rng.randrange(1, players)
            black += black >= white
            number += 1
            rows.append(RatedBattle(number, white, black, rng.choice((0.0, 0.5, 1.0))))
        out.append((f"{2021 + p // 12}-{p % 12 + 1:02d}", rows))
    return out


def recompute_bench(players: int, battles: int, periods: int) -> None:
    made = history(1, players, battles, periods)
    start, cpu = time.perf_counter(), time.process_time()
    last = None
    for result in pool_recompute(periods=made, settings=DEFAULT_SETTINGS):
        last = result
    took, took_cpu = time.perf_counter() - start, time.process_time() - cpu
    assert last is not None
    # CPU time beside the wall clock: on a shared machine the wall clock counts the others.
    print(
        f"recompute: {players:,} players, {sum(len(b) for _, b in made):,} battles, "
        f"{periods} periods (with each battle's changes): {took:.1f} s ({took_cpu:.1f} s CPU)"
    )
    again, cpu = time.perf_counter(), time.process_time()
    second = None
    for result in pool_recompute(periods=made, settings=DEFAULT_SETTINGS, with_changes=False):
        second = result
    assert second is not None
    print(
        f"  without the per-battle changes: {time.perf_counter() - again:.1f} s "
        f"({time.process_time() - cpu:.1f} s CPU)"
    )
    same = standings_fingerprint(last.standings) == standings_fingerprint(second.standings)
    print(f"  the same history twice, the same ratings to the last bit: {same}")


def close_bench(battles: int, profile: str = "") -> None:
    """One period of `battles` battles stored as games, closed by the service (its profile
    written to `profile` when given: python -m pstats FILE)."""
    import datetime as dt  # noqa: PLC0415 (Django only for this part)

    import django  # noqa: PLC0415

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klinzha_site.settings.local")
    django.setup()
    from celery import current_app  # noqa: PLC0415
    from django.core.management import call_command  # noqa: PLC0415
    from django.utils import timezone  # noqa: PLC0415

    from tournaments.models import (  # noqa: PLC0415
        BattleRating,
        Game,
        PeriodRating,
        Player,
        PoolRating,
        RatedEventVersion,
        RatingPeriod,
        Registration,
        Round,
        Tournament,
    )
    from tournaments.services.ratings import rating_period_close  # noqa: PLC0415

    call_command("migrate", verbosity=0)
    for model in (BattleRating, PeriodRating, PoolRating, RatedEventVersion):
        model.objects.all().delete()
    RatingPeriod.objects.all().delete()
    Tournament.objects.filter(slug="ratings-bench").delete()
    rng = random.Random(2)
    per_round = 1000
    rounds = battles // per_round
    t = Tournament.objects.create(
        name="Ratings bench", slug="ratings-bench", start_date=dt.date(2025, 3, 1),
        rounds_planned=rounds,
    )  # fmt: skip
    people = Player.objects.bulk_create(
        [Player(name=f"Bench {i:05d}") for i in range(2 * per_round)]
    )
    Registration.objects.bulk_create(
        [Registration(tournament=t, player=p, start_rank=i + 1) for i, p in enumerate(people)]
    )
    now = timezone.now()
    results = ("first_win", "second_win", "draw")
    for n in range(1, rounds + 1):
        rnd = Round.objects.create(
            tournament=t, number=n, starts_at=dt.datetime(2025, 3, 1 + n % 28, tzinfo=dt.UTC)
        )
        order = rng.sample(people, len(people))
        Game.objects.bulk_create(
            [
                Game(
                    round=rnd,
                    board=b + 1,
                    first=order[2 * b],
                    second=order[2 * b + 1],
                    result=rng.choice(results),
                    result_entered_at=now,
                    result_confirmed_at=now,
                )  # fmt: skip
                for b in range(per_round)
            ]
        )
    # A web or worker process has loaded Celery's task modules (and Django's checks, which
    # their loading runs) by its first task: a one-off of about 2 s, not the close's.
    current_app.loader.import_default_modules()
    profiler = cProfile.Profile() if profile else None
    start, cpu = time.perf_counter(), time.process_time()
    if profiler is not None:
        profiler.enable()
    closed = rating_period_close(pool="laws", label="2025-03", user=None)
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)
    took, took_cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"close: {BattleRating.objects.count():,} battles, {PeriodRating.objects.count():,} "
        f"players in {closed[-1].label}: {took:.2f} s ({took_cpu:.2f} s CPU in this process)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--battles", type=int, default=1_000_000)
    parser.add_argument("--periods", type=int, default=60)
    parser.add_argument("--close", action="store_true", help="the close on the database")
    parser.add_argument("--close-battles", type=int, default=10_000)
    parser.add_argument("--profile", default="", help="the close's cProfile stats to FILE")
    options = parser.parse_args()
    if options.close:
        close_bench(options.close_battles, options.profile)
    else:
        recompute_bench(options.players, options.battles, options.periods)


if __name__ == "__main__":
    main()
