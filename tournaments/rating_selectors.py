"""Reads of the ratings: which battles a pool rates in a period (and which are pending), the
pool's state at a period's start, rating lists and a player's history."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Min, Q, QuerySet

from tournaments.models import (
    Game,
    PeriodRating,
    Player,
    PoolRating,
    RatingBasis,
    RatingPeriod,
    RatingPool,
    Registration,
    Round,
    Tournament,
)
from tournaments.ratings.glicko import Rating, grown_deviation
from tournaments.ratings.history import RatedBattle, Standing
from tournaments.ratings.pools import (
    DEFAULT_SETTINGS,
    PERIOD_MONTH,
    PoolSettings,
    is_provisional,
    pool_of_event,
)
from tournaments.selectors import (
    ROUND_ROBINS,
    battle_result_counted,
    penalty_effects,
    round_results,
)

# The formula's score of the first placer for each result rated; forfeits are not rated.
FIRST_SCORE: dict[str, float] = {
    Game.Result.FIRST_WIN: 1.0,
    Game.Result.SECOND_WIN: 0.0,
    Game.Result.DRAW: 0.5,
}


def tournament_pool(*, tournament: Tournament) -> str:
    """The pool the event's battles are rated in (ratings.pools.pool_of_event)."""
    return pool_of_event(ruleset=tournament.ruleset, variants=tournament.variants.split(","))


def pool_tournaments(*, pool: str) -> list[Tournament]:
    """The events rated in `pool`. The pool follows from each event's rules, so it is read
    here rather than stored: a handful of fields per event."""
    rows = Tournament.objects.only("id", "ruleset", "variants", "pairing_system")
    return [t for t in rows if tournament_pool(tournament=t) == pool]


def pool_settings(*, pool: str) -> PoolSettings:
    """A pool's defaults, with the period kind its row states (a month when it has none)."""
    kind = RatingPool.objects.filter(pool=pool).values_list("period_kind", flat=True).first()
    return PoolSettings(period=kind) if kind and kind != PERIOD_MONTH else DEFAULT_SETTINGS


def game_day(*, starts_at: dt.datetime | None, entered_at: dt.datetime | None) -> dt.date | None:
    """The day a battle is rated on: its round's scheduled date, else the day its result was
    entered (UTC); None when it has neither yet."""
    moment = starts_at or entered_at
    return None if moment is None else moment.astimezone(dt.UTC).date()


@dataclass(frozen=True, slots=True)
class DatedBattle:
    """A rated battle with the day that puts it in a period."""

    day: dt.date
    battle: RatedBattle
    # The event's id (0: not said).
    tournament: int = 0


@dataclass(frozen=True, slots=True)
class PoolBattles:
    """A stretch of a pool's battles: those rated, in their order (day, then game id), and the
    ids of those whose result does not count yet."""

    rated: list[DatedBattle]
    pending: list[int]


def _moment_range(field: str, start: dt.date | None, end: dt.date | None) -> Q:
    """Games whose `field` falls in [start, end) as UTC days."""
    q = Q()
    if start is not None:
        q &= Q(**{f"{field}__gte": dt.datetime.combine(start, dt.time(), tzinfo=dt.UTC)})
    if end is not None:
        q &= Q(**{f"{field}__lt": dt.datetime.combine(end, dt.time(), tzinfo=dt.UTC)})
    return q


def _annulled_pairs(*, tournament: Tournament) -> set[tuple[int, int]]:
    """(round, player) whose result a round robin keeps but does not count (a player who
    withdrew before half of their games: both sides of their games)."""
    if tournament.pairing_system not in ROUND_ROBINS:
        return set()
    results, _ = round_results(tournament=tournament)
    return {(r.round, r.player) for r in results if not r.counted}


# What rating reads of a battle (kind GAME with a second player: _battle_games).
_GAME_FIELDS = (
    "id",
    "round_id",
    "first_id",
    "second_id",
    "result",
    "result_entered_at",
    "result_confirmed_at",
)


def _tournament_battles(
    *,
    tournament: Tournament,
    start: dt.date | None,
    end: dt.date | None,
    into: PoolBattles,
    player_id: int | None = None,
) -> None:
    """Add the tournament's battles dated in [start, end) to `into` (of `player_id` only,
    when given)."""
    battles = _battle_games([tournament])
    if player_id is not None:
        battles = battles.filter(Q(first_id=player_id) | Q(second_id=player_id))
    games = battles.filter(
        _moment_range("round__starts_at", start, end) & ~Q(round__starts_at=None)
        | Q(round__starts_at=None)
        & ~Q(result_entered_at=None)
        & _moment_range("result_entered_at", start, end)
    ).values_list(*_GAME_FIELDS)
    game_list = list(games)
    if not game_list:
        return
    # The event's few rounds read once, not joined to each of its thousands of games.
    rounds = {
        pk: (number, starts_at)
        for pk, number, starts_at in Round.objects.filter(tournament=tournament).values_list(
            "pk", "number", "starts_at"
        )
    }
    effects = penalty_effects(tournament=tournament)
    annulled = _annulled_pairs(tournament=tournament)
    confirming = tournament.result_confirmation
    for pk, round_id, first, second, result, entered_at, confirmed_at in game_list:
        waiting = confirming and confirmed_at is None
        result, _ = battle_result_counted((pk, first, second), result, waiting, effects)
        if not result:
            into.pending.append(pk)
            continue
        score = FIRST_SCORE.get(result)
        number, starts_at = rounds[round_id]
        if score is None or (number, first) in annulled:
            continue
        day = game_day(starts_at=starts_at, entered_at=entered_at)
        assert day is not None  # the query's filter
        into.rated.append(DatedBattle(day, RatedBattle(pk, first, second, score), tournament.pk))


def pool_battles(
    *,
    pool: str,
    start: dt.date | None = None,
    end: dt.date | None = None,
    tournaments: list[Tournament] | None = None,
    player_id: int | None = None,
) -> PoolBattles:
    """The pool's battles dated in [start, end) (either bound open when None), of its events
    or of `tournaments` only, of one player's when `player_id` is given (their page reads
    theirs, not their events' thousands): the rated ones in their order, and those pending."""
    found = PoolBattles([], [])
    for tournament in pool_tournaments(pool=pool) if tournaments is None else tournaments:
        _tournament_battles(
            tournament=tournament, start=start, end=end, into=found, player_id=player_id
        )
    found.rated.sort(key=lambda d: (d.day, d.battle.battle))
    found.pending.sort()
    return found


def _battle_games(tournaments: list[Tournament]) -> QuerySet[Game]:
    return (
        Game.objects.filter(round__tournament__in=tournaments, kind=Game.Kind.GAME)
        .exclude(second=None)
        .exclude(round__status=Round.Status.DRAFT)
    )


def pool_first_day(*, pool: str) -> dt.date | None:
    """The day of the pool's earliest dated battle (rated or pending), None when none is."""
    games = _battle_games(pool_tournaments(pool=pool))
    scheduled = games.exclude(round__starts_at=None).aggregate(first=Min("round__starts_at"))
    entered = games.filter(round__starts_at=None).aggregate(first=Min("result_entered_at"))
    days = [
        game_day(starts_at=moment, entered_at=None)
        for moment in (scheduled["first"], entered["first"])
        if moment is not None
    ]
    return min((d for d in days if d is not None), default=None)


def pool_periods(*, pool: str) -> QuerySet[RatingPeriod]:
    return RatingPeriod.objects.filter(pool=pool).order_by("sequence")


def pool_state_before(*, period: RatingPeriod) -> dict[int, Standing]:
    """Every rated player's standing at the period's start: their last period played before
    it, their deviation grown once for each period closed since (as each close grows it)."""
    ceiling = pool_settings(pool=period.pool).initial_deviation
    rows = (
        PeriodRating.objects.filter(period__pool=period.pool, period__sequence__lt=period.sequence)
        .order_by("player_id", "-period__sequence")
        .values_list(
            "player_id",
            "period__sequence",
            "period__label",
            "rating",
            "deviation",
            "volatility",
            "games",
        )
    )
    state: dict[int, Standing] = {}
    for pid, sequence, label, rating, deviation, volatility, games in rows:
        if pid in state:
            continue
        for _ in range(period.sequence - sequence - 1):
            deviation = grown_deviation(deviation=deviation, volatility=volatility, ceiling=ceiling)
        state[pid] = Standing(Rating(rating, deviation, volatility), games, label)
    return state


def current_deviation(*, row: PoolRating, closed_sequence: int, ceiling: float) -> float:
    """A pool rating's deviation now: grown once per period closed after its last one."""
    deviation = row.deviation
    for _ in range(closed_sequence - row.last_period.sequence):
        deviation = grown_deviation(deviation=deviation, volatility=row.volatility, ceiling=ceiling)
    return deviation


def last_closed_sequence(*, pool: str) -> int:
    """The sequence of the pool's last closed period (-1: none closed)."""
    last = (
        RatingPeriod.objects.filter(pool=pool)
        .exclude(closed_at=None)
        .order_by("-sequence")
        .values_list("sequence", flat=True)
        .first()
    )
    return -1 if last is None else last


def seeding_ratings(
    *, tournament: Tournament, players: Sequence[Player]
) -> dict[int, tuple[int, str]]:
    """Each player's rating snapshot for seeding the event, and its basis: the current
    rating in the event's pool when it is not provisional; else the declared rating
    (Player.rating) when there is one; else the provisional pool rating; else 0."""
    pool = tournament_pool(tournament=tournament)
    conf = pool_settings(pool=pool)
    closed = last_closed_sequence(pool=pool)
    rows = {
        r.player_id: r
        for r in PoolRating.objects.filter(
            pool=pool, player_id__in=[p.pk for p in players]
        ).select_related("last_period")
    }
    found: dict[int, tuple[int, str]] = {}
    for player in players:
        row = rows.get(player.pk)
        deviation = (
            None
            if row is None
            else current_deviation(row=row, closed_sequence=closed, ceiling=conf.initial_deviation)
        )
        if (
            row is not None
            and deviation is not None
            and not is_provisional(deviation=deviation, settings=conf)
        ):
            found[player.pk] = (round(row.rating), RatingBasis.POOL)
        elif player.rating > 0:
            found[player.pk] = (player.rating, RatingBasis.DECLARED)
        elif row is not None:
            found[player.pk] = (round(row.rating), RatingBasis.PROVISIONAL)
        else:
            found[player.pk] = (0, "")
    return found


def entrant_rating_bases(*, tournament: Tournament) -> dict[int, str]:
    """Each entrant's rating basis by name (pool, declared or provisional rating), for the
    start list; an entrant whose rating has none (none at all, or entered before pools) is
    left out."""
    names = dict(RatingBasis.choices)
    rows = Registration.objects.filter(tournament=tournament).exclude(rating_basis="")
    return {
        pid: str(names.get(basis, basis))
        for pid, basis in rows.values_list("player_id", "rating_basis")
    }
