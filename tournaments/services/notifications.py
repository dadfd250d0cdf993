"""Mail to players once a write is committed: a published pairing, a result to confirm, a
penalty. A mail server that fails is logged and never undoes the write."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.urls import reverse

from tournaments.models import Game, Penalty, Player, Round

logger = logging.getLogger(__name__)


def _site(path: str) -> str:
    return str(getattr(settings, "KZ_SITE_URL", "http://127.0.0.1:8000")).rstrip("/") + path


def _game_url(game: Game) -> str:
    return _site(reverse("games:detail", args=[game.pk]))


def _my_games_url() -> str:
    return _site(reverse("my-games"))


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
    return other.name if other is not None else game.get_kind_display()


def notify_round_published(*, round: Round) -> None:
    """Each combatant of the round with an account hears their pairing."""
    tournament = round.tournament
    messages = []
    games = round.games.select_related("first__user", "second__user").order_by("board")
    for game in games:
        if game.result:
            continue  # a round stored with its results (an import, a replay) is history
        for player in (game.first, game.second):
            to = _email_of(player)
            if not to or player is None:
                continue
            if game.second_id is None:
                what = f"you have a {game.get_kind_display().lower()}"
            else:
                placer = "first" if game.first_id == player.pk else "second"
                what = f"board {game.board}: you place {placer} against {_opponent(game, player)}"
            when = ""
            if round.starts_at:
                when = f"\nIt starts at {round.starts_at:%Y-%m-%d %H:%M} UTC"
                when += f" ({round.place})." if round.place else "."
            messages.append(
                (
                    to,
                    f"{tournament.name}: round {round.number} is paired",
                    f"Round {round.number} of {tournament.name} is published: {what}.{when}\n\n"
                    f"The game: {_game_url(game)}\nYour games: {_my_games_url()}\n",
                )
            )
    _after_commit(messages)


def notify_result_to_confirm(*, game: Game, entered_by: Any) -> None:
    """A result entered waits for a second account (the tournament's result_confirmation):
    its combatants check it, the event's arbiters other than who entered it confirm it."""
    tournament = game.round.tournament
    result = Game.Result(game.result).label
    subject = f"{tournament.name}: a result to confirm, round {game.round.number}"
    body = (
        f"Round {game.round.number}, board {game.board}: {game} was entered as {result}. "
        f"It counts once a second person confirms it.\n\nThe game: {_game_url(game)}\n"
    )
    recipients: dict[str, str] = {}
    for player in (game.first, game.second):
        to = _email_of(player)
        if to:
            recipients[to.lower()] = to
    officials: Iterable[Any] = [
        tournament.organizer,
        tournament.chief_arbiter,
        *tournament.arbiters.all(),
    ]
    entered_pk = getattr(entered_by, "pk", None)
    for account in officials:
        if account is None or account.pk == entered_pk or not account.is_active:
            continue
        if account.email:
            recipients[account.email.lower()] = account.email
    _after_commit([(to, subject, body) for to in recipients.values()])


def notify_penalty(*, penalty: Penalty) -> None:
    """The penalized player hears of the penalty, its Article and the arbiter's reason."""
    to = _email_of(penalty.player)
    if not to:
        return
    tournament = penalty.tournament
    where = f", round {penalty.round_number}" if penalty.round_number else ""
    amount = f" ({penalty.amount})" if penalty.amount is not None else ""
    body = (
        f"The arbiter of {tournament.name} imposed a penalty on you{where}: "
        f"{penalty.get_kind_display()}{amount}, Art. {penalty.article}.\n"
        f"Reason: {penalty.reason}\n\nYour games and penalties: {_my_games_url()}\n"
    )
    _after_commit([(to, f"{tournament.name}: a penalty (Art. {penalty.article})", body)])
