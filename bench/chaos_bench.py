"""Chaos with the production timings (issue 14 items 3 and 6): the Procfile's web, worker and
beat on a private redis-server (a spare port), records posted and standings read all along;
Redis killed for --outage seconds and started again, --outages times; then a worker killed
with SIGKILL in the middle of a validation and started again 2 s later (as systemd's
RestartSec does). Prints how long requests took (all, and during outages), whether the
worker lived through the outages, and how long after each event the last record it left
waiting was validated, nobody polling a status URL (the sweep: beat every KZ_SWEEP_EVERY,
records waiting over KZ_REQUEUE_AFTER).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klinzha_bench \\
    REDIS_URL=redis://127.0.0.1:6379/5 python bench/chaos_bench.py [--outages 3 --outage 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--outages", type=int, default=3)
    ap.add_argument("--outage", type=float, default=10.0, help="seconds Redis stays down")
    ap.add_argument("--validation-delay", type=float, default=0.1)
    args = ap.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL (PostgreSQL)")
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/5")
    os.environ["DJANGO_SETTINGS_MODULE"] = "klinzha_site.settings.test"
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from games.models import RecordSubmission
    from tests.integration.test_chaos import Traffic
    from tests.workers import (
        free_port,
        http_wait,
        kill_hard,
        procfile_command,
        redis_server,
        service,
        web_server_argv,
    )
    from tournaments.demo import demo_load
    from tournaments.models import Game

    call_command("migrate", verbosity=0)
    tournament, login, _, _ = demo_load(rounds_played=2)
    token = Token.objects.get_or_create(user=get_user_model().objects.get(username=login))[0].key
    games = list(Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME))
    port = free_port(8390, 8399)
    base = f"http://127.0.0.1:{port}"
    outages: list[tuple[float, float]] = []
    recoveries: list[tuple[str, float]] = []
    alive_after: list[bool] = []

    def waiting_ids() -> set[int]:
        qs = RecordSubmission.objects.filter(game__in=games).exclude(status="done")
        return set(qs.values_list("pk", flat=True))

    def last_pk() -> int:
        return max(RecordSubmission.objects.values_list("pk", flat=True), default=0)

    def recovered(ids: set[int], since: float, what: str, limit: float = 180) -> None:
        while time.monotonic() - since < limit:
            if not RecordSubmission.objects.filter(pk__in=ids).exclude(status="done").exists():
                recoveries.append((what, time.monotonic() - since))
                return
            time.sleep(0.25)
        recoveries.append((what, float("inf")))

    env = {"KZ_VALIDATION_DELAY": str(args.validation_delay)}
    with redis_server() as redis:
        env["REDIS_URL"] = redis.url
        with (
            service("bench-web", web_server_argv(port), **env),
            service("bench-beat", procfile_command("beat"), **env),
            service("bench-worker1", procfile_command("worker"), **env) as worker,
        ):
            http_wait(base + "/")
            traffic = Traffic(base, tournament.slug, games, token)
            traffic.start()
            for n in range(args.outages):
                time.sleep(5)
                before = last_pk()
                down = time.monotonic()
                redis.stop()
                time.sleep(args.outage)
                redis.start()
                up = time.monotonic()
                outages.append((down, up))
                # what was waiting when Redis died (its queue lost with it) and what was
                # stored while it was down
                stranded_ids = waiting_ids() | set(
                    RecordSubmission.objects.filter(pk__gt=before, pk__lte=last_pk()).values_list(
                        "pk", flat=True
                    )
                )
                recovered(
                    stranded_ids,
                    up,
                    f"Redis outage {n + 1}: its {len(stranded_ids)} stranded records validated",
                )
                alive_after.append(worker.poll() is None)
            while not RecordSubmission.objects.filter(status="validating").exists():
                time.sleep(0.02)
            killed_at = time.monotonic()
            # the validations under way in it, cut short
            in_flight = set(
                RecordSubmission.objects.filter(status="validating").values_list("pk", flat=True)
            )
            kill_hard(worker)
            time.sleep(2)
            with service("bench-worker2", procfile_command("worker"), **env):
                recovered(in_flight, killed_at, "worker SIGKILL: its record validated")
                traffic.stop.set()
                traffic.join(60)
                recovered(waiting_ids(), time.monotonic(), "traffic over: the rest validated")
    accepted = set(traffic.accepted)
    stored = set(RecordSubmission.objects.filter(game__in=games).values_list("pk", flat=True))
    stranded = RecordSubmission.objects.filter(pk__in=accepted).exclude(status="done").count()
    all_times = [t for _, _, t in traffic.timings]
    in_outage = [t for start, _, t in traffic.timings if any(a <= start <= b for a, b in outages)]
    posts_in_outage = [
        t
        for start, what, t in traffic.timings
        if what.startswith("POST") and any(a <= start <= b for a, b in outages)
    ]
    print(f"requests: {traffic.requests}, failed: {len(traffic.failures)}")
    print(
        f"all requests: median {statistics.median(all_times) * 1000:.0f} ms, "
        f"p99 {percentile(all_times, 0.99) * 1000:.0f} ms, max {max(all_times) * 1000:.0f} ms"
    )
    if in_outage:
        print(
            f"during outages ({len(in_outage)} requests, {len(posts_in_outage)} records "
            f"posted): max {max(in_outage) * 1000:.0f} ms, record posts max "
            f"{max(posts_in_outage or [0]) * 1000:.0f} ms"
        )
    print(f"worker alive after each outage: {alive_after}")
    for what, seconds in recoveries:
        print(f"{what}: {seconds:.1f} s")
    print(
        f"records accepted {len(accepted)}, stored {len(stored)}, lost "
        f"{len(accepted - stored)}, stranded {stranded}"
    )


if __name__ == "__main__":
    main()
