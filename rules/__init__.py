"""The Klin Zha rules engine: board, positions, moves, notation, records and the validator."""

from rules.errors import IllegalMoveError, NotationError, RecordError, RulesError
from rules.notation import Notation, Ply, format_ply, move_text, parse_ply
from rules.position import GOLD, GREEN, LAWS, Move, Outcome, Position, Rules
from rules.record import Record, RecordPly, read_record, write_record
from rules.validate import Verdict, validate_record, validate_text

# Last: the variants register themselves with rules.registry, for the core to find them.
from rules import variants_all  # noqa: E402, F401  isort: skip

__all__ = [
    "GOLD",
    "GREEN",
    "LAWS",
    "IllegalMoveError",
    "Move",
    "Notation",
    "NotationError",
    "Outcome",
    "Ply",
    "Position",
    "Record",
    "RecordError",
    "RecordPly",
    "Rules",
    "RulesError",
    "Verdict",
    "format_ply",
    "move_text",
    "parse_ply",
    "read_record",
    "validate_record",
    "validate_text",
    "write_record",
]
