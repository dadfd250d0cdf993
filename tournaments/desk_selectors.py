"""Reads for the arbiter's desk: whether pairing the next round is offered, pending byes
(and those the players asked for, to confirm)."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.event_system_selectors import knockout_decided
from tournaments.models import ByeRequest, Registration, Round, RoundPlan, Tournament


def round_pair_offered(*, tournament: Tournament, rounds: Sequence[Round]) -> bool:
    """Whether the console offers to pair the next round: rounds left to play, the last one
    published (a proposal is published or discarded first), and for round 1 two entrants
    at least (the pairing refuses fewer; a button that can only be refused is not offered)."""
    if tournament.pairing_system == Tournament.PairingSystem.KNOCKOUT and rounds:
        # A knockout goes on past its rounds until it has its champion (a replay).
        if knockout_decided(tournament=tournament):
            return False
    elif len(rounds) >= tournament.rounds_planned:
        return False
    if rounds and rounds[-1].status == Round.Status.DRAFT:
        return False
    if rounds:
        return True
    active = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.ACTIVE, first_round__lte=1
    ).count()
    return active >= 2


def byes_pending(*, tournament: Tournament, from_round: int) -> dict[int, list[int]]:
    """Per player id, the rounds (from `from_round`, not paired yet) they asked a bye for."""
    pending: dict[int, list[int]] = {}
    rows = (
        ByeRequest.objects.filter(registration__tournament=tournament, round_number__gte=from_round)
        .order_by("round_number")
        .values_list("registration__player_id", "round_number")
    )
    for player_id, number in rows:
        pending.setdefault(player_id, []).append(number)
    return pending


def byes_asked(*, tournament: Tournament, from_round: int) -> dict[int, list[int]]:
    """Per player id, the rounds (not paired yet) they asked a bye for on their own page
    that no arbiter has confirmed yet."""
    asked: dict[int, list[int]] = {}
    rows = (
        ByeRequest.objects.filter(
            registration__tournament=tournament, round_number__gte=from_round, confirmed=False
        )
        .order_by("round_number")
        .values_list("registration__player_id", "round_number")
    )
    for player_id, number in rows:
        asked.setdefault(player_id, []).append(number)
    return asked


# What services.round_pairings_edit adds to a proposal's explanation.
HAND_EDITED = "pairings edited by hand"


def round_hand_edited(*, round: Round) -> bool:
    """Whether a proposed round's pairings were edited by hand (discarding loses them)."""
    return round.status == Round.Status.DRAFT and HAND_EDITED in (round.explanation or [])


def round_plans_ahead(*, tournament: Tournament, paired: int) -> list[RoundPlan]:
    """The rounds not yet paired, up to the event's rounds, each with its plan (scheduled
    start and place set ahead; an unsaved empty plan where none is set)."""
    plans = {
        p.number: p for p in RoundPlan.objects.filter(tournament=tournament, number__gt=paired)
    }
    return [
        plans.get(n) or RoundPlan(tournament=tournament, number=n)
        for n in range(paired + 1, tournament.rounds_planned + 1)
    ]
