"""The series' `kz` subcommands: a series' standings."""

from __future__ import annotations

import json
from typing import IO, Any

from tournaments.models import Series
from tournaments.series_selectors import series_json, series_table


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("series", help="series of events: standings")
    sub = p.add_subparsers(dest="series_action", required=True)
    standings = sub.add_parser("standings", help="a series' standings")
    standings.add_argument("slug")
    standings.add_argument("--json", action="store_true")
    standings.set_defaults(handler=handle_standings)


def handle_standings(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    series = Series.objects.filter(slug=options["slug"]).first()
    if series is None:
        stderr.write(f"no series {options['slug']!r}\n")
        return 1
    table = series_table(series=series)
    if options["json"]:
        stdout.write(json.dumps(series_json(table=table), ensure_ascii=False, indent=2) + "\n")
        return 0
    for line in table.lines:
        row = line.row
        mark = " PO" if row.playoff else ""
        stdout.write(
            f"{row.rank:>4}{mark:<3} {line.name:<30} {line.club:<20} "
            f"{row.total:>8g} {row.played:>3}\n"
        )
    for name, lines in table.categories:
        stdout.write(f"\n{name}\n")
        for line in lines:
            stdout.write(f"{line.row.rank:>4} {line.name:<30} {line.row.total:>8g}\n")
    return 0
