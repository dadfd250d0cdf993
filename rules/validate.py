"""The validator: replays a record under its ruleset and reports the first illegal ply,
warnings, and what the moves decide (records.md §3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from rules.engines import new_position
from rules.errors import IllegalMoveError, RecordError
from rules.messages import Message, message
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
    """The first rejected ply (ply None for an error about the record as a whole); `code`
    and `params` name the reason in rules/messages.py (None and {} when uncatalogued)."""

    ply: int | None
    text: str | None
    reason: str
    article: str | None
    code: str | None = field(default=None, compare=False)
    params: dict[str, str] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.code is None and isinstance(self.reason, Message):
            object.__setattr__(self, "code", self.reason.code)
            object.__setattr__(self, "params", dict(self.reason.params))

    def as_dict(self, *, codes: bool = False) -> dict[str, Any]:
        """The JSON object records.md §3 specifies; `codes` adds the message's code and
        parameters (what a stored verdict keeps, not `kz validate`'s output)."""
        out: dict[str, Any] = {"ply": self.ply, "text": self.text, "reason": str(self.reason)}
        out["article"] = self.article
        if codes:
            out |= {"code": self.code, "params": dict(self.params)}
        return out


@dataclass(frozen=True, slots=True)
class Warning:
    """Something accepted but worth the arbiter's eye; `code` and `params` as PlyError's."""

    ply: int | None
    reason: str
    article: str | None
    code: str | None = field(default=None, compare=False)
    params: dict[str, str] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.code is None and isinstance(self.reason, Message):
            object.__setattr__(self, "code", self.reason.code)
            object.__setattr__(self, "params", dict(self.reason.params))

    def as_dict(self, *, codes: bool = False) -> dict[str, Any]:
        """The JSON object records.md §3 specifies; `codes` as PlyError.as_dict."""
        out: dict[str, Any] = {"ply": self.ply, "reason": str(self.reason)}
        out["article"] = self.article
        if codes:
            out |= {"code": self.code, "params": dict(self.params)}
        return out


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

    def as_dict(self, *, codes: bool = False) -> dict[str, Any]:
        """The JSON object records.md §3 specifies (`codes`: with each message's code and
        parameters, as a stored verdict keeps them)."""
        return {
            "valid": self.valid,
            "plies": self.plies,
            "error": self.error.as_dict(codes=codes) if self.error else None,
            "warnings": [w.as_dict(codes=codes) for w in self.warnings],
            "termination": self.outcome.termination if self.outcome else None,
            "winner": self.outcome.winner_name if self.outcome else None,
            "result": self.result,
        }


def rules_from_tags(tags: dict[str, str]) -> tuple[Rules, int]:
    """(Rules, first placer) named by a record's tags; IllegalMoveError for unknown ones."""
    ruleset = tags.get("Ruleset", RULESET_LAWS).strip().lower() or RULESET_LAWS
    if ruleset not in RULESETS:
        raise IllegalMoveError.coded(
            "unknown_ruleset", None, ruleset=repr(ruleset), known=", ".join(RULESETS)
        )
    variants = parse_variants(tags.get("Variants", ""))
    for v in sorted(variants):
        if v not in KNOWN_VARIANTS:
            raise IllegalMoveError.coded("unknown_variant", "13", variant=repr(v))
        if v not in SUPPORTED_VARIANTS:
            raise IllegalMoveError.coded("unsupported_variant", "13", variant=repr(v))
    problem = combination_problem(ruleset, variants)
    if problem is not None:
        raise IllegalMoveError(problem, "13")
    removed_text = tags.get("Removed", "").strip()
    removed = 0
    if removed_text:
        if ruleset != RULESET_ITALIAN:
            raise IllegalMoveError.coded("removed_not_italian", None)
        try:
            removed = parse_removed(removed_text)
        except ValueError as exc:
            raise IllegalMoveError(_reason_of(exc), "italian-society: tournament") from None
    first_name = first_placer_name(tags)
    if first_name not in COLOR_NAMES:
        raise IllegalMoveError.coded("first_placement_colour", "2.4", name=repr(first_name))
    texts = {variant: tags.get(tag, "") for variant, tag in PARAMETER_TAGS.items()}
    try:
        params = variant_parameters(variants, texts)
    except ValueError as exc:
        raise IllegalMoveError(_reason_of(exc), "13") from None
    return Rules(ruleset, variants, removed=removed, **params), COLOR_NAMES.index(first_name)


def _reason_of(exc: ValueError) -> str:
    """A ValueError's message, its catalogued Message when it carries one."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Message) else str(exc)


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
        error = PlyError(None, None, exc.reason, exc.article, exc.code, exc.params)
        return Verdict(0, error, result=result)
    if "FirstPlacement" not in tags:
        warnings.append(Warning(None, message("no_first_placement"), "2.4"))
    notation = record.notation
    pos = new_position(rules, first)
    accepted = 0
    for index, rp in enumerate(record.plies, start=1):
        problem = replay_ply(pos, rp, index, notation, warnings)
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


# Move(*row) without the named tuple's Python-level __new__ in between: one a ply.
_new_move: Final = tuple.__new__


def replay_ply(
    pos: Position, rp: RecordPly, index: int, notation: Notation, warnings: list[Warning]
) -> tuple[str, str | None] | None:
    """Play one ply on `pos`; or, leaving `pos` as it was, the reason and Article it breaks.
    The one home of a ply's checks: the validator replays a record with it, rules.live
    plays a battle on the server with it."""
    ply = rp.ply
    if ply is None:
        return rp.error or message("unreadable_ply"), "Appendix C"
    if pos.outcome is not None:
        return message("ply_after_end"), "5.1.1"
    move = _new_move(Move, (ply.origin, ply.dest, ply.kind, ply.carry))
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
        safe = pos.answers_crown() or pos.is_battle_move_safe(
            side, ply.origin, ply.dest, ply.kind, ply.carry
        )
    else:
        safe = pos.is_safe(move)
    if not safe:
        if not pos.has_safe_move():
            return message("ply_after_deadlock"), "5.1.2"
        if pos.rules.strict_safety:
            return message("goal_endangered"), "3.9"
        warnings.append(Warning(index, message("goal_in_jeopardy"), "3.9"))
    if battle:
        pos.push_battle_move(side, move)
    else:
        pos.push(move)
    return None


def _check_tags(tags: dict[str, str], outcome: Outcome | None) -> PlyError | None:
    result = tags.get("Result", "*").strip().lower() or "*"
    if result not in RESULTS:
        known = ", ".join(RESULTS)
        return PlyError(
            None, None, message("unknown_result", known=known, result=repr(result)), None
        )
    term = tags.get("Termination", "").strip().lower()
    if term and term not in TERMINATIONS:
        return PlyError(None, None, message("unknown_termination", written=repr(term)), None)
    if outcome is not None:
        if result != "*" and result != outcome.winner_name:
            return PlyError(
                None,
                None,
                message(
                    "result_contradicted",
                    result=repr(result),
                    termination=outcome.termination,
                    winner=outcome.winner_name,
                ),
                "5.1",
            )
        if term and term != outcome.termination:
            return PlyError(
                None,
                None,
                message(
                    "termination_contradicted", written=repr(term), termination=outcome.termination
                ),
                "5.1",
            )
    elif term in ("capture", "deadlock"):
        return PlyError(
            None,
            None,
            message("termination_unreached", written=repr(term)),
            "5.1",
        )
    return None


def verdict_for_unreadable(
    reason: str, result: str | None = None, *, codes: bool = False
) -> dict[str, Any]:
    """The JSON object for a file that is not a record at all (`codes` as Verdict.as_dict)."""
    return {
        "valid": False,
        "plies": 0,
        "error": PlyError(None, None, reason, None).as_dict(codes=codes),
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
    "replay_ply",
    "rules_from_tags",
    "validate_record",
    "validate_text",
    "verdict_for_unreadable",
]
