"""What a tournament's settings must agree with before they are saved: its own dates, the
rounds already paired, and the ranges of their columns."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db.models import Max

from klinzha_site.parsing import integer_fields_check
from tournaments.models import Tournament

# Points a setting may give, from a draw's (-1/2, Art. 10.1) to a win's (1): outside them a
# bye or a forfeit would be worth more than a win or less than a draw.
POINTS_SETTINGS = (
    "forfeit_win_points",
    "forfeit_loss_points",
    "bye_points",
    "requested_bye_points",
)
POINTS_MIN, POINTS_MAX = Decimal("-0.5"), Decimal(1)


def tournament_bounds_check(tournament: Tournament) -> None:
    """ValidationError (400) naming each setting that cannot be: an end before the start,
    fewer rounds planned than are paired (drafts included: they hold pairings), a number
    past its column."""
    errors: dict[str, str | list[str]] = {}
    try:
        integer_fields_check(tournament)
    except ValidationError as exc:  # named with the others, not alone
        errors.update(exc.message_dict)
    start, end = tournament.start_date, tournament.end_date
    if start and end and end < start:
        errors["end_date"] = f"{end} is before the start date {start}"
    for name in POINTS_SETTINGS:
        value = getattr(tournament, name)
        if isinstance(value, Decimal) and not POINTS_MIN <= value <= POINTS_MAX:
            errors[name] = (
                f"{value} points: from a draw's -0.5 to a win's 1 (Art. 10.1 scores a draw -1/2)"
            )
    if tournament.pk:
        paired = tournament.rounds.aggregate(last=Max("number"))["last"] or 0
        if tournament.rounds_planned < paired:
            errors["rounds_planned"] = (
                f"round {paired} is paired already: at least {paired} rounds (discard a "
                "proposed round first to plan fewer)"
            )
    if errors:
        raise ValidationError(errors)
