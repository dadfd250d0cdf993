"""What a tournament's settings must agree with before they are saved: its own dates, the
rounds already paired, and the ranges of their columns."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Max

from klinzha_site.parsing import integer_fields_check
from tournaments.models import Tournament


def tournament_bounds_check(tournament: Tournament) -> None:
    """ValidationError (400) naming each setting that cannot be: an end before the start,
    fewer rounds planned than are paired (drafts included: they hold pairings), a number
    past its column."""
    integer_fields_check(tournament)
    errors = {}
    start, end = tournament.start_date, tournament.end_date
    if start and end and end < start:
        errors["end_date"] = f"{end} is before the start date {start}"
    if tournament.pk:
        paired = tournament.rounds.aggregate(last=Max("number"))["last"] or 0
        if tournament.rounds_planned < paired:
            errors["rounds_planned"] = (
                f"round {paired} is paired already: at least {paired} rounds (discard a "
                "proposed round first to plan fewer)"
            )
    if errors:
        raise ValidationError(errors)
