"""Clubs, players, their accounts, registrations, withdrawals and requested byes."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from tournaments.audit import Action, audit_append
from tournaments.models import ByeRequest, Club, Player, Registration, Tournament
from tournaments.roles import user_can_arbitrate, user_is_official
from tournaments.services.common import require_arbiter, require_official, standings_bump


@transaction.atomic
def club_create(*, name: str, user: Any = None, **fields: Any) -> Club:
    require_official(user)
    club = Club(name=name, **fields)
    club.full_clean()
    club.save()
    return club


@transaction.atomic
def player_create(
    *, name: str, club: Club | None = None, user: Any = None, **fields: Any
) -> Player:
    require_official(user)
    player = Player(name=name, club=club, **fields)
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def player_link_user(*, player: Player, account: Any, user: Any = None) -> Player:
    """Link a player to a user account (or unlink with None), so that they can submit and
    sign their records and see their penalties. Arbiters link players of their events."""
    if user is not None and not getattr(user, "is_staff", False):
        tournaments = list(Tournament.objects.filter(registrations__player=player))
        if tournaments:
            allowed = any(user_can_arbitrate(user=user, tournament=t) for t in tournaments)
        else:
            allowed = user_is_official(user)
        if not allowed:
            raise PermissionDenied("only arbiters of this player's tournaments may do that")
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if account is not None:
        taken = Player.objects.filter(user=account).exclude(pk=locked.pk).first()
        if taken is not None:
            raise ValidationError({"account": f"already linked to player {taken.name}"})
    before = locked.user.get_username() if locked.user else None
    locked.user = account
    locked.save(update_fields=["user"])
    for reg in locked.registrations.select_related("tournament"):
        audit_append(
            tournament=reg.tournament,
            user=user,
            action=Action.PLAYER_ACCOUNT,
            obj=locked,
            before={"account": before},
            after={"account": account.get_username() if account else None},
        )
    return locked


@transaction.atomic
def registration_create(
    *, tournament: Tournament, player: Player, user: Any = None, first_round: int | None = None
) -> Registration:
    """Register a player; after round 1 is paired this is a late entry from the next round."""
    require_arbiter(user, tournament)
    paired = tournament.rounds.count()
    if first_round is None:
        first_round = paired + 1
    if first_round <= paired:
        raise ValidationError({"first_round": f"round {paired} is already paired"})
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        raise ValidationError({"player": "already registered"})
    rank = tournament.registrations.count() + 1
    reg = Registration(
        tournament=tournament, player=player, first_round=first_round, start_rank=rank
    )
    reg.full_clean()
    reg.save()
    standings_bump(tournament)
    return reg


@transaction.atomic
def registration_withdraw(
    *, registration: Registration, user: Any = None, expelled: bool = False
) -> Registration:
    """Withdraw (or expel, Art. 12.4 g) from all later rounds; played games stand."""
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    require_arbiter(user, reg.tournament)
    reg.status = Registration.Status.EXPELLED if expelled else Registration.Status.WITHDRAWN
    reg.last_round = reg.tournament.rounds.count()
    reg.save(update_fields=["status", "last_round"])
    audit_append(
        tournament=reg.tournament,
        user=user,
        action=Action.WITHDRAWAL,
        obj=reg,
        after={"status": reg.status},
    )
    standings_bump(reg.tournament)
    return reg


@transaction.atomic
def registration_reinstate(*, registration: Registration) -> Registration:
    """Undo a withdrawal or expulsion (a revoked expulsion): the player is active again."""
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    reg.status = Registration.Status.ACTIVE
    reg.last_round = None
    reg.save(update_fields=["status", "last_round"])
    standings_bump(reg.tournament)
    return reg


@transaction.atomic
def bye_request_create(
    *, registration: Registration, round_number: int, user: Any = None
) -> ByeRequest:
    require_arbiter(user, registration.tournament)
    if registration.tournament.rounds.filter(number=round_number).exists():
        raise ValidationError({"round_number": f"round {round_number} is already paired"})
    bye, _ = ByeRequest.objects.get_or_create(registration=registration, round_number=round_number)
    return bye
