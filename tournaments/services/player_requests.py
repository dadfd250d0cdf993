"""What a player asks for on their own page, for an arbiter to confirm: a bye in a round not
yet paired (a ByeRequest left unconfirmed, which the pairing leaves out until an arbiter
confirms it by requesting that bye), or to withdraw (confirmed by withdrawing them)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from klinzha_site.errors import Conflict
from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, audit_append
from tournaments.models import ByeRequest, Registration
from tournaments.roles import user_player
from tournaments.services.common import tournament_lock
from tournaments.services.entrants import bye_request_check


def _own(registration: Registration, user: AnyUser | None) -> None:
    """Only the player themself (their linked account) asks on their own behalf."""
    player = user_player(user) if user is not None else None
    if player is None or player.pk != registration.player_id:
        raise PermissionDenied(gettext("only the player themself may ask that"))


@transaction.atomic
def bye_request_ask(
    *, registration: Registration, round_number: int, user: AnyUser | None
) -> ByeRequest:
    """The player asks for a bye in a round not yet paired (the checks of an arbiter's
    request: a Swiss event, an active player, a round of the event): stored unconfirmed."""
    _own(registration, user)
    tournament_lock(registration.tournament_id)
    bye_request_check(registration=registration, round_number=round_number)
    bye, made = ByeRequest.objects.get_or_create(
        registration=registration, round_number=round_number, defaults={"confirmed": False}
    )
    if made:
        audit_append(
            tournament=registration.tournament,
            user=user,
            action=Action.BYE_ASKED,
            obj=registration,
            after={"player": registration.player.name, "round": round_number},
        )
    return bye


@transaction.atomic
def bye_request_unask(
    *, registration: Registration, round_number: int, user: AnyUser | None
) -> int:
    """The player takes back a bye they asked for, while no arbiter has confirmed it (a
    confirmed one is the arbiter's to cancel). How many were taken back (0 or 1)."""
    _own(registration, user)
    tournament_lock(registration.tournament_id)
    asked = ByeRequest.objects.filter(registration=registration, round_number=round_number)
    if asked.filter(confirmed=True).exists():
        raise Conflict(
            {"round_number": gettext("an arbiter confirmed this bye: ask them to cancel it")}
        )
    deleted, _ = asked.delete()
    if deleted:
        audit_append(
            tournament=registration.tournament,
            user=user,
            action=Action.BYE_REQUEST_CANCELLED,
            obj=registration,
            before={"player": registration.player.name, "round": round_number},
        )
    return deleted


@transaction.atomic
def withdrawal_ask(*, registration: Registration, user: AnyUser | None) -> Registration:
    """The player asks to withdraw from the rounds not yet paired: an arbiter confirms by
    withdrawing them; until then they are paired as before."""
    _own(registration, user)
    tournament_lock(registration.tournament_id)
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.status != Registration.Status.ACTIVE:
        raise Conflict({"player": gettext("you are no longer in this event")})
    if reg.withdrawal_asked_at is None:
        reg.withdrawal_asked_at = timezone.now()
        reg.save(update_fields=["withdrawal_asked_at"])
        audit_append(
            tournament=reg.tournament,
            user=user,
            action=Action.WITHDRAWAL_ASKED,
            obj=reg,
            after={"player": reg.player.name, "after_round": reg.tournament.rounds.count()},
        )
    return reg
