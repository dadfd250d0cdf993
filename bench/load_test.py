"""The bounded local load test (issue 16 item 6): locust's visitors read the published pages of
the 1,000-player, 11-round event from gunicorn (2 sync workers, PostgreSQL, Redis), then the
same bytes as static files from the same server, and the table compares them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klinzha_bench \\
    REDIS_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/load_test.py [--users 4] [--seconds 25] [--port 8109]

Two phases of --seconds each (50 s in all by default, never more than 60: the option is
capped), 127.0.0.1 only. Each visitor reads a page chosen at random, with no pause between
requests, accepting gzip as browsers do. The event is built once per database (as
bench/page_bench.py does, whose server and event it reuses); the first run takes a few
minutes longer for it.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.page_bench import (  # noqa: E402  (the path above first)
    SECRETS,
    SETTINGS,
    database_ensure,
    event_ensure,
    fetch,
    pages,
    server_start,
)

LIMIT = 60  # seconds of load in all: the bound


def locust_run(*, port: int, paths: Path, mode: str, users: int, seconds: int, out: Path) -> Path:
    """One headless locust phase; the path of its stats CSV."""
    prefix = out / mode
    env = {**os.environ, "KZ_LOAD_PATHS": str(paths), "KZ_LOAD_MODE": mode}
    argv = [
        str(ROOT / ".venv" / "bin" / "locust"),
        "-f",
        str(ROOT / "bench" / "locustfile.py"),
        "--headless",
        "--users",
        str(users),
        "--spawn-rate",
        str(users),
        "--run-time",
        f"{seconds}s",
        "--host",
        f"http://127.0.0.1:{port}",
        "--csv",
        str(prefix),
        "--only-summary",
        "--loglevel",
        "WARNING",
        "--stop-timeout",
        "5",
    ]
    done = subprocess.run(argv, cwd=ROOT, env=env, check=False, capture_output=True, text=True)
    stats = Path(f"{prefix}_stats.csv")
    if not stats.exists():
        raise SystemExit(f"locust wrote no statistics:\n{done.stdout}\n{done.stderr}")
    return stats


def figure(text: str) -> float:
    """A locust CSV figure; a page no visitor happened to read in a short phase has "N/A"."""
    try:
        return float(text)
    except ValueError:
        return float("nan")


def stats_read(path: Path) -> dict[str, dict[str, float]]:
    """Name → requests/s, p50 and p99 (ms) and failures, with "Aggregated" for the whole mix."""
    rows = {}
    with path.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if not figure(row["Request Count"]):
                continue
            rows[row["Name"].removeprefix("static: ")] = {
                "rps": figure(row["Requests/s"]),
                "p50": figure(row["50%"]),
                "p99": figure(row["99%"]),
                "failures": figure(row["Failure Count"]),
                "count": figure(row["Request Count"]),
            }
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--port", type=int, default=8109)
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--users", type=int, default=4)
    ap.add_argument("--seconds", type=int, default=25, help="each phase (capped: 60 s in all)")
    args = ap.parse_args()
    seconds = max(1, min(args.seconds, LIMIT // 2))
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        raise SystemExit("set DATABASE_URL (PostgreSQL) and REDIS_URL: see the docstring")
    database_ensure(url)
    os.environ.update(SECRETS)
    os.environ["DJANGO_SETTINGS_MODULE"] = SETTINGS
    with tempfile.TemporaryDirectory(prefix="kz-load-test-") as tmp:
        static_root = Path(tmp) / "static"
        static_root.mkdir()
        os.environ["KZ_BENCH_STATIC_ROOT"] = str(static_root)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        targets = pages(event_ensure(args.players, args.rounds))
        # The static copies are the very bytes the site serves; whitenoise indexes its folder
        # when it starts, so the server that is measured starts after they are written.
        first = server_start(args.port, str(static_root))
        sizes, listing = {}, {"pages": {}, "static": {}}
        try:
            for i, (name, path) in enumerate(targets):
                status, data, _ = fetch(args.port, path, "identity")
                if status != 200:
                    raise SystemExit(f"{name} {path}: HTTP {status}")
                (static_root / f"page-{i}.bin").write_bytes(data)
                (static_root / f"page-{i}.bin.gz").write_bytes(gzip.compress(data, 6))
                listing["pages"][name] = path
                listing["static"][name] = f"/page-{i}.bin"
                sizes[name] = len(data)
        finally:
            os.killpg(first.pid, signal.SIGTERM)
            first.wait()
        paths = Path(tmp) / "paths.json"
        paths.write_text(json.dumps(listing), encoding="utf-8")
        server = server_start(args.port, str(static_root))
        try:
            for name, path in listing["pages"].items():  # warm both workers, both sides
                for _ in range(4):
                    fetch(args.port, path, "gzip")
                    fetch(args.port, listing["static"][name], "gzip")
            run = {
                mode: stats_read(
                    locust_run(
                        port=args.port,
                        paths=paths,
                        mode=mode,
                        users=args.users,
                        seconds=seconds,
                        out=Path(tmp),
                    )
                )
                for mode in ("pages", "static")
            }
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait()
    page, flat = run["pages"], run["static"]
    print(
        f"locust, {args.users} users, {seconds} s a phase; gunicorn 2 sync workers on "
        f"127.0.0.1:{args.port}; {args.players} players, {args.rounds} rounds; gzip accepted\n"
    )
    head = (
        f"| {'page':17} | {'KB':>5} | {'page p50 ms':>11} | {'p99 ms':>6} | {'static p50 ms':>13} "
        f"| {'p99 ms':>6} |"
    )
    print(head)
    print("|" + "|".join("-" * (len(c)) for c in head.split("|")[1:-1]) + "|")
    for name in listing["pages"]:
        p, s = page.get(name), flat.get(name)
        if p is None or s is None:
            continue
        print(
            f"| {name:17} | {sizes[name] / 1024:>5.0f} | {p['p50']:>11.0f} | {p['p99']:>6.0f} "
            f"| {s['p50']:>13.0f} | {s['p99']:>6.0f} |"
        )
    if "Aggregated" not in page or "Aggregated" not in flat:
        raise SystemExit("a phase read no page at all: the server did not answer in time")
    total_p, total_s = page["Aggregated"], flat["Aggregated"]
    failures = int(total_p["failures"] + total_s["failures"])
    print(
        f"\nthe mix: pages {total_p['rps']:.0f} req/s, static files {total_s['rps']:.0f} req/s: "
        f"{total_p['rps'] / total_s['rps']:.2f}x static (target >= 0.5x); {failures} failures"
    )
    if failures:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
