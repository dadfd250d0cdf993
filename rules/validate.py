"""The validator: replays a record under its ruleset and reports the first illegal ply,
warnings, and what the moves decide (records.md §3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.engines import new_position
from rules.errors import IllegalMoveError, RecordError
from rules.notation import Notation, decoration_warnings, describe_move
from rules.position import (
    COLOR_NAMES,
    RULESET_ITALIAN,
    RULESET_LAWS,
    RULESETS,
    Move,
    Outcome,
    Position,
    Rules,
)
from rules.record import (
    RESULTS,
    TERMINATIONS,
    Record,
    RecordPly,
    first_placer_name,
    read_record,
)
from rules.variants import (
    KNOWN_VARIANTS,
    PARAMETER_TAGS,
    SUPPORTED_VARIANTS,
    combination_problem,
    parse_removed,
    parse_variants,
    variant_parameters,
)


@dataclass(frozen=True, slots=True)
class PlyError:
    """The first rejected ply (ply None for an error about the record as a whole)."""

    ply: int | None
    text: str | None
    reason: str
    article: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "text": self.text, "reason": self.reason, "article": self.article}


@dataclass(frozen=True, slots=True)
class Warning:
    """Something accepted but worth the arbiter's eye."""

    ply: int | None
    reason: str
    article: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "reason": self.reason, "article": self.article}


@dataclass(slots=True)
class Verdict:
    """What the validator found; `position` is the last legal position."""

    plies: int
    error: PlyError | None
    warnings: list[Warning] = field(default_factory=list)
    outcome: Outcome | None = None
    result: str | None = None
    position: Position | None = None

    @property
    def valid(self) -> bool:
        return self.error is None

    def as_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "plies": self.plies,
            "error": self.error.as_dict() if self.error else None,
            "warnings": [w.as_dict() for w in self.warnings],
            "termination": self.outcome.termination if self.outcome else None,
            "winner": self.outcome.winner_name if self.outcome else None,
            "result": self.result,
        }


def rules_from_tags(tags: dict[str, str]) -> tuple[Rules, int]:
    """(Rules, first placer) named by a record's tags; IllegalMoveError for unknown ones."""
    ruleset = tags.get("Ruleset", RULESET_LAWS).strip().lower() or RULESET_LAWS
    if ruleset not in RULESETS:
        raise IllegalMoveError(f"unknown Ruleset {ruleset!r} (known: {', '.join(RULESETS)})", None)
    variants = parse_variants(tags.get("Variants", ""))
    for v in sorted(variants):
        if v not in KNOWN_VARIANTS:
            raise IllegalMoveError(f"unknown variant {v!r}", "13")
        if v not in SUPPORTED_VARIANTS:
            raise IllegalMoveError(f"variant {v!r} is not supported by this engine yet", "13")
    problem = combination_problem(ruleset, variants)
    if problem is not None:
        raise IllegalMoveError(problem, "13")
    removed_text = tags.get("Removed", "").strip()
    removed = 0
    if removed_text:
        if ruleset != RULESET_ITALIAN:
            raise IllegalMoveError(
                "a Removed warrior is the Italian society's Bach'san replay only", None
            )
        try:
            removed = parse_removed(removed_text)
        except ValueError as exc:
            raise IllegalMoveError(str(exc), "italian-society: tournament") from None
    first_name = first_placer_name(tags)
    if first_name not in COLOR_NAMES:
        raise IllegalMoveError(f"FirstPlacement must be green or gold, not {first_name!r}", "2.4")
    texts = {variant: tags.get(tag, "") for variant, tag in PARAMETER_TAGS.items()}
    try:
        params = variant_parameters(variants, texts)
    except ValueError as exc:
        raise IllegalMoveError(str(exc), "13") from None
    return Rules(ruleset, variants, removed=removed, **params), COLOR_NAMES.index(first_name)


def validate_text(text: str) -> Verdict:
    """Validate a record's text; RecordError when it is not a record at all."""
    return validate_record(read_record(text))


def validate_record(record: Record) -> Verdict:
    """Replay a record ply by ply (records.md §3)."""
    tags = record.tags
    result = tags.get("Result")
    warnings: list[Warning] = []
    try:
        rules, first = rules_from_tags(tags)
    except IllegalMoveError as exc:
        return Verdict(0, PlyError(None, None, exc.reason, exc.article), result=result)
    if "FirstPlacement" not in tags:
        warnings.append(
            Warning(None, "no FirstPlacement tag: green is taken to place first", "2.4")
        )
    notation = record.notation
    pos = new_position(rules, first)
    accepted = 0
    for index, rp in enumerate(record.plies, start=1):
        problem = _replay_ply(pos, rp, index, notation, warnings)
        if problem is not None:
            error = PlyError(index, rp.text, problem[0], problem[1])
            return Verdict(accepted, error, warnings, None, result, pos)
        accepted = index
    outcome = pos.final_outcome()
    verdict = Verdict(accepted, None, warnings, outcome, result, pos)
    verdict.error = _check_tags(tags, outcome)
    if verdict.error is None:
        problem = pos.end_tags_problem(tags)
        if problem is not None:
            verdict.error = PlyError(None, None, problem[0], problem[1])
    return verdict


def _replay_ply(
    pos: Position, rp: RecordPly, index: int, notation: Notation, warnings: list[Warning]
) -> tuple[str, str | None] | None:
    """Play one ply on `pos`; or, leaving `pos` as it was, the reason and Article it breaks."""
    ply = rp.ply
    if ply is None:
        return rp.error or "cannot read ply", "Appendix C"
    if pos.outcome is not None:
        return "ply follows the end of the battle", "5.1.1"
    move = Move(ply.origin, ply.dest, ply.kind, ply.carry)
    try:
        pos.take_annotations(rp.comments)
    except IllegalMoveError as exc:
        return exc.reason, exc.article
    side, stage = pos.stage()
    battle = stage == "battle" and ply.origin is not None
    try:
        if battle:
            pos.check_battle_move(side, move)
        else:
            pos.check_move(move)
    except IllegalMoveError as exc:
        return exc.reason, exc.article
    if (ply.kill_mark, ply.dest_kind, ply.bang) != pos.decoration(move, side):
        for w in decoration_warnings(ply, describe_move(pos, move), notation):
            warnings.append(Warning(index, w, "Appendix C"))
    if battle:
        assert ply.origin is not None
        safe = pos.is_battle_move_safe(side, ply.origin, ply.dest, ply.kind, ply.carry)
    else:
        safe = pos.is_safe(move)
    if not safe:
        if not pos.has_safe_move():
            reason = "ply follows the end of the battle: the side to move had no safe move"
            return reason + " (deadlock)", "5.1.2"
        if pos.rules.strict_safety:
            return "move endangers own Goal, illegal under this ruleset", "3.9"
        warnings.append(Warning(index, "leaves own Goal in jeopardy", "3.9"))
    if battle:
        pos.push_battle_move(side, move)
    else:
        pos.push(move)
    return None


def _check_tags(tags: dict[str, str], outcome: Outcome | None) -> PlyError | None:
    result = tags.get("Result", "*").strip().lower() or "*"
    if result not in RESULTS:
        return PlyError(
            None, None, f"Result must be one of {', '.join(RESULTS)}, not {result!r}", None
        )
    term = tags.get("Termination", "").strip().lower()
    if term and term not in TERMINATIONS:
        return PlyError(None, None, f"unknown Termination {term!r}", None)
    if outcome is not None:
        if result != "*" and result != outcome.winner_name:
            return PlyError(
                None,
                None,
                f"Result tag says {result!r} but the moves end in {outcome.termination}"
                f" won by {outcome.winner_name}",
                "5.1",
            )
        if term and term != outcome.termination:
            return PlyError(
                None,
                None,
                f"Termination tag says {term!r} but the moves end in {outcome.termination}",
                "5.1",
            )
    elif term in ("capture", "deadlock"):
        return PlyError(
            None,
            None,
            f"Termination tag says {term!r} but the moves end in neither capture nor deadlock",
            "5.1",
        )
    return None


def verdict_for_unreadable(reason: str, result: str | None = None) -> dict[str, Any]:
    """The JSON object for a file that is not a record at all."""
    return {
        "valid": False,
        "plies": 0,
        "error": {"ply": None, "text": None, "reason": reason, "article": None},
        "warnings": [],
        "termination": None,
        "winner": None,
        "result": result,
    }


__all__ = [
    "PlyError",
    "RecordError",
    "Verdict",
    "Warning",
    "validate_record",
    "validate_text",
    "verdict_for_unreadable",
]
