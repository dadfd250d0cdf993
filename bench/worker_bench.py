"""Record validation throughput through real Celery workers (issue 16 item 3): one worker
process against two on one bulk upload, in one run, interleaved and repeated.

A demo event gets a bulk upload of N records of real length (2,000 by default, random legal
games tagged with its games' rounds and players, each matched to its game). The upload's
queued tasks are dropped; then, for each run, the records are set back to queued, N idle
workers are started and answer a ping, and the records are queued as the upload queues them
(games.services.submission_enqueue_many, in batches of VALIDATION_BATCH) and timed until
every one is done. Each run checks that every record was validated exactly once
(attempts == 1) and that every verdict equals the first run's. Runs alternate 1, 2, 1, 2...
so that the load from other processes on the machine falls on both alike; the ratio printed
is the median rate with two workers over the median with one, with each pair's ratio too.
Workers are `celery worker --pool prefork --concurrency 1` processes (N of them), or with
`--layout concurrency` one worker with `--concurrency N`. Needs DATABASE_URL (PostgreSQL)
and REDIS_URL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klinzha_bench \\
    REDIS_URL=redis://127.0.0.1:6379/5 python bench/worker_bench.py [--records 2000] \\
        [--repeat 3] [--batch 50] [--layout processes|concurrency]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def records_for(games: list[Any], count: int, seed: int) -> list[tuple[str, bytes]]:
    """`count` random legal games of real length, each tagged with one of `games`."""
    from bench.records import random_game
    from rules.record import write_record

    rng = random.Random(seed)
    files = []
    for i in range(count):
        g = games[i % len(games)]
        rec = random_game(rng)
        rec.tags.update(
            {"Round": str(g.round.number), "Green": g.first.name, "Gold": g.second.name}
        )
        rec.tags.pop("FirstPlacement", None)
        files.append((f"r{i:05}.kzr", write_record(rec).encode()))
    return files


def cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and its children (a prefork worker's pool), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            todo += [int(c) for c in Path(f"/proc/{p}/task/{p}/children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
    return total


def machine_busy() -> tuple[float, float]:
    """(busy, all) CPU seconds of the whole machine so far, every core, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    tick = os.sysconf("SC_CLK_TCK")
    return (sum(fields[:8]) - idle) / tick, sum(fields[:8]) / tick


def workers_start(n: int, layout: str) -> list[subprocess.Popen[bytes]]:
    from celery import current_app

    argv = [sys.executable, "-m", "celery", "-A", "klinzha_site", "worker", "-P", "prefork"]
    argv += ["--without-gossip", "--without-mingle", "--loglevel", "WARNING"]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "klinzha_site.settings.local",
        # The sweep each worker runs as it starts takes nothing of the run's records.
        "KZ_REQUEUE_AFTER": "3600",
    }
    names = [f"bench{i}" for i in range(n)] if layout == "processes" else ["bench0"]
    concurrency = "1" if layout == "processes" else str(n)
    procs = [
        subprocess.Popen(
            [*argv, "--concurrency", concurrency, "-n", f"{name}@%h"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for name in names
    ]
    deadline = time.monotonic() + 120
    while len(current_app.control.ping(timeout=0.5)) < len(procs):
        if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
            raise SystemExit("the bench workers did not come up")
    return procs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--records", type=int, default=2000)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--batch", type=int, default=0, help="records per task (default: the upload's)")
    ap.add_argument("--layout", choices=["processes", "concurrency"], default="processes")
    args = ap.parse_args()
    if not (
        os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")
    ):
        sys.exit("set DATABASE_URL (PostgreSQL) and REDIS_URL")
    os.environ["DJANGO_SETTINGS_MODULE"] = "klinzha_site.settings.local"
    import django

    django.setup()
    from celery import current_app
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import zipfile
    from io import BytesIO

    from games.models import RecordSubmission
    from games.services import VALIDATION_BATCH, bulk_upload, submission_enqueue_many
    from tournaments.demo import demo_load
    from tournaments.models import Game

    batch = args.batch or VALIDATION_BATCH
    tournament, _, _, _ = demo_load(rounds_played=2)
    games = list(
        Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME).select_related(
            "round", "first", "second"
        )
    )
    buf = BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, raw in records_for(games, args.records, seed=11):
            zf.writestr(name, raw)
    start = time.perf_counter()
    upload = bulk_upload(tournament=tournament, data=buf.getvalue(), filename="bench.zip")
    stored = time.perf_counter() - start
    current_app.control.purge()  # the upload's own tasks: each run queues the records itself
    ids = [s.pk for s in upload.submissions]
    assert upload.matched == len(ids) == args.records, (upload.matched, len(ids))
    # The upload's records, polled without a list of 2,000 ids (the demo event is reused, and
    # keeps earlier runs' uploads).
    subs = RecordSubmission.objects.filter(tournament=tournament, pk__range=(ids[0], ids[-1]))
    assert subs.count() == len(ids)
    plies = 0
    print(
        f"{args.records} records of {len(games)} games (2 rounds of the demo event), stored and "
        f"queued by bulk_upload in {stored:.1f} s; {batch} records per task; workers: "
        + (
            "N processes, prefork, concurrency 1 each"
            if args.layout == "processes"
            else "one process, prefork, concurrency N"
        )
    )
    print(
        f"{'run':>3} {'workers':>7} {'seconds':>8} {'records/s':>10} {'CPU s':>6} "
        f"{'cores used: workers':>19} {'others':>6} {'idle':>5}"
    )
    rates: dict[int, list[float]] = {n: [] for n in args.workers}
    first: dict[int, tuple[object, ...]] | None = None
    run = 0
    for _ in range(args.repeat):
        for n in args.workers:
            run += 1
            subs.update(status=RecordSubmission.Status.QUEUED, attempts=0, validated_at=None)
            Game.objects.filter(pk__in=[g.pk for g in games]).update(first_colour_recorded="")
            procs = workers_start(n, args.layout)
            cpu0 = sum(cpu_seconds(p.pid) for p in procs)
            busy0, all0 = machine_busy()
            t0 = time.perf_counter()
            submission_enqueue_many(submission_ids=ids, batch=batch)
            while subs.exclude(status=RecordSubmission.Status.DONE).exists():
                time.sleep(0.1)
            elapsed = time.perf_counter() - t0
            cpu = sum(cpu_seconds(p.pid) for p in procs) - cpu0
            busy1, all1 = machine_busy()
            # Of the machine's cores over the run, how many the bench's workers used and how
            # many everything else did (other processes, PostgreSQL, Redis, this poller).
            cores = (all1 - all0) / elapsed
            others = (busy1 - busy0 - cpu) / elapsed
            for p in procs:
                p.terminate()
            for p in procs:
                p.wait(60)
            attempts = set(subs.values_list("attempts", flat=True))
            assert attempts == {1}, f"a record was validated other than once: {attempts}"
            verdicts = {
                row[0]: row[1:]
                for row in subs.values_list(
                    "pk", "valid", "plies", "error", "termination", "winner", "clock"
                )
            }
            first = first or verdicts
            assert verdicts == first, "a verdict differs from the first run's"
            plies = sum(v[1] or 0 for v in verdicts.values())
            rate = args.records / elapsed
            rates[n].append(rate)
            idle = cores - cpu / elapsed - others
            print(
                f"{run:>3} {n:>7} {elapsed:>8.2f} {rate:>10.0f} {cpu:>6.1f} "
                f"{cpu / elapsed:>19.2f} {others:>6.2f} {idle:>5.2f}"
            )
    valid = subs.filter(valid=True).count()
    print(f"{plies} plies; {valid} of {args.records} records valid; each validated once")
    print(f"{os.cpu_count()} cores; 'CPU s' are the workers' own (their pool processes too)")
    base = statistics.median(rates[args.workers[0]])
    for n in args.workers[1:]:
        pairs = [b / a for a, b in zip(rates[args.workers[0]], rates[n], strict=True)]
        print(
            f"{n} workers / {args.workers[0]}: x{statistics.median(rates[n]) / base:.2f} "
            f"(median rates {statistics.median(rates[n]):.0f} / {base:.0f} records/s; "
            f"each pair: {', '.join(f'x{r:.2f}' for r in pairs)})"
        )


if __name__ == "__main__":
    main()
