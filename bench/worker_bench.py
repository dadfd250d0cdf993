"""Record validation throughput through real Celery workers (issue 5's benchmark).

Uploads N records of a past event at once (stored, then queued), and measures how long one
worker and then two workers take to validate them all: records per second and the scaling.
Needs DATABASE_URL (PostgreSQL) and REDIS_URL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klinzha_bench \
    REDIS_URL=redis://127.0.0.1:6379/5 python bench/worker_bench.py [--records 10000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--records", type=int, default=10_000)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument(
        "--batch", type=int, nargs="+", default=[1, 50], help="records per task (1: one each)"
    )
    args = ap.parse_args()
    if not (
        os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")
    ):
        sys.exit("set DATABASE_URL (PostgreSQL) and REDIS_URL")
    os.environ["DJANGO_SETTINGS_MODULE"] = "klinzha_site.settings.local"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from bench.records import write_folder
    from games.models import RecordSubmission
    from games.services import submission_enqueue_many

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        plies = write_folder(folder, args.records, seed=11)
        raws = [p.read_bytes() for p in sorted(folder.glob("*.kzr"))]
    print(f"{args.records} records, {plies} plies")
    print(f"{'batch':>5} {'workers':>7} {'seconds':>8} {'records/s':>10} {'plies/s':>9}")
    base = None
    runs = [(b, n) for b in args.batch for n in args.workers]
    for batch, n in runs:
        RecordSubmission.objects.filter(source="bulk", filename__startswith="bench-").delete()
        start = time.perf_counter()
        subs = RecordSubmission.objects.bulk_create(
            [
                RecordSubmission(raw=raw, source="bulk", filename=f"bench-{i}")
                for i, raw in enumerate(raws)
            ],
            batch_size=1000,
        )
        submission_enqueue_many(submission_ids=[s.pk for s in subs], batch=batch)
        stored = time.perf_counter() - start
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "klinzha_site",
                    "worker",
                    "-P",
                    "solo",
                    "-n",
                    f"bench{i}@%h",
                    "--without-gossip",
                    "--without-mingle",
                    "--loglevel",
                    "WARNING",
                ],
                cwd=ROOT,
                env={**os.environ, "DJANGO_SETTINGS_MODULE": "klinzha_site.settings.local"},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for i in range(n)
        ]
        t0 = time.perf_counter()
        ids = [s.pk for s in subs]
        while RecordSubmission.objects.filter(pk__in=ids).exclude(status="done").exists():
            time.sleep(0.5)
        elapsed = time.perf_counter() - t0
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(30)
        rate = args.records / elapsed
        base = base or rate
        print(
            f"{batch:>5} {n:>7} {elapsed:>8.1f} {rate:>10.0f} {plies / elapsed:>9.0f}   "
            f"(x{rate / base:.2f}; storing and queueing took {stored:.1f} s)"
        )


if __name__ == "__main__":
    main()
