"""Mail to players once a write is committed: a published pairing, a result to confirm, a
penalty. A mail server that fails is logged and never undoes the write."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from klinzha_site.links import site_link
from tournaments.check_in_selectors import check_in_token
from tournaments.models import CheckInWindow, Game, Penalty, Player, Registration, Round

logger = logging.getLogger(__name__)


def _game_url(game: Game) -> str:
    return site_link(reverse("games:detail", args=[game.pk]))


def _my_games_url() -> str:
    return site_link(reverse("my-games"))


def _email_of(player: Player | None) -> str:
    account = player.user if player is not None else None
    if account is None or not account.is_active:
        return ""
    return str(account.email or "")


def _send(messages: list[tuple[str, str, str]]) -> None:
    """(to, subject, body) each; one connection for the lot."""
    if not messages:
        return
    try:
        with get_connection() as connection:
            connection.send_messages(
                [
                    EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to])
                    for to, subject, body in messages
                ]
            )
    except Exception:  # any backend's failure: the write is committed and stands
        logger.exception("%d notification(s) could not be sent", len(messages))


def _after_commit(messages: list[tuple[str, str, str]]) -> None:
    if messages:
        transaction.on_commit(lambda: _send(messages))


def _opponent(game: Game, player: Player) -> str:
    other = game.second if game.first_id == player.pk else game.first
    return other.name if other is not None else str(game.get_kind_display())


def _language(player: Player | None) -> str:
    """The language a player's mails are written in (services.accounts.player_language_set)."""
    return (player.language if player is not None else "") or settings.LANGUAGE_CODE


def _account_language(account: User) -> str:
    """An official's: their player's language when the account plays too."""
    player = Player.objects.filter(user=account).first()
    return _language(player)


def notify_round_published(*, round: Round) -> None:
    """Each combatant of the round with an account hears their pairing, in their language."""
    messages = []
    games = round.games.select_related("first__user", "second__user").order_by("board")
    for game in games:
        if game.result:
            continue  # a round stored with its results (an import, a replay) is history
        for player in (game.first, game.second):
            to = _email_of(player)
            if not to or player is None:
                continue
            with translation.override(_language(player)):
                messages.append((to, *_pairing_mail(round, game, player)))
    _after_commit(messages)


def _pairing_mail(round: Round, game: Game, player: Player) -> tuple[str, str]:
    tournament = round.tournament
    if game.second_id is None:
        what = gettext("you have this round off: %(kind)s") % {"kind": game.get_kind_display()}
    elif game.first_id == player.pk:
        what = gettext("board %(board)s: you place first against %(opponent)s") % {
            "board": game.board,
            "opponent": _opponent(game, player),
        }
    else:
        what = gettext("board %(board)s: you place second against %(opponent)s") % {
            "board": game.board,
            "opponent": _opponent(game, player),
        }
    when = ""
    if round.starts_at and round.place:
        when = gettext("It starts at %(time)s UTC (%(place)s).") % {
            "time": f"{round.starts_at:%Y-%m-%d %H:%M}",
            "place": round.place,
        }
    elif round.starts_at:
        when = gettext("It starts at %(time)s UTC.") % {"time": f"{round.starts_at:%Y-%m-%d %H:%M}"}
    subject = gettext("%(event)s: round %(number)s is paired") % {
        "event": tournament.name,
        "number": round.number,
    }
    body = gettext("Round %(number)s of %(event)s is published: %(what)s.") % {
        "number": round.number,
        "event": tournament.name,
        "what": what,
    }
    if when:
        body += "\n" + when
    body += "\n\n" + gettext("The game: %(url)s") % {"url": _game_url(game)}
    body += "\n" + gettext("Your games: %(url)s") % {"url": _my_games_url()} + "\n"
    return subject, body


def notify_result_to_confirm(*, game: Game, entered_by: User | None) -> None:
    """A result entered waits for a second account (the tournament's result_confirmation):
    its combatants check it, the event's arbiters other than who entered it confirm it; each
    reads the mail in their own language."""
    tournament = game.round.tournament
    recipients: dict[str, tuple[str, str]] = {}
    for player in (game.first, game.second):
        to = _email_of(player)
        if to:
            recipients[to.lower()] = (to, _language(player))
    officials: Iterable[Any] = [
        tournament.organizer,
        tournament.chief_arbiter,
        *tournament.arbiters.all(),
    ]
    entered_pk = getattr(entered_by, "pk", None)
    for account in officials:
        if account is None or account.pk == entered_pk or not account.is_active:
            continue
        if account.email and account.email.lower() not in recipients:
            recipients[account.email.lower()] = (account.email, _account_language(account))
    messages = []
    for to, language in recipients.values():
        with translation.override(language):
            subject = gettext("%(event)s: a result to confirm, round %(number)s") % {
                "event": tournament.name,
                "number": game.round.number,
            }
            body = gettext(
                "Round %(number)s, board %(board)s: %(game)s was entered as %(result)s. "
                "It counts once a second person confirms it."
            ) % {
                "number": game.round.number,
                "board": game.board,
                "game": game,
                "result": Game.Result(game.result).label,
            }
            body += "\n\n" + gettext("The game: %(url)s") % {"url": _game_url(game)} + "\n"
        messages.append((to, subject, body))
    _after_commit(messages)


def notify_penalty(*, penalty: Penalty) -> None:
    """The penalized player hears of the penalty, its Article and the arbiter's reason, in
    their language."""
    to = _email_of(penalty.player)
    if not to:
        return
    tournament = penalty.tournament
    with translation.override(_language(penalty.player)):
        what = str(penalty.get_kind_display())
        if penalty.amount is not None:
            what += f" ({penalty.amount})"
        if penalty.round_number:
            text = gettext(
                "The arbiter of %(event)s imposed a penalty on you, round %(number)s: "
                "%(what)s, Art. %(article)s."
            )
        else:
            text = gettext(
                "The arbiter of %(event)s imposed a penalty on you: %(what)s, Art. %(article)s."
            )
        body = text % {
            "event": tournament.name,
            "number": penalty.round_number,
            "what": what,
            "article": penalty.article,
        }
        body += "\n" + gettext("Reason: %(reason)s") % {"reason": penalty.reason}
        body += "\n\n" + gettext("Your games and penalties: %(url)s") % {"url": _my_games_url()}
        body += "\n"
        subject = gettext("%(event)s: a penalty (Art. %(article)s)") % {
            "event": tournament.name,
            "article": penalty.article,
        }
    _after_commit([(to, subject, body)])


def check_in_link(*, registration: Registration) -> str:
    """The private link an entrant checks in with, no account needed."""
    token = check_in_token(registration=registration)
    return site_link(reverse("tournaments:check-in", args=[token]))


def notify_check_in(*, window: CheckInWindow, registrations: Iterable[Registration]) -> int:
    """Remind each of `registrations` with an account to check in by `window`, with their
    private link, in their language; sent now (from a worker), the number sent."""
    messages = []
    tournament = window.tournament
    for reg in registrations:
        to = _email_of(reg.player)
        if not to:
            continue
        with translation.override(_language(reg.player)):
            subject = gettext("%(event)s: check in") % {"event": tournament.name}
            body = gettext(
                "Please check in for %(event)s between %(opens)s and %(closes)s UTC."
            ) % {
                "event": tournament.name,
                "opens": f"{window.opens_at:%Y-%m-%d %H:%M}",
                "closes": f"{window.closes_at:%Y-%m-%d %H:%M}",
            }
            body += "\n\n" + gettext("Check in here: %(url)s") % {
                "url": check_in_link(registration=reg)
            }
            body += "\n"
        messages.append((to, subject, body))
    _send(messages)
    return len(messages)
