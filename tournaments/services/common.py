"""What every tournament service shares: role checks, the tournament lock, round numbers and
the published pages' version."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.db.models import F, QuerySet
from django.utils.translation import gettext, ngettext

from klinzha_site.errors import Conflict
from klinzha_site.page_prerender import pages_ahead_mark
from klinzha_site.tasking import task_send
from klinzha_site.user_types import AnyUser
from klinzha_site.written_versions import version_tracked, version_written
from tournaments.check_in_selectors import check_in_window_for
from tournaments.models import Game, Registration, Round, Tournament
from tournaments.page_selectors import tournament_page_scope
from tournaments.roles import Role, role_require, user_is_official
from tournaments.selectors import (
    ROUND_ROBINS,
    declared_result,
    penalty_effects,
    round_robin_rounds,
)
from tournaments.signals import pairing_warnings_wanted


def require_arbiter(user: AnyUser | None, tournament: Tournament) -> None:
    role_require(user=user, tournament=tournament, role=Role.ARBITER)


def require_official(user: AnyUser | None) -> None:
    if user is not None and not user_is_official(user):
        raise PermissionDenied(gettext("only organizers and arbiters may do that"))


def tournament_lock(tournament_id: int) -> Tournament:
    """Lock the tournament's row: the first lock every service that changes its rounds,
    games, results or audit trail takes, so that they all queue in one order (tournament,
    then round or game, then records). FOR NO KEY UPDATE: it still queues the services
    one by one, but does not wait for (nor block) the key-share locks PostgreSQL takes on
    the row while another transaction inserts a record or audit entry that refers to it."""
    return Tournament.objects.select_for_update(no_key=True).get(pk=tournament_id)


def values_per_query(*, spare: int = 10) -> int:
    """How many values one statement may name (an IN list): under SQLite's limit of bound
    parameters, less `spare` for the statement's others; no limit on PostgreSQL, so that a
    batch's queries do not grow with it there."""
    limit = connection.features.max_query_params
    return limit - spare if limit else 2**31


def acting_account(user: AnyUser | None) -> User | None:
    """The account to store as the one who acted (None for the system or the anonymous)."""
    return user if user is not None and user.is_authenticated else None


def next_round_number(tournament: Tournament) -> int:
    return tournament.rounds.count() + 1


def next_round_check(tournament: Tournament, number: int) -> None:
    """Refuse to store round `number` while a proposed round waits or beyond the plan
    (Conflict, HTTP 409)."""
    draft = tournament.rounds.filter(status=Round.Status.DRAFT).first()
    if draft is not None:
        raise Conflict(
            {
                "round": gettext("round %(number)s is proposed: publish or discard it first")
                % {"number": draft.number}
            }
        )
    if number > tournament.rounds_planned:
        raise Conflict(
            {
                "round": gettext(
                    "the tournament has %(rounds_planned)s rounds; raise the number of rounds in "
                    "the settings to pair another"
                )
                % {"rounds_planned": tournament.rounds_planned}
            }
        )


def pairing_preconditions_check(tournament: Tournament, number: int) -> None:
    """Refuse to pair round `number` while the event cannot have it (Conflict, HTTP 409):
    besides next_round_check, a result of the round before is pending, or fewer than two
    players are left to pair."""
    if tournament.pairing_system in ROUND_ROBINS:
        # Before the planned-rounds check: raising the number of rounds cannot help here.
        length = round_robin_rounds(tournament=tournament)
        if number > length and tournament.rounds.exists():
            raise Conflict(
                {
                    "round": gettext(
                        "the round robin is complete: its table has %(length)s rounds and every "
                        "pair has met"
                    )
                    % {"length": length}
                }
            )
    next_round_check(tournament, number)
    _check_in_closed_check(tournament, number)
    games = Game.objects.filter(
        round__tournament=tournament, round__number=number - 1, kind=Game.Kind.GAME
    ).select_related("first", "second")
    two_person = tournament.result_confirmation
    effects = penalty_effects(tournament=tournament)

    def decided(g: Game) -> bool:
        if g.result and not (two_person and not g.result_confirmed_at):
            return True
        # a battle declared lost (Art. 12.4 d) counts as decided
        mine, theirs = effects.get((g.pk, g.first_id), ()), effects.get((g.pk, g.second_id), ())
        return bool(declared_result(mine, theirs))

    pending = [g for g in games if not decided(g)]
    if pending:
        boards = ", ".join(
            gettext("board %(board)s (%(first)s – %(second)s)")
            % {"board": g.board, "first": g.first, "second": g.second}
            for g in pending
        )
        raise Conflict(
            {
                "round": gettext(
                    "round %(number)s has no result yet on %(boards)s: enter or confirm them "
                    "before pairing round %(number2)s"
                )
                % {"number": number - 1, "boards": boards, "number2": number}
            }
        )
    active = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.ACTIVE, first_round__lte=number
    ).count()
    if active < 2:
        raise Conflict(
            {
                "round": ngettext(
                    "%(active)s active player for round %(number)s: a round needs two; "
                    "register players or end the event",
                    "%(active)s active players for round %(number)s: a round needs two; "
                    "register players or end the event",
                    active,
                )
                % {"active": active, "number": number}
            }
        )


def _check_in_closed_check(tournament: Tournament, number: int) -> None:
    """Refuse to pair a round whose check-in the arbiter has not closed: they see who did
    not check in, and confirm, first (services.check_in.check_in_close)."""
    window = check_in_window_for(tournament=tournament, round_number=number)
    if window is not None and window.confirmed_at is None:
        raise Conflict(
            {
                "round": gettext(
                    "the check-in of round %(number)s is not closed: see who has not checked "
                    "in and close it before pairing"
                )
                % {"number": number}
            }
        )


def pairing_warnings_from_above(tournament: Tournament) -> list[str]:
    """The warnings the apps above this one have for a pairing of the tournament (results
    that contradict a signed record, from the games app): told, never refusing."""
    replies = pairing_warnings_wanted.send(sender=Tournament, tournament=tournament)
    return [str(w) for _, warnings in replies for w in (warnings or [])]


def published_version_bump(tournament: Tournament) -> None:
    """Invalidate cached standings and published pages (standings, crosstable, pairings,
    player pages, their CSV, JSON and API forms): their cache keys carry this version, so
    every change to what they show bumps it, in the transaction that makes the change."""
    bumped = Tournament.objects.filter(pk=tournament.pk)
    bumped.update(published_version=F("published_version") + 1)
    _versions_written_tell(bumped)


# The task that renders a tournament's pages its readers read lately, once its version changed.
PAGES_RENDER_TASK = "tournaments.published_pages_render"


def _versions_written_tell(bumped: QuerySet[Tournament]) -> None:
    """Once the change commits, tell the page cache the versions it made: the user of the
    request that made it never reads a page from before it (klinzha_site.written_versions);
    and have a worker render ahead the pages readers read lately (KZ_PAGE_PRERENDER: with
    workers, no reader waits for those renders). A service called outside a request, with
    no worker to render, has nobody to tell."""
    prerender = bool(getattr(settings, "KZ_PAGE_PRERENDER", False))
    if not (prerender or version_tracked()):
        return
    versions = list(bumped.values_list("pk", "published_version"))

    def tell() -> None:
        for pk, number in versions:
            scope = tournament_page_scope(pk)
            version_written(scope=scope, number=number)
            if prerender:
                pages_ahead_mark(scope=scope, number=number)
                task_send(PAGES_RENDER_TASK, pk, expires=settings.KZ_PAGE_PRERENDER_EXPIRES)

    transaction.on_commit(tell)


def published_version_bump_for_game(*, game_id: int) -> None:
    """published_version_bump for the event of a game changed outside a tournament service
    (the first colour a validated record names)."""
    bumped = Tournament.objects.filter(rounds__games__pk=game_id)
    bumped.update(published_version=F("published_version") + 1)
    _versions_written_tell(bumped)


def published_version_bump_for_player(*, player_id: int) -> None:
    """published_version_bump for every event a player entered (their name, club or rating
    shows on each one's pages)."""
    bumped = Tournament.objects.filter(registrations__player_id=player_id)
    bumped.update(published_version=F("published_version") + 1)
    _versions_written_tell(bumped)
