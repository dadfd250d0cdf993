"""Published pages while a round runs: readers on the standings, the round's pairings, the
crosstable and a player page while an arbiter enters a result every half second, against the
same bytes served as static files (docs/performance.md, "While a round is running").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klinzha_cache \\
    REDIS_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/live_round_bench.py [--workers 2 4] [--readers 8] [--seconds 60]

The 1,000-player, 11-round event of bench/page_bench.py (built once per database), its last
round made pending again before each run (as when it starts). For each gunicorn size (sync
workers, production settings, PostgreSQL, Redis), four phases: the static copies
(--static-seconds), the pages with nobody writing (--steady-seconds), the pages while the
arbiter enters a result every --every seconds through the API (--seconds), the static
copies again. Each reader is a process reading the four pages in turn with a new connection
a request (gunicorn's sync workers close it), `Accept-Encoding: identity`, 127.0.0.1 only.

Reported: requests/s, p50 and p99 of each phase and the ratio to static; how many of the
arbiter's results went in (and their p50 and p99); renders per page, language and version
(every render is logged by the server: KZ_BENCH_RENDER_LOG); answers served stale, and how
far behind the newest committed version the tournament's pages were (versions, seconds).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.page_bench import (  # noqa: E402  (the path above first)
    SECRETS,
    SETTINGS,
    database_ensure,
    event_ensure,
    fetch,
    server_start,
)

RENDERED = re.compile(r"^([\d.]+) (\d+) rendered (\S+) in ([\d.]+) ms$")
TOURNAMENT_VERSION = re.compile(r"^t\d+:v(\d+)$")


def live_round_prepare(t: object) -> tuple[list[int], str, int, list[tuple[str, str]]]:
    """The last round's games pending again and the version bumped (the round starts), an
    arbiter of the event with an API token; (the games' ids, the token, the tournament's id,
    the pages read)."""
    from django.contrib.auth import get_user_model
    from django.db.models import F
    from rest_framework.authtoken.models import Token

    from tournaments.models import Game, Tournament

    last = t.rounds.order_by("-number").first()  # type: ignore[attr-defined]
    games = Game.objects.filter(round=last, kind=Game.Kind.GAME).order_by("board")
    games.update(
        result="",
        result_entered_by=None,
        result_entered_at=None,
        result_confirmed_by=None,
        result_confirmed_at=None,
    )
    Tournament.objects.filter(pk=t.pk).update(  # type: ignore[attr-defined]
        published_version=F("published_version") + 1
    )
    arbiter, _ = get_user_model().objects.get_or_create(username="live-round-arbiter")
    t.arbiters.add(arbiter)  # type: ignore[attr-defined]
    token, _ = Token.objects.get_or_create(user=arbiter)
    slug = t.slug  # type: ignore[attr-defined]
    player = games[0].first_id
    pages = [
        ("standings", f"/t/{slug}/standings/"),
        (f"round {last.number} pairings", f"/t/{slug}/round/{last.number}/"),
        ("crosstable", f"/t/{slug}/crosstable/"),
        ("player page", f"/p/{player}/"),
    ]
    return [g.pk for g in games], token.key, t.pk, pages  # type: ignore[attr-defined]


Sample = tuple[float, float, int, int, str, str]  # start, seconds, page, status, version, stale


def _reader(args: tuple[int, list[str], int, float]) -> list[Sample]:
    """One reader: the pages in turn (starting at `offset`) until `end`."""
    port, paths, offset, end = args
    samples: list[Sample] = []
    i = offset
    while time.time() < end:
        page = i % len(paths)
        start = time.time()
        clock = time.perf_counter()
        status, _, headers = fetch(port, paths[page], "identity")
        seconds = time.perf_counter() - clock
        samples.append(
            (
                start,
                seconds,
                page,
                status,
                headers.get("x-kz-version", ""),
                headers.get("x-kz-stale", ""),
            )
        )
        i += 1
    return samples


def _write(port: int, game_id: int, token: str) -> tuple[int, float]:
    body = json.dumps({"result": "first_win"})
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    clock = time.perf_counter()
    conn.request(
        "POST",
        f"/api/games/{game_id}/result/",
        body=body,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status, time.perf_counter() - clock


def writer_run(
    *, port: int, games: list[int], token: str, tournament_id: int, every: float, end: float
) -> list[tuple[float, int, int, float]]:
    """The arbiter: a result every `every` seconds until `end`; (when it was committed, the
    tournament's version then, the status, the seconds it took) each."""
    import psycopg

    done = []
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as db:
        next_at = time.time()
        for game_id in games:
            if next_at >= end:
                break
            time.sleep(max(0.0, next_at - time.time()))
            status, seconds = _write(port, game_id, token)
            row = db.execute(
                "SELECT published_version FROM tournaments_tournament WHERE id = %s",
                (tournament_id,),
            ).fetchone()
            done.append((time.time(), int(row[0]) if row else 0, status, seconds))
            next_at += every
    return done


def readers_run(
    pool: object, *, port: int, paths: list[str], readers: int, seconds: float
) -> tuple[list[Sample], float]:
    end = time.time() + seconds
    start = time.time()
    runs = pool.map(  # type: ignore[attr-defined]
        _reader, [(port, paths, i, end) for i in range(readers)]
    )
    return [s for run in runs for s in run], time.time() - start


def summary(samples: list[Sample], elapsed: float) -> tuple[float, float, float]:
    """(requests/s, p50 ms, p99 ms) of the 200s; a failure stops the bench."""
    bad = [s for s in samples if s[3] != 200]
    if bad:
        raise SystemExit(f"{len(bad)} answers were not 200: {bad[:3]}")
    lat = sorted(s[1] for s in samples)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    return len(lat) / elapsed, statistics.median(lat) * 1000, p99 * 1000


def renders_read(log: Path, start: float, end: float) -> tuple[int, int, list[float]]:
    """(renders, distinct page-language-versions rendered, render times in ms) logged
    between `start` and `end`."""
    keys: Counter[str] = Counter()
    times = []
    for line in log.read_text(encoding="utf-8").splitlines():
        found = RENDERED.match(line)
        if found and start <= float(found.group(1)) <= end:
            keys[found.group(3)] += 1
            times.append(float(found.group(4)))
    return sum(keys.values()), len(keys), times


def staleness(
    samples: list[Sample], writes: list[tuple[float, int, int, float]]
) -> tuple[int, int, float]:
    """(answers marked stale, most versions behind, most seconds behind) of the tournament's
    pages: how far the version an answer showed was from the newest committed when the
    request began, and how long before that the version shown had been superseded."""
    commits = sorted((at, version) for at, version, status, _ in writes if status == 200)
    most_versions, most_seconds, stale = 0, 0.0, 0
    for start, _, _, _, version, behind in samples:
        stale += bool(behind)
        shown = TOURNAMENT_VERSION.match(version)
        if shown is None:
            continue
        number = int(shown.group(1))
        newer = [(at, v) for at, v in commits if at <= start and v > number]
        if newer:
            most_versions = max(most_versions, max(v for _, v in newer) - number)
            most_seconds = max(most_seconds, start - min(at for at, _ in newer))
    return stale, most_versions, most_seconds


def celery_start() -> subprocess.Popen[bytes]:
    """One Celery worker process (as the Procfile's pages line): it renders the pages ahead."""
    env = {**os.environ, **SECRETS, "DJANGO_SETTINGS_MODULE": SETTINGS}
    argv = [
        str(ROOT / ".venv" / "bin" / "celery"),
        "-A",
        "klinzha_site",
        "worker",
        "-Q",
        "celery,pages",
        "--concurrency",
        "1",
        "--loglevel",
        "WARNING",
        "--without-gossip",
        "--without-mingle",
    ]
    proc = subprocess.Popen(
        argv,
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(3)  # its first task waits for it anyway; the phases start warm
    return proc


def run_size(
    *, args: argparse.Namespace, workers: int, static_root: str, copies: list[tuple[str, str]]
) -> None:
    """The four phases on gunicorn with `workers` sync workers (and a Celery worker unless
    --no-worker)."""
    from tournaments.models import Tournament

    t = Tournament.objects.get(slug=f"bench-{args.players}")
    games, token, tournament_id, _ = live_round_prepare(t)
    log = Path(static_root).parent / f"renders-{workers}.log"
    os.environ["KZ_BENCH_RENDER_LOG"] = str(log)
    os.environ["KZ_PAGE_PRERENDER"] = "0" if args.no_worker else "1"
    server = server_start(args.port, static_root, workers=workers)
    worker = None if args.no_worker else celery_start()
    try:
        pages, statics = [p for p, _ in copies], [s for _, s in copies]
        for _ in range(2 * workers):
            for path in pages + statics:
                fetch(args.port, path, "identity")
        load = [os.getloadavg()[0]]
        with multiprocessing.get_context("fork").Pool(args.readers) as pool:
            run = {"port": args.port, "readers": args.readers}
            static1, t1 = readers_run(pool, paths=statics, seconds=args.static_seconds, **run)
            steady, t2 = readers_run(pool, paths=pages, seconds=args.steady_seconds, **run)
            load.append(os.getloadavg()[0])
            live_start = time.time()
            reading = pool.map_async(
                _reader,
                [(args.port, pages, i, live_start + args.seconds) for i in range(args.readers)],
            )
            writes = writer_run(
                port=args.port,
                games=games,
                token=token,
                tournament_id=tournament_id,
                every=args.every,
                end=live_start + args.seconds,
            )
            live = [s for run_ in reading.get() for s in run_]
            t3 = time.time() - live_start
            load.append(os.getloadavg()[0])
            static2, t4 = readers_run(pool, paths=statics, seconds=args.static_seconds, **run)
            load.append(os.getloadavg()[0])
        _report(
            args=args,
            workers=workers,
            phases=[(static1, t1), (steady, t2), (live, t3), (static2, t4)],
            writes=writes,
            renders=renders_read(log, live_start, live_start + t3 + 5),
            load=load,
            copies=copies,
        )
    finally:
        for proc in (server, worker):
            if proc is not None:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait()


def _report(
    *,
    args: argparse.Namespace,
    workers: int,
    phases: list[tuple[list[Sample], float]],
    writes: list[tuple[float, int, int, float]],
    renders: tuple[int, int, list[float]],
    load: list[float],
    copies: list[tuple[str, str]],
) -> None:
    (static1, t1), (steady, t2), (live, t3), (static2, t4) = phases
    s1, s2 = summary(static1, t1), summary(static2, t4)
    static_rps = (s1[0] + s2[0]) / 2
    print(
        f"\ngunicorn {workers} sync workers, "
        f"{'no Celery worker' if args.no_worker else 'a Celery worker rendering ahead'}, "
        f"{args.readers} readers; load average " + " / ".join(f"{x:.1f}" for x in load)
    )
    print(f"{'phase':34} {'req/s':>7} {'p50':>7} {'p99':>7} {'ratio':>6}")
    for name, (samples, elapsed) in (
        ("static copies (before)", (static1, t1)),
        ("pages, nobody writing", (steady, t2)),
        (f"pages, a result every {args.every:g} s", (live, t3)),
        ("static copies (after)", (static2, t4)),
    ):
        rps, p50, p99 = summary(samples, elapsed)
        print(f"{name:34} {rps:>7.0f} {p50:>5.1f}ms {p99:>5.1f}ms {rps / static_rps:>5.2f}x")
    ok = [w for w in writes if w[2] == 200]
    planned = int(args.seconds / args.every)
    lat = sorted(w[3] * 1000 for w in writes) or [0.0]
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    print(
        f"results entered: {len(ok)} of {planned} planned ({len(writes)} sent), "
        f"p50 {statistics.median(lat):.0f} ms, p99 {p99:.0f} ms"
    )
    count, distinct, times = renders
    times = sorted(times) or [0.0]
    print(
        f"renders: {count} of {distinct} page-language-versions = "
        f"{count / max(distinct, 1):.2f} per version; "
        f"render p50 {statistics.median(times):.0f} ms, max {times[-1]:.0f} ms"
    )
    for page, (path, _) in enumerate(copies):
        mine = sorted(x[1] * 1000 for x in live if x[2] == page) or [0.0]
        print(
            f"  {path:34} {len(mine):>6} answers, p50 {statistics.median(mine):5.1f} ms, "
            f"p99 {mine[min(len(mine) - 1, int(len(mine) * 0.99))]:6.1f} ms"
        )
    stale, versions, seconds = staleness(live, writes)
    print(
        f"answers served stale: {stale} of {len(live)}; tournament pages at most {versions} "
        f"version(s), {seconds:.2f} s behind the newest committed"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--port", type=int, default=8111)
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--workers", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--readers", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=60.0, help="the live phase")
    ap.add_argument("--static-seconds", type=float, default=10.0)
    ap.add_argument("--steady-seconds", type=float, default=10.0)
    ap.add_argument("--every", type=float, default=0.5, help="seconds between two results")
    ap.add_argument(
        "--no-worker", action="store_true", help="no Celery worker: readers render every page"
    )
    args = ap.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        raise SystemExit("set DATABASE_URL (PostgreSQL) and REDIS_URL: see the docstring")
    database_ensure(url)
    os.environ.update(SECRETS)
    os.environ["DJANGO_SETTINGS_MODULE"] = SETTINGS
    with tempfile.TemporaryDirectory(prefix="kz-live-round-") as tmp:
        static_root = Path(tmp) / "static"
        static_root.mkdir()
        os.environ["KZ_BENCH_STATIC_ROOT"] = str(static_root)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        t = event_ensure(args.players, args.rounds)
        _, _, _, pages = live_round_prepare(t)
        # The static copies are the pages' bytes as served; whitenoise indexes its folder
        # when it starts, so the servers measured start after they are written.
        first = server_start(args.port, str(static_root))
        copies = []
        try:
            for i, (name, path) in enumerate(pages):
                status, data, _ = fetch(args.port, path, "identity")
                if status != 200:
                    raise SystemExit(f"{name} {path}: HTTP {status}")
                (static_root / f"page-{i}.bin").write_bytes(data)
                copies.append((path, f"/page-{i}.bin"))
                print(f"{name:22} {path:32} {len(data) / 1024:>5.0f} KB")
        finally:
            os.killpg(first.pid, signal.SIGTERM)
            first.wait()
        for workers in args.workers:
            run_size(args=args, workers=workers, static_root=str(static_root), copies=copies)


if __name__ == "__main__":
    main()
