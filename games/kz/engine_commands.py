"""The rules engine's `kz` subcommands: validate, perft (and show, clock from their modules)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO, Any

from tqdm import tqdm

from games.kz import clock_flags, offline_signing, position_show
from games.kz.record_files import iter_record_paths, read_text
from rules.errors import RecordError
from rules.position import Position
from rules.posstring import parse_position, position_to_string
from rules.record import read_record
from rules.validate import validate_record, verdict_for_unreadable


def register(subparsers: Any) -> None:
    """Add the rules engine's subcommands to the `kz` dispatcher."""
    p = subparsers.add_parser("validate", help="validate game records (files or folders)")
    p.add_argument("paths", nargs="+", metavar="FILE", help="record files or folders of them")
    p.add_argument("--json", action="store_true", help="one JSON object per record")
    p.set_defaults(handler=handle_validate)

    p = subparsers.add_parser("perft", help="count move sequences from a record's final position")
    p.add_argument(
        "path", metavar="FILE", help="a record file, or a position string with --position"
    )
    p.add_argument("--depth", type=int, required=True)
    p.add_argument("--position", action="store_true", help="FILE is a position string")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=handle_perft)

    for module in (position_show, clock_flags, offline_signing):
        module.register(subparsers)


def validate_path(path: Path) -> tuple[dict[str, Any], int]:
    """(JSON object, exit status) for one record file."""
    try:
        record = read_record(read_text(path))
    except RecordError as exc:
        return verdict_for_unreadable(str(exc)), 2
    verdict = validate_record(record)
    return verdict.as_dict(), 0 if verdict.valid else 1


def _progress(total: int, stream: IO[str]) -> Any:
    if not (hasattr(stream, "isatty") and stream.isatty()) or total < 2:
        return None
    return tqdm(total=total, file=stream, unit="record", leave=False)


def handle_validate(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    paths = list(iter_record_paths(options["paths"]))
    many = len(options["paths"]) > 1 or any(Path(p).is_dir() for p in options["paths"])
    bar = _progress(len(paths), stderr)
    worst = 0
    try:
        for path in paths:
            obj, status = validate_path(path)
            worst = max(worst, status)
            if options.get("json"):
                if many:
                    obj = {"file": str(path), **obj}
                stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
            else:
                stdout.write(_describe(path, obj) + "\n")
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    if not paths:
        stderr.write("no record files found\n")
        return 2
    return worst


def _describe(path: Path, obj: dict[str, Any]) -> str:
    lines = []
    if obj["valid"]:
        head = f"{path}: valid, {obj['plies']} plies"
        if obj["termination"]:
            head += f"; {obj['termination']}, {obj['winner']} wins"
        lines.append(head)
    else:
        err = obj["error"]
        where = f"ply {err['ply']} ({err['text']})" if err["ply"] else "record"
        art = f" [Art. {err['article']}]" if err.get("article") else ""
        lines.append(f"{path}: INVALID at {where}: {err['reason']}{art}")
    for w in obj["warnings"]:
        where = f"ply {w['ply']}" if w["ply"] else "record"
        art = f" [Art. {w['article']}]" if w.get("article") else ""
        lines.append(f"  warning, {where}: {w['reason']}{art}")
    return "\n".join(lines)


def handle_perft(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    depth = options["depth"]
    if depth < 0:
        stderr.write("--depth must be 0 or more\n")
        return 2
    pos: Position | None
    try:
        if options.get("position"):
            pos = parse_position(options["path"])
        else:
            verdict = validate_record(read_record(read_text(Path(options["path"]))))
            if not verdict.valid:
                err = verdict.error
                assert err is not None
                stderr.write(f"the record is not valid (ply {err.ply}: {err.reason})\n")
                return 1
            pos = verdict.position
    except RecordError as exc:
        stderr.write(f"{exc}\n")
        return 2
    assert pos is not None
    nodes = pos.perft(depth)
    if options.get("json"):
        stdout.write(json.dumps({"depth": depth, "nodes": nodes}) + "\n")
    else:
        stdout.write(f"perft {depth}: {nodes} nodes from {position_to_string(pos)}\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the subcommands without Django (for tests and benchmarks)."""
    parser = argparse.ArgumentParser(prog="kz")
    register(parser.add_subparsers(dest="command", required=True))
    ns = parser.parse_args(argv)
    return int(ns.handler(vars(ns), sys.stdout, sys.stderr))


if __name__ == "__main__":
    raise SystemExit(main())
