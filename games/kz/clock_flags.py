"""The `kz clock` subcommand: adjudicate a record's clock flags (Art. 6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from games.kz.record_files import read_text
from rules.clock import adjudicate
from rules.errors import RecordError, RulesError
from rules.record import read_record


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("clock", help="adjudicate a record's clock flags (Art. 6)")
    p.add_argument("path", metavar="FILE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=handle_clock)


def handle_clock(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    try:
        record = read_record(read_text(Path(options["path"])))
    except RecordError as exc:
        if options.get("json"):
            stdout.write(json.dumps({"error": str(exc)}) + "\n")
        stderr.write(f"{exc}\n")
        return 2
    try:
        decision = adjudicate(record)
    except RulesError as exc:
        if options.get("json"):
            stdout.write(json.dumps({"error": str(exc)}) + "\n")
        stderr.write(f"{exc}\n")
        return 2
    if options.get("json"):
        stdout.write(json.dumps(decision.as_dict()) + "\n")
    elif decision.decision == "time":
        stdout.write(
            f"{decision.loser} loses on time (Art. {decision.article}): {decision.explanation}\n"
        )
    elif decision.decision == "continue":
        stdout.write(f"play continues without clocks (Art. {decision.article})\n")
    else:
        stdout.write("no decision: no flag fell before its requirement\n")
    return 0
