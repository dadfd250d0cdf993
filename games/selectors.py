"""Reads of the games app: a game's latest record, positions of a record for the viewer."""

from __future__ import annotations

from games.models import Game, RecordSubmission
from rules.engines import new_position
from rules.errors import RulesError
from rules.position import Move, Position
from rules.record import read_record
from rules.validate import rules_from_tags


def submission_latest(*, game: Game) -> RecordSubmission | None:
    return game.submissions.order_by("-version", "-id").first()


def record_positions(*, submission: RecordSubmission) -> tuple[list[Position], list[str]]:
    """The legal positions of a record, from the empty board (index 0) to the last legal one,
    and the plies' texts as written (for the viewer's move list)."""
    try:
        record = read_record(bytes(submission.raw).decode("utf-8-sig"))
        rules, first = rules_from_tags(record.tags)
    except (UnicodeDecodeError, RulesError):
        return [Position()], []
    pos = new_position(rules, first)
    positions = [pos.copy()]
    texts = []
    for rp in record.plies:
        if rp.ply is None or pos.outcome is not None:
            break
        move = Move(rp.ply.origin, rp.ply.dest, rp.ply.kind, rp.ply.carry)
        try:
            pos.take_annotations(rp.comments)
            pos.check_move(move)
        except RulesError:
            break
        pos.push(move)
        positions.append(pos.copy())
        texts.append(rp.text)
    return positions, texts
