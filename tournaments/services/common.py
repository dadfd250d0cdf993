"""What every tournament service shares: role checks, the tournament lock, round numbers and
the standings version."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import F

from tournaments.models import Round, Tournament
from tournaments.roles import Role, role_require, user_is_official


def require_arbiter(user: Any, tournament: Tournament) -> None:
    role_require(user=user, tournament=tournament, role=Role.ARBITER)


def require_official(user: Any) -> None:
    if user is not None and not user_is_official(user):
        raise PermissionDenied("only organizers and arbiters may do that")


def tournament_lock(tournament_id: int) -> Tournament:
    """Lock the tournament's row: the first lock every service that changes its rounds,
    games, results or audit trail takes, so that they all queue in one order (tournament,
    then round or game, then records)."""
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def acting_account(user: Any) -> Any:
    """The account to store as the one who acted (None for the system or the anonymous)."""
    return user if getattr(user, "is_authenticated", False) else None


def next_round_number(tournament: Tournament) -> int:
    return tournament.rounds.count() + 1


def next_round_check(tournament: Tournament, number: int) -> None:
    """Refuse to add round `number` while a proposed round waits or beyond the plan."""
    draft = tournament.rounds.filter(status=Round.Status.DRAFT).first()
    if draft is not None:
        raise ValidationError(
            {"round": f"round {draft.number} is proposed: publish or discard it first"}
        )
    if number > tournament.rounds_planned:
        raise ValidationError({"round": f"the tournament has {tournament.rounds_planned} rounds"})


def standings_bump(tournament: Tournament) -> None:
    """Invalidate cached standings: their cache key carries this version."""
    Tournament.objects.filter(pk=tournament.pk).update(standings_version=F("standings_version") + 1)
