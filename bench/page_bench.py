"""Published pages against static files: the 1,000-player, 11-round event (built by
bench/tournament_bench.py's build_event), gunicorn with 2 sync workers on PostgreSQL and
Redis, and for each page (the tournament's page, standings, crosstable, round pairings, a
player page, the rounds API, the standings API, the crosstable CSV and JSON) requests/s, p50
and p99 at 1 and 4 clients, beside the same bytes served as a static file by the same server
(whitenoise) in the same run, interleaved in quarter-second slices, with the ratio (target:
at least 0.5x static).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klinzha_cache \\
    REDIS_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/page_bench.py [--port 8101] [--quick] [--gzip]

--quick measures 1 s per cell instead of 3 (about 40 s in all once the event exists);
--gzip asks for gzip (both sides: whitenoise serves the .gz copy written beside the file).
The event is built once per database and reused. Clients are separate processes, each a
blocking HTTP/1.1 client with a new connection per request (gunicorn's sync workers close
it), 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SETTINGS = "bench.page_bench_settings"
SECRETS = {
    "DJANGO_SECRET_KEY": "page-bench-secret-key-0123456789-not-for-production",
    "KZ_AUDIT_KEY": "page-bench-audit-key-0123456789-not-for-production",
    "DJANGO_SECURE_SSL_REDIRECT": "False",
}


def database_ensure(url: str) -> None:
    """Create the bench's PostgreSQL database when it is missing."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            return
        conn.execute(f'CREATE DATABASE "{name}"')


def event_ensure(players: int, rounds: int) -> object:
    from bench.tournament_bench import build_event
    from tournaments.models import Tournament

    t = Tournament.objects.filter(slug=f"bench-{players}").first()
    if t is not None and t.rounds.count() == rounds:
        return t
    if t is not None:
        raise SystemExit(f"bench-{players} exists with other rounds: use another database")
    print(f"building the {players}-player, {rounds}-round event ...", flush=True)
    return build_event(players, rounds)


def pages(t: object) -> list[tuple[str, str]]:
    from tournaments.models import Registration

    slug = t.slug  # type: ignore[attr-defined]
    player = Registration.objects.filter(tournament=t).order_by("start_rank")[0].player_id
    return [
        ("tournament page", f"/t/{slug}/"),
        ("standings", f"/t/{slug}/standings/"),
        ("crosstable", f"/t/{slug}/crosstable/"),
        ("round 6 pairings", f"/t/{slug}/round/6/"),
        ("player page", f"/p/{player}/"),
        ("rounds API", f"/api/tournaments/{slug}/rounds/"),
        ("standings API", f"/api/tournaments/{slug}/standings/"),
        ("crosstable CSV", f"/t/{slug}/crosstable.csv"),
        ("crosstable JSON", f"/t/{slug}/crosstable.json"),
    ]


def fetch(port: int, path: str, encoding: str) -> tuple[int, bytes, dict[str, str]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path, headers={"Accept-Encoding": encoding})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, data, {k.lower(): v for k, v in response.getheaders()}


def _client(args: tuple[int, str, str, float]) -> list[float]:
    port, path, encoding, seconds = args
    latencies = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        start = time.perf_counter()
        status, _, _ = fetch(port, path, encoding)
        if status != 200:
            raise RuntimeError(f"{path}: HTTP {status}")
        latencies.append(time.perf_counter() - start)
    return latencies


def _summary(latencies: list[float], elapsed: float) -> tuple[float, float, float]:
    lat = sorted(latencies)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    return len(lat) / elapsed, statistics.median(lat) * 1000, p99 * 1000


def load_pair(
    pool: object, port: int, paths: tuple[str, str], clients: int, seconds: float, enc: str
) -> list[tuple[float, float, float]]:
    """(requests/s, p50 ms, p99 ms) of `clients` clients reading each of `paths` for
    `seconds` in all, in slices of a quarter of a second taken in turn, so that the
    machine's other load falls on both alike."""
    slices = max(2, round(seconds / 0.25))
    latencies: list[list[float]] = [[], []]
    elapsed = [0.0, 0.0]
    for i in range(slices):
        for side in (i % 2, 1 - i % 2):
            start = time.perf_counter()
            runs = pool.map(  # type: ignore[attr-defined]
                _client, [(port, paths[side], enc, seconds / slices)] * clients
            )
            elapsed[side] += time.perf_counter() - start
            latencies[side].extend(x for run in runs for x in run)
    return [_summary(latencies[side], elapsed[side]) for side in (0, 1)]


def server_start(port: int, static_root: str, workers: int = 2) -> subprocess.Popen[bytes]:
    env = {**os.environ, **SECRETS, "DJANGO_SETTINGS_MODULE": SETTINGS}
    env["KZ_BENCH_STATIC_ROOT"] = static_root
    argv = [
        str(ROOT / ".venv" / "bin" / "gunicorn"),
        "klinzha_site.wsgi",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        "sync",
        "--timeout",
        "60",
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()  # noqa: S310
            return proc
        except urllib.error.HTTPError:
            return proc
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("gunicorn did not answer within 60 s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--port", type=int, default=8101)
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--quick", action="store_true", help="1 s per measurement instead of 3")
    ap.add_argument("--gzip", action="store_true", help="clients accept gzip (both sides)")
    args = ap.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        raise SystemExit("set DATABASE_URL (PostgreSQL) and REDIS_URL: see the docstring")
    database_ensure(url)
    os.environ.update(SECRETS)
    os.environ["DJANGO_SETTINGS_MODULE"] = SETTINGS
    with tempfile.TemporaryDirectory(prefix="kz-page-bench-") as static_root:
        os.environ["KZ_BENCH_STATIC_ROOT"] = static_root
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        t = event_ensure(args.players, args.rounds)
        targets = pages(t)
        seconds = 1.0 if args.quick else 3.0
        encoding = "gzip" if args.gzip else "identity"
        # A first server renders each page once (so the static copy is the very bytes the
        # site serves); whitenoise reads its folder when it starts, so a second one serves.
        first = server_start(args.port, static_root)
        try:
            copies = []
            for i, (name, path) in enumerate(targets):
                status, data, _ = fetch(args.port, path, "identity")
                if status != 200:
                    raise SystemExit(f"{name} {path}: HTTP {status}")
                static = f"/page-{i}.bin"
                (Path(static_root) / static[1:]).write_bytes(data)
                (Path(static_root) / (static[1:] + ".gz")).write_bytes(gzip.compress(data, 6))
                copies.append((name, path, static, len(data)))
        finally:
            os.killpg(first.pid, signal.SIGTERM)
            first.wait()
        server = server_start(args.port, static_root)
        try:
            for _, path, static, _ in copies:  # warm: both workers, both sides
                for _ in range(4):
                    fetch(args.port, path, encoding)
                    fetch(args.port, static, encoding)
            print(
                f"gunicorn, 2 sync workers, 127.0.0.1:{args.port}; {args.players} players, "
                f"{args.rounds} rounds; Accept-Encoding: {encoding}; {seconds:.0f} s a cell\n"
            )
            head = (
                f"{'page':17} {'KB':>5} {'c':>2} {'page req/s':>10} {'p50':>6} {'p99':>6}"
                f" {'static req/s':>12} {'p50':>6} {'p99':>6} {'ratio':>6}"
            )
            print(head)
            print("-" * len(head))
            ratios = []
            with multiprocessing.get_context("fork").Pool(4) as pool:
                for name, path, static, size in copies:
                    for clients in (1, 4):
                        page, flat = load_pair(
                            pool, args.port, (path, static), clients, seconds, encoding
                        )
                        ratio = page[0] / flat[0]
                        ratios.append(ratio)
                        print(
                            f"{name:17} {size / 1024:>5.0f} {clients:>2} {page[0]:>10.0f} "
                            f"{page[1]:>5.1f}ms {page[2]:>4.0f}ms {flat[0]:>12.0f} "
                            f"{flat[1]:>5.1f}ms {flat[2]:>4.0f}ms {ratio:>5.2f}x",
                            flush=True,
                        )
            print(f"\nlowest ratio {min(ratios):.2f}x static (target >= 0.5x)")
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait()


if __name__ == "__main__":
    main()
