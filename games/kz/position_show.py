"""The `kz show` subcommand: a record's position as a text diagram or an SVG picture."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from games.kz.record_files import read_text
from rules.diagram import render_text
from rules.engines import new_position
from rules.errors import RecordError
from rules.position import Move, Position
from rules.record import read_record
from rules.svg import render_svg
from rules.validate import rules_from_tags


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("show", help="show a record's position as text or SVG")
    p.add_argument("path", metavar="FILE")
    p.add_argument("--ply", type=int, default=None, help="the position after ply N (0: empty)")
    p.add_argument("--svg", metavar="OUT.svg", default=None, help="write an SVG picture")
    p.set_defaults(handler=handle_show)


def position_after(path: Path, ply: int | None) -> tuple[Position, Move | None, str | None]:
    """(position after `ply` plies — the last legal one by default —, last move, its text)."""
    record = read_record(read_text(path))
    rules, first = rules_from_tags(record.tags)
    pos = new_position(rules, first)
    last = None
    last_text = None
    target = len(record.plies) if ply is None else ply
    if target < 0 or target > len(record.plies):
        raise ValueError(f"--ply must be between 0 and {len(record.plies)}")
    for index, rp in enumerate(record.plies[:target], start=1):
        if rp.ply is None:
            if ply is None:
                break
            raise ValueError(f"ply {index} cannot be read: {rp.error}")
        move = rp.ply.to_move()
        try:
            pos.take_annotations(rp.comments)
            pos.check_move(move)
        except ValueError as exc:
            if ply is None:
                break
            raise ValueError(f"ply {index} is illegal: {exc}") from None
        pos.push(move)
        last = move
        last_text = rp.text
    return pos, last, last_text


def handle_show(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    path = Path(options["path"])
    try:
        pos, last, last_text = position_after(path, options.get("ply"))
    except RecordError as exc:
        stderr.write(f"{exc}\n")
        return 2
    except ValueError as exc:
        stderr.write(f"{exc}\n")
        return 1
    out = options.get("svg")
    if out:
        Path(out).write_text(render_svg(pos, last=last), encoding="utf-8")
        stdout.write(f"wrote {out}\n")
    else:
        stdout.write(render_text(pos, last=last, last_text=last_text))
    return 0
