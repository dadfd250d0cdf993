"""Reads for the public pages: pairings with start numbers, ratings and points, a player's games."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet

from klinzha_site.page_cache import PageVersion
from tournaments.formats import points_formatter, points_shown
from tournaments.models import (
    AuditEntry,
    Club,
    Game,
    Player,
    RatingPeriod,
    Registration,
    Round,
    Tournament,
)
from tournaments.scoring import OPPOSITE, ScoringSettings, game_points
from tournaments.selectors import (
    FIRST_OUTCOME,
    game_result_counted,
    penalty_effects,
    scoring_settings,
    standings_compute,
)
from tournaments.standings import scores_after

# Forfeits as chess-results prints them: no battle was fought, so no points are shown.
FORFEIT_MARKS = {
    Game.Result.FIRST_FORFEIT_WIN: ("+", "−"),
    Game.Result.SECOND_FORFEIT_WIN: ("−", "+"),
    Game.Result.DOUBLE_FORFEIT: ("−", "−"),
}


def result_marks(result: str, settings: ScoringSettings | None = None) -> tuple[str, str]:
    """The first and the second placer's marks for a result: the points a battle gives each
    (1 – 0, 0 – 1, and -½ – -½ for a draw, Art. 10.1), + / − for forfeits, blanks while
    pending."""
    settings = settings or ScoringSettings()
    if result in FORFEIT_MARKS:
        return FORFEIT_MARKS[Game.Result(result)]
    win, loss, draw = (points_shown(x) for x in (settings.win, settings.loss, settings.draw))
    marks: dict[str, tuple[str, str]] = {
        Game.Result.FIRST_WIN: (win, loss),
        Game.Result.SECOND_WIN: (loss, win),
        Game.Result.DRAW: (draw, draw),
    }
    return marks.get(result, ("", ""))


def game_marks(
    *,
    game: Game,
    tournament: Tournament,
    settings: ScoringSettings,
    effects: dict[tuple[int, int | None], Any],
) -> tuple[tuple[str, str], bool]:
    """A game's marks, the first placer's first, as every page shows them: the result's,
    or where a penalty of Art. 12.4 d, e, f touches the game the points each side counts
    after it, marked * (what the crosstable's cells show): one source for all pages."""
    counted, penalized = game_result_counted(game=game, tournament=tournament, effects=effects)
    if not penalized or not counted:
        return result_marks(counted, settings), penalized
    mine, theirs = (
        effects.get((game.pk, game.first_id), ()),
        effects.get((game.pk, game.second_id), ()),
    )
    # The result before penalties: game_points applies the battle declared lost itself.
    out = FIRST_OUTCOME[Game.Result(game.result or counted)]
    _, first = game_points(out, settings, mine, theirs)
    _, second = game_points(OPPOSITE[out], settings, theirs, mine)
    return (f"{points_shown(first)}*", f"{points_shown(second)}*"), True


@dataclass(frozen=True)
class Side:
    """One player of a pairing as the pairings list shows them."""

    id: int
    name: str
    start_rank: int | None
    rating: int
    points: str  # before the round


@dataclass(frozen=True)
class PairingRow:
    """One board of a round: its game, both sides, the result's marks (what counts for the
    standings, `penalized` when a penalty of Art. 12.4 d, e, f decided it) and, for a bye,
    the points it gives."""

    game: Game
    first: Side
    second: Side | None
    marks: tuple[str, str]
    penalized: bool
    bye_points: str


def _side(player: Player, regs: dict[int, tuple[int | None, int]], scores: dict[int, str]) -> Side:
    start_rank, rating = regs.get(player.pk, (None, player.rating))
    return Side(player.pk, player.name, start_rank, rating, scores.get(player.pk, "0"))


def round_pairing_rows(*, tournament: Tournament, round: Round) -> list[PairingRow]:
    """The round's boards as chess-results lists them, in a number of queries that does not
    grow with the boards (`round` comes from `round_list`, its games prefetched)."""
    regs = {
        pid: (rank, rating)
        for pid, rank, rating in Registration.objects.filter(tournament=tournament).values_list(
            "player_id", "start_rank", "rating"
        )
    }
    shown = points_formatter()
    scores: dict[int, str] = {}
    if round.number > 1:
        # From the standings every page of this version shares: a result of this round
        # changes the version, never these scores.
        now = standings_compute(tournament=tournament)
        scores = {pid: shown(x) for pid, x in scores_after(now, round.number - 1).items()}
    settings = scoring_settings(tournament=tournament)
    effects = penalty_effects(tournament=tournament)
    rows = []
    for g in round.games.all():
        bye = ""
        marks, penalized = ("", ""), False
        if g.kind == Game.Kind.GAME and g.second is not None:
            marks, penalized = game_marks(
                game=g, tournament=tournament, settings=settings, effects=effects
            )
        elif g.bye_points is not None:
            bye = points_shown(float(g.bye_points))
        elif g.kind == Game.Kind.BYE:
            bye = points_shown(settings.bye)
        elif g.kind == Game.Kind.REQUESTED_BYE:
            bye = points_shown(settings.requested_bye)
        rows.append(
            PairingRow(
                g,
                _side(g.first, regs, scores),
                _side(g.second, regs, scores) if g.second is not None else None,
                marks,
                penalized,
                bye,
            )
        )
    return rows


def rounds_published(*, tournament: Tournament) -> QuerySet[Round]:
    """The published rounds in order, without their games (round_list's, for a page that
    only names them)."""
    return tournament.rounds.exclude(status=Round.Status.DRAFT)


@dataclass(frozen=True)
class PlayerGame:
    """One of a player's games from their side: placed first or not, the opponent, and the
    marks (theirs first)."""

    game: Game
    placed_first: bool
    opponent: Player | None
    marks: tuple[str, str]
    penalized: bool


def player_games(*, player: Player) -> QuerySet[Game]:
    """A player's games in published rounds, their events' newest first."""
    return (
        Game.objects.filter(Q(first=player) | Q(second=player))
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round__tournament", "first", "second")
        .order_by("-round__tournament__start_date", "round__number")
    )


def round_own_boards(*, user_id: int, slug: str, number: int) -> list[int]:
    """The boards of round `number` of the tournament `slug` where the player whose account
    is `user_id` sits (a bye's too), lowest first: what the pairings show them first."""
    return list(
        Game.objects.filter(round__tournament__slug=slug, round__number=number)
        .exclude(round__status=Round.Status.DRAFT)
        .filter(Q(first__user_id=user_id) | Q(second__user_id=user_id))
        .order_by("board")
        .values_list("board", flat=True)
    )


def player_game_rows(*, player: Player) -> list[PlayerGame]:
    """A player's games with their opponents and results; the penalties are read once per
    tournament, not per game."""
    effects: dict[int, Any] = {}
    settings: dict[int, ScoringSettings] = {}
    rows = []
    for g in player_games(player=player):
        t = g.round.tournament
        if t.pk not in effects:
            effects[t.pk] = penalty_effects(tournament=t)
            settings[t.pk] = scoring_settings(tournament=t)
        first = g.first_id == player.pk
        opponent = g.second if first else g.first
        marks, penalized = ("", ""), False
        if g.kind == Game.Kind.GAME and g.second_id is not None:
            marks, penalized = game_marks(
                game=g, tournament=t, settings=settings[t.pk], effects=effects[t.pk]
            )
            if not first:
                marks = (marks[1], marks[0])
        rows.append(PlayerGame(g, first, opponent, marks, penalized))
    return rows


VERSION_SQL = (
    f"SELECT id, published_version FROM {Tournament._meta.db_table} WHERE slug = %s LIMIT 1"
)
# The same by id: what klinzha_site.page_cache checks a served page's freshness with.
VERSION_BY_ID_SQL = f"SELECT published_version FROM {Tournament._meta.db_table} WHERE id = %s"


def tournament_version_get(*, slug: str) -> tuple[int, int] | None:
    """A tournament's id and the version its published pages are cached under (bumped by
    every service that changes what they show, `services.common.published_version_bump`); None when
    there is no such tournament. One query."""
    # Plain SQL: this is most of what a cached page costs, and the ORM's compiling of it
    # took twice as long as the database's answer.
    with connection.cursor() as cursor:
        cursor.execute(VERSION_SQL, [slug])
        row = cursor.fetchone()
    return (row[0], row[1]) if row is not None else None


# The audit trail's head (SEQ:HASH of the last entry; NULL before any) of the tournament `t`:
# a record, a signature or a clock adjustment extends the trail without changing the version.
_AUDIT_HEAD_SQL = (
    "(SELECT CAST(a.seq AS VARCHAR(12)) || ':' || a.hash "
    f"FROM {AuditEntry._meta.db_table} a WHERE a.tournament_id = t.id "
    "ORDER BY a.seq DESC LIMIT 1)"
)
AUDITED_VERSION_SQL = (
    f"SELECT t.id, t.published_version, {_AUDIT_HEAD_SQL} "
    f"FROM {Tournament._meta.db_table} t WHERE t.slug = %s LIMIT 1"
)
# The same by id: a served page's validator, as VERSION_BY_ID_SQL.
AUDITED_VERSION_BY_ID_SQL = (
    f"SELECT t.published_version, {_AUDIT_HEAD_SQL} FROM {Tournament._meta.db_table} t "
    "WHERE t.id = %s"
)


def tournament_audited_version_get(*, slug: str) -> tuple[int, int, str | None] | None:
    """tournament_version_get for the pages that also publish the audit trail's head (the
    tournament's page, its crosstable JSON): its id, version and head (SEQ:HASH, None before
    any entry). One query."""
    with connection.cursor() as cursor:
        cursor.execute(AUDITED_VERSION_SQL, [slug])
        row = cursor.fetchone()
    return (row[0], row[1], row[2]) if row is not None else None


def tournament_page_scope(pk: int) -> str:
    """What a tournament's published pages are versions of, in the page cache."""
    return f"t{pk}"


def tournament_page_version_get(*, slug: str, audited: bool = False) -> PageVersion | None:
    """The version of a tournament's published page (its id and version, and the audit
    trail's head when the page shows it), with the validator that checks it still holds;
    None when there is no such tournament. One query. A worker renders these pages ahead
    when the version changes (KZ_PAGE_PRERENDER)."""
    if audited:
        found = tournament_audited_version_get(slug=slug)
        if found is None:
            return None
        pk, number, head = found
        return PageVersion(
            scope=tournament_page_scope(pk),
            stamp=f"t{pk}:v{number}:a{head or '-'}",
            number=number,
            validator=(AUDITED_VERSION_BY_ID_SQL, (pk,), (number, head)),
            prerender=True,
        )
    plain = tournament_version_get(slug=slug)
    if plain is None:
        return None
    pk, number = plain
    return PageVersion(
        scope=tournament_page_scope(pk),
        stamp=f"t{pk}:v{number}",
        number=number,
        validator=(VERSION_BY_ID_SQL, (pk,), (number,)),
        prerender=True,
    )


# What a player's page shows of them and of their events, in one row (plain SQL, as above).
# The events' part as a derived table of one row: PostgreSQL plans it in a twentieth of the
# time a GROUP BY over the four tables took. Its parameters: the player's id, twice.
PLAYER_VERSION_SQL = (
    "SELECT p.name, p.club_id, c.name, p.federation, p.rating, v.s, v.n, v.m "
    f"FROM {Player._meta.db_table} p "
    f"LEFT JOIN {Club._meta.db_table} c ON c.id = p.club_id "
    "CROSS JOIN (SELECT COALESCE(SUM(t.published_version), 0) "
    # Every close and re-rating of any pool: the page shows ratings and idle deviations.
    f"+ (SELECT COALESCE(SUM(rp.ratings_version), 0) FROM {RatingPeriod._meta.db_table} rp) "
    "AS s, COUNT(r.id) AS n, "
    f"MAX(r.tournament_id) AS m FROM {Registration._meta.db_table} r "
    f"JOIN {Tournament._meta.db_table} t ON t.id = r.tournament_id "
    "WHERE r.player_id = %s) v WHERE p.id = %s"
)


def player_version_get(*, pk: int) -> PageVersion | None:
    """What a player's public page shows, summed up: their own row and club, and the
    versions of every event they entered (an opponent's name or a result there changes that
    event's version; versions only grow, so their sum does too, and orders the page's
    versions). None when there is no such player. One query (PLAYER_VERSION_SQL, which
    checks it still holds)."""
    with connection.cursor() as cursor:
        cursor.execute(PLAYER_VERSION_SQL, [pk, pk])
        row = cursor.fetchone()
    if row is None:
        return None
    digest = hashlib.blake2b(repr(tuple(row)).encode(), digest_size=10).hexdigest()
    return PageVersion(
        scope=f"p{pk}",
        stamp=f"p{pk}:{digest}",
        number=int(row[5]),
        validator=(PLAYER_VERSION_SQL, (pk, pk), tuple(row)),
        number_at=5,
    )
