"""An event's own rules read as the rules engine reads a record's tags: its time control
(Art. 6.4), its variants' combination and their parameters (Art. 13), its notation (8.3)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.board import NAME
from rules.clock import ClockError, TimeControl, format_time_control, parse_time_control
from rules.variants import (
    PARAMETER_TAGS,
    combination_problem,
    variant_parameters,
    variants_problem,
)

TIME_CONTROL_FORMAT = (
    "periods separated by ':', each 'moves/seconds' or 'seconds' (all remaining moves) with "
    "an optional '+increment' in seconds, e.g. 20/1800:1200 or 600+5 (Art. 6.4)"
)

# The tournament's field holding each parameterised variant's parameter (the record's tag
# is rules.variants.PARAMETER_TAGS).
PARAMETER_FIELDS = {"clouded": "clouds", "kaggas-crown": "crown", "ablative": "ablation_limit"}


def time_control_read(text: str) -> TimeControl | None:
    """The time control a tournament states (None when it states none); ValueError naming
    the accepted format when it cannot be read, or gives a period no time at all."""
    if not text.strip():
        return None
    try:
        tc = parse_time_control(text)
    except ClockError as exc:
        raise ValueError(f"{exc}; a time control is {TIME_CONTROL_FORMAT}") from None
    for p in tc.periods:
        if p.seconds == 0 and p.increment == 0:
            raise ValueError(
                f"a period of {format_time_control(TimeControl((p,)))!r} gives no time; "
                f"a time control is {TIME_CONTROL_FORMAT}"
            )
    return tc


def time_control_normal(text: str) -> str:
    """A readable time control written the one way (`20/1800 : 1200` → `20/1800:1200`)."""
    tc = time_control_read(text)
    return "" if tc is None else format_time_control(tc)


def _parameter_texts(clouds: str, crown: str, ablation_limit: int) -> dict[str, str]:
    return {
        "clouded": clouds,
        "kaggas-crown": crown,
        "ablative": str(ablation_limit) if ablation_limit else "",
    }


def variants_problems(
    *, ruleset: str, variants: frozenset[str], clouds: str, crown: str, ablation_limit: int
) -> dict[str, str]:
    """What is wrong with an event's variants and their parameters, by field: the messages
    the validator gives a record with the same tags, so that no event is created whose
    every record would fail."""
    problem = combination_problem(ruleset, variants) or variants_problem(
        variants, bool(crown.strip())
    )
    if problem:
        return {"variants": problem}
    texts = _parameter_texts(clouds, crown, ablation_limit)
    errors = {}
    for variant, field in PARAMETER_FIELDS.items():
        if not texts[variant].strip():
            continue
        if variant not in variants:
            errors[field] = (
                f"a parameter of the {variant} variant ({PARAMETER_TAGS[variant]} tag), "
                "which this tournament does not play"
            )
            continue
        try:
            variant_parameters(frozenset({variant}), {variant: texts[variant]})
        except ValueError as exc:
            errors[field] = str(exc)
    return errors


@dataclass(frozen=True, slots=True)
class Parameters:
    """The variants' parameters an event fixes, as the engine's Rules hold them."""

    clouds: frozenset[int]
    crown: int
    ablation_limit: int


def event_parameters(
    *, variants: frozenset[str], clouds: str, crown: str, ablation_limit: int
) -> Parameters | None:
    """The parameters an event fixes for the variants a game is played with; None when the
    event's settings cannot be read (an event older than these checks): then none is fixed."""
    try:
        params = variant_parameters(variants, _parameter_texts(clouds, crown, ablation_limit))
    except ValueError:
        return None
    return Parameters(params["clouds"], params["crown"], params["ablation_limit"])


def squares_text(squares: frozenset[int]) -> str:
    return ", ".join(sorted(NAME[s] for s in squares)) or "none"


def crown_text(crown: int) -> str:
    return NAME[crown] if crown >= 0 else "the corner of the region left empty (13.3)"


def ablation_text(limit: int) -> str:
    return str(limit) if limit else "none"
