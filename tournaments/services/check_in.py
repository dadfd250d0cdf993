"""Check-in: the arbiter sets a window per round (or for the whole event), entrants check
in themselves (signed in, or by their private link), the arbiter overrides, then closes the
window having seen who did not check in; reminders go out by mail from a worker."""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from klinzha_site.errors import Conflict
from klinzha_site.tasking import task_send
from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, audit_append
from tournaments.check_in_selectors import (
    check_in_missing,
    check_in_next_round,
    check_in_window_for,
    check_in_window_open,
)
from tournaments.models import EVENT_WINDOW, CheckIn, CheckInWindow, Registration, Tournament
from tournaments.roles import user_can_arbitrate, user_player
from tournaments.services.common import acting_account, require_arbiter, tournament_lock
from tournaments.services.entrants import registration_withdraw
from tournaments.services.notifications import notify_check_in

CHECK_IN_REMIND_TASK = "tournaments.check_in_remind"


def _round_open_check(tournament: Tournament, round_number: int) -> None:
    """Refuse a round already paired, or beyond the plan (0: the event's window)."""
    if round_number != EVENT_WINDOW and tournament.rounds.filter(number=round_number).exists():
        raise Conflict(
            {"round": gettext("round %(number)s is already paired") % {"number": round_number}}
        )
    if round_number > tournament.rounds_planned:
        raise ValidationError(
            {
                "round": gettext("the tournament has %(rounds_planned)s rounds")
                % {"rounds_planned": tournament.rounds_planned}
            }
        )


@transaction.atomic
def check_in_window_set(
    *,
    tournament: Tournament,
    round_number: int,
    opens_at: datetime,
    closes_at: datetime,
    user: AnyUser | None = None,
) -> CheckInWindow:
    """Set (or move) the check-in window of a round not yet paired, or the event's (round
    0); its reminders are queued once the change commits."""
    require_arbiter(user, tournament)
    tournament_lock(tournament.pk)
    _round_open_check(tournament, round_number)
    if closes_at <= opens_at:
        raise ValidationError({"closes_at": gettext("the check-in must close after it opens")})
    window, _ = CheckInWindow.objects.update_or_create(
        tournament=tournament,
        round_number=round_number,
        defaults={"opens_at": opens_at, "closes_at": closes_at, "confirmed_at": None},
    )
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.CHECK_IN_WINDOW,
        obj=window,
        after={
            "round": round_number,
            "opens_at": opens_at.isoformat(),
            "closes_at": closes_at.isoformat(),
        },
    )
    check_in_reminders_queue(window=window)
    return window


def check_in_reminders_queue(*, window: CheckInWindow) -> None:
    """Queue the window's reminder mails once the transaction commits."""
    window_id = window.pk
    transaction.on_commit(lambda: task_send(CHECK_IN_REMIND_TASK, window_id))


def _self_check(registration: Registration, user: AnyUser | None, *, by_link: bool) -> None:
    """Whoever checks a player in without being an arbiter: the player themselves (their
    account) or the holder of their private link."""
    if by_link:
        return
    player = user_player(user)
    if player is None or player.pk != registration.player_id:
        raise PermissionDenied(gettext("only the player or an arbiter may check them in"))


@transaction.atomic
def check_in_record(
    *,
    registration: Registration,
    user: AnyUser | None = None,
    present: bool = True,
    by_link: bool = False,
) -> CheckIn:
    """Check an entrant in for the next round (by its window, or the event's). The entrant
    themselves (signed in, or `by_link`: their private link) while the window is open; an
    arbiter at any time before the round is paired, and may mark them absent instead."""
    tournament = registration.tournament
    arbiter = not by_link and user_can_arbitrate(user=user, tournament=tournament)
    if not arbiter:
        _self_check(registration, user, by_link=by_link)
    tournament_lock(tournament.pk)
    number = check_in_next_round(tournament=tournament)
    window = check_in_window_for(tournament=tournament, round_number=number)
    if window is None:
        raise Conflict({"round": gettext("round %(number)s has no check-in") % {"number": number}})
    reg = Registration.objects.select_related("player").get(pk=registration.pk)
    if reg.status != Registration.Status.ACTIVE:
        raise Conflict(
            {"player": gettext("%(name)s has left the event") % {"name": reg.player.name}}
        )
    if not arbiter:
        if not present:
            raise PermissionDenied(gettext("only an arbiter may mark a player absent"))
        if not check_in_window_open(window=window, now=timezone.now()):
            raise Conflict({"round": gettext("the check-in is not open")})
    via = CheckIn.Via.LINK if by_link else CheckIn.Via.ACCOUNT
    if arbiter:
        via = CheckIn.Via.ARBITER
    check_in, _ = CheckIn.objects.update_or_create(
        registration=reg,
        round_number=window.round_number,
        defaults={"present": present, "via": via, "by": acting_account(user)},
    )
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.CHECK_IN,
        obj=reg,
        after={"player": reg.player.name, "round": number, "present": present, "via": via},
    )
    return check_in


@transaction.atomic
def check_in_close(*, tournament: Tournament, user: AnyUser | None = None) -> list[Registration]:
    """Close the next round's check-in once the arbiter has seen who did not check in:
    they are then treated as the event says (absent from this round's pairing, withdrawn,
    or paired anyway). The ones who did not check in."""
    require_arbiter(user, tournament)
    tournament_lock(tournament.pk)
    number = check_in_next_round(tournament=tournament)
    window = check_in_window_for(tournament=tournament, round_number=number)
    if window is None:
        raise Conflict({"round": gettext("round %(number)s has no check-in") % {"number": number}})
    if window.confirmed_at is not None:
        raise Conflict(
            {
                "round": gettext("the check-in of round %(number)s is already closed")
                % {"number": number}
            }
        )
    missing = check_in_missing(tournament=tournament, round_number=number)
    window.confirmed_at = timezone.now()
    window.save(update_fields=["confirmed_at"])
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.CHECK_IN_CLOSED,
        obj=window,
        after={
            "round": number,
            "missing": [reg.player.name for reg in missing],
            "treated": tournament.check_in_missing,
        },
    )
    if tournament.check_in_missing == Tournament.CheckInMissing.WITHDRAWN:
        for reg in missing:
            registration_withdraw(registration=reg, user=user)
    return missing


def check_in_remind(*, window_id: int) -> int:
    """Mail every active entrant with an account who has not checked in by the window yet
    their private link; the number of mails (none once the window is closed)."""
    window = CheckInWindow.objects.select_related("tournament").filter(pk=window_id).first()
    if window is None or window.confirmed_at is not None:
        return 0
    tournament = window.tournament
    number = window.round_number or check_in_next_round(tournament=tournament)
    missing = check_in_missing(tournament=tournament, round_number=number)
    return notify_check_in(window=window, registrations=missing)
