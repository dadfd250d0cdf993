"""The ratings' `kz` subcommands: a pool's rating list, closing a period, recomputing, and
verifying published ratings against an exported history."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from django.core.exceptions import ValidationError

from tournaments.rating_page_selectors import (
    pool_fingerprint,
    pool_last_closed,
    pool_rating_list,
)
from tournaments.ratings.pools import POOLS
from tournaments.ratings.verify import RATING_HISTORY, HistoryError, history_verify
from tournaments.services.ratings import pool_ratings_recompute, rating_period_close


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("ratings", help="Glicko-2 ratings: list, close, recompute, verify")
    sub = p.add_subparsers(dest="ratings_action", required=True)
    lst = sub.add_parser("list", help="a pool's rating list")
    lst.add_argument("pool", choices=POOLS)
    lst.add_argument("--club", default="", help="only the players of this club (its name)")
    lst.add_argument("--federation", default="", help="only the players of this federation")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(handler=handle_list)
    close = sub.add_parser(
        "close", help="close a period (and the pool's open ones before it) by hand"
    )
    close.add_argument("pool", choices=POOLS)
    close.add_argument("period", help="2026-11 (a month), or 2026-W47 in a weekly pool")
    close.add_argument("--json", action="store_true")
    close.set_defaults(handler=handle_close)
    again = sub.add_parser(
        "recompute", help="rate every closed period again from the stored results"
    )
    again.add_argument("--pool", choices=POOLS, default=None, help="one pool (all by default)")
    again.add_argument("--json", action="store_true")
    again.set_defaults(handler=handle_recompute)
    check = sub.add_parser(
        "verify",
        help="rate a pool's exported history (kz bundle export --pool) again and say "
        "whether its published ratings follow from it",
    )
    check.add_argument("dir", metavar="DIR", help="the bundle's folder (or its history file)")
    check.add_argument("--json", action="store_true")
    check.set_defaults(handler=handle_verify)


def handle_list(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    pool = options["pool"]
    rows = pool_rating_list(pool=pool, club=options["club"], federation=options["federation"])
    if options["json"]:
        body = {
            "pool": pool,
            "last_period": pool_last_closed(pool=pool),
            "players": [r.as_json() for r in rows],
        }
        stdout.write(json.dumps(body, ensure_ascii=False, indent=2) + "\n")
        return 0
    for r in rows:
        stdout.write(
            f"{r.rank:>5} {r.name:<30} {r.club:<20} {r.federation:<3} "
            f"{r.text:>6} {r.deviation:6.1f} {r.games:>5} {r.last_period}\n"
        )
    return 0


def _refusal(exc: ValidationError) -> str:
    return "; ".join(f"{field}: {' '.join(m)}" for field, m in exc.message_dict.items())


def handle_close(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    try:
        closed = rating_period_close(pool=options["pool"], label=options["period"], user=None)
    except ValidationError as exc:
        if options["json"]:
            stdout.write(json.dumps({"error": exc.message_dict}) + "\n")
        else:
            stderr.write(_refusal(exc) + "\n")
        return 1
    labels = [p.label for p in closed]
    if options["json"]:
        stdout.write(json.dumps({"pool": options["pool"], "closed": labels}) + "\n")
    else:
        stdout.write(f"{options['pool']}: closed {', '.join(labels)}\n")
    return 0


def handle_recompute(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    pools = [options["pool"]] if options["pool"] else list(POOLS)
    found = {}
    for pool in pools:
        summary = pool_ratings_recompute(pool=pool)
        found[pool] = {
            "periods": len(summary.rerated),
            "closed": summary.closed,
            "fingerprint": pool_fingerprint(pool=pool),
        }
    if options["json"]:
        stdout.write(json.dumps({"pools": found}, indent=2) + "\n")
        return 0
    for pool, done in found.items():
        stdout.write(f"{pool}: {done['periods']} periods rated again, {done['fingerprint']}\n")
    return 0


def _history_read(folder: Path) -> dict[str, Any]:
    """The history in DIR (or the file given), HistoryError when it cannot be read."""
    path = folder / RATING_HISTORY if folder.is_dir() else folder
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise HistoryError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise HistoryError(f"{path}: not JSON ({exc})") from None
    if not isinstance(body, dict):
        raise HistoryError(f"{path}: not a pool's rating history")
    return body


def handle_verify(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    """0: the published ratings follow from the history; 1: they do not (each difference
    named); 2: the history cannot be read."""
    try:
        report = history_verify(_history_read(Path(options["dir"])))
    except HistoryError as exc:
        if options["json"]:
            stdout.write(json.dumps({"ok": False, "error": str(exc)}) + "\n")
        else:
            stderr.write(f"{exc}\n")
        return 2
    if options["json"]:
        stdout.write(json.dumps(report.as_json(), indent=2) + "\n")
        return 0 if report.ok else 1
    stdout.write(
        f"{report.pool}: {report.periods} periods, {report.battles} battles, "
        f"{report.players} players rated again\n"
    )
    for line in report.differences:
        stdout.write(f"  {line}\n")
    if report.ok:
        stdout.write("the published ratings follow from the results\n")
        return 0
    stdout.write(f"{len(report.differences)} differences: the published ratings do not follow\n")
    return 1
