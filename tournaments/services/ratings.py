"""Rating periods: closing one (by hand, or once passed), finding results corrected after a
close and rating their periods again, and recomputing a pool; one transaction per period,
under the pool's lock, so that a worker stopped half-way leaves whole periods behind."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext

from klinzha_site.tasking import task_send
from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, audit_site_append
from tournaments.models import (
    BattleRating,
    PeriodRating,
    PoolRating,
    RatedEventVersion,
    RatingPeriod,
    RatingPool,
    Tournament,
)
from tournaments.rating_selectors import (
    PoolBattles,
    pool_battles,
    pool_first_day,
    pool_settings,
    pool_state_before,
    pool_tournaments,
)
from tournaments.ratings.history import PeriodResult, Standing, period_rate
from tournaments.ratings.pools import (
    POOLS,
    PoolSettings,
    period_bounds,
    period_index,
    period_label,
    period_of,
    pool_check,
)
from tournaments.roles import user_is_rating_officer
from tournaments.services.bulk_rows import rows_delete, rows_insert
from tournaments.services.common import (
    acting_account,
    published_version_bump,
    values_per_query,
)

# The task a close by hand queues (on commit) for what it leaves to do, and the sweep's.
RATINGS_RUN_TASK = "tournaments.ratings_run"
RATINGS_SWEEP_TASK = "tournaments.rating_periods_sweep"


def rating_pool_lock(pool: str) -> RatingPool:
    """The pool's row, locked: closes, re-ratings and the corrections' check of one pool
    run one at a time (a check waits for a close in progress, and then sees what it rated)."""
    RatingPool.objects.get_or_create(pool=pool)
    return RatingPool.objects.select_for_update().get(pool=pool)


def _period_row(*, pool: str, index: int, conf: PoolSettings) -> RatingPeriod:
    """The pool's period numbered `index`, made (open) when it has no row yet."""
    label = period_label(index=index, kind=conf.period)
    start, end = period_bounds(label=label, kind=conf.period)
    period, _ = RatingPeriod.objects.get_or_create(
        pool=pool,
        sequence=index,
        defaults={"label": label, "kind": conf.period, "starts_on": start, "ends_before": end},
    )
    return period


@dataclass(frozen=True, slots=True)
class Rated:
    """What rating one period found: the pool's state at its start, its battles and what
    they gave."""

    before: dict[int, Standing]
    battles: PoolBattles
    result: PeriodResult


def _chunks(ids: list[int]) -> Iterable[list[int]]:
    size = min(values_per_query(), 5000)
    for i in range(0, len(ids), size):
        yield ids[i : i + size]


def _pool_ratings_read(*, pool: str, player_ids: set[int]) -> list[tuple[Any, ...]]:
    """The pool-rating rows of players from their latest period played, read back."""
    found = []
    for chunk in _chunks(sorted(player_ids)):
        rows = (
            PeriodRating.objects.filter(period__pool=pool, player_id__in=chunk)
            .order_by("player_id", "-period__sequence")
            .values_list("player_id", "period_id", "rating", "deviation", "volatility", "games")
        )
        seen: set[int] = set()
        for pid, period_id, rating, deviation, volatility, games in rows:
            if pid not in seen:
                seen.add(pid)
                found.append((pool, pid, rating, deviation, volatility, games, period_id))
    return found


def _pool_ratings_refresh(*, period: RatingPeriod, rated: Rated, old: set[int]) -> None:
    """Each player's pool rating from their latest period played (none when none is): for
    those who played in `period` and in no later one, what was just rated (the close of the
    pool's newest period: no read back); for the others (a re-rating), read back."""
    pool = period.pool
    played = set(rated.result.standings) & {
        p for d in rated.battles.rated for p in (d.battle.white, d.battle.black)
    }
    later = set(
        PeriodRating.objects.filter(period__pool=pool, period__sequence__gt=period.sequence)
        .values_list("player_id", flat=True)
        .distinct()
    )
    fresh = played - later
    rows = [
        (pool, pid, s.rating.rating, s.rating.deviation, s.rating.volatility, s.games, period.pk)
        for pid in sorted(fresh)
        for s in (rated.result.standings[pid],)
    ]
    rows += _pool_ratings_read(pool=pool, player_ids=(old | played) - fresh)
    rows_delete(model=PoolRating, field="player_id", values=sorted(old | played), pool=pool)
    rows_insert(model=PoolRating, fields=POOL_RATING_FIELDS, rows=rows)


POOL_RATING_FIELDS = (
    "pool",
    "player_id",
    "rating",
    "deviation",
    "volatility",
    "games",
    "last_period_id",
)
PERIOD_RATING_FIELDS = (
    "period_id",
    "player_id",
    "rating_before",
    "deviation_before",
    "rating",
    "deviation",
    "volatility",
    "played",
    "games",
)
BATTLE_RATING_FIELDS = (
    "period_id",
    "game_id",
    "first_id",
    "second_id",
    "first_score",
    "first_change",
    "second_change",
)


def _period_rows(
    *, period: RatingPeriod, rated: Rated, conf: PoolSettings
) -> list[tuple[Any, ...]]:
    """The period's per-player rows: before and after, battles in it and so far."""
    played: dict[int, int] = {}
    for dated in rated.battles.rated:
        for pid in (dated.battle.white, dated.battle.black):
            played[pid] = played.get(pid, 0) + 1
    rows = []
    for pid in sorted(played):
        start = rated.before.get(pid)
        after = rated.result.standings[pid]
        rows.append(
            (
                period.pk,
                pid,
                start.rating.rating if start else conf.initial_rating,
                start.rating.deviation if start else conf.initial_deviation,
                after.rating.rating,
                after.rating.deviation,
                after.rating.volatility,
                played[pid],
                after.games,
            )
        )
    return rows


def _rows_store(*, period: RatingPeriod, rated: Rated, conf: PoolSettings) -> int | None:
    """Replace the period's per-player and per-battle rows with what `rated` found; the
    number of the earliest other period a battle of it was rated in before (None: none)."""
    old = set(PeriodRating.objects.filter(period=period).values_list("player_id", flat=True))
    # The events whose battles the period rated before (none before its first rating).
    events = _events_rated(period) if period.ratings_version else set()
    PeriodRating.objects.filter(period=period).delete()
    BattleRating.objects.filter(period=period).delete()
    rows_insert(
        model=PeriodRating,
        fields=PERIOD_RATING_FIELDS,
        rows=_period_rows(period=period, rated=rated, conf=conf),
    )
    # A battle a correction moved here from another period leaves its row there, and that
    # period (rated with it) is rated again, with those after it.
    moved_from = rows_delete(
        model=BattleRating,
        field="game_id",
        values=[d.battle.battle for d in rated.battles.rated],
        returning="period_id",
    )
    rows_insert(
        model=BattleRating,
        fields=BATTLE_RATING_FIELDS,
        rows=(
            (
                period.pk,
                d.battle.battle,
                d.battle.white,
                d.battle.black,
                d.battle.score,
                change.white_change,
                change.black_change,
            )
            for d, change in zip(rated.battles.rated, rated.result.changes, strict=True)
        ),
    )
    _pool_ratings_refresh(period=period, rated=rated, old=old)
    # Their crosstables and players' pages show each battle's change.
    events |= {d.tournament for d in rated.battles.rated}
    for tournament in Tournament.objects.filter(pk__in=events):
        published_version_bump(tournament)
    return (
        RatingPeriod.objects.filter(pk__in=moved_from).aggregate(first=Min("sequence"))["first"]
        if moved_from
        else None
    )


def _moved_mark(*, period: RatingPeriod, first: int | None) -> None:
    """After `period` is stored: the closed periods from number `first` on (a battle moved
    out of it into `period`) are rated again by the next run."""
    if first is not None:
        RatingPeriod.objects.filter(pool=period.pool, sequence__gte=first).exclude(
            closed_at=None
        ).update(needs_rating=True)


def _events_rated(period: RatingPeriod) -> set[int]:
    """The events with a battle rated in the period."""
    return set(
        BattleRating.objects.filter(period=period)
        .values_list("game__round__tournament_id", flat=True)
        .distinct()
    )


def _period_rate(*, period: RatingPeriod, conf: PoolSettings) -> Rated:
    """The period's battles rated from the pool's state at its start (nothing stored)."""
    battles = pool_battles(pool=period.pool, start=period.starts_on, end=period.ends_before)
    before = pool_state_before(period=period)
    result = period_rate(
        standings=before,
        label=period.label,
        battles=[d.battle for d in battles.rated],
        settings=conf,
    )
    return Rated(before, battles, result)


def _audit(*, period: RatingPeriod, rated: Rated, user: AnyUser | None, action: Action) -> None:
    audit_site_append(
        user=user,
        action=action,
        obj=period,
        after={
            "pool": period.pool,
            "period": period.label,
            "battles": len(rated.battles.rated),
            "players": len(
                {p for d in rated.battles.rated for p in (d.battle.white, d.battle.black)}
            ),
            "pending": len(rated.battles.pending),
            "version": period.ratings_version,
        },
    )


def _close(*, period: RatingPeriod, rated: Rated, conf: PoolSettings, user: AnyUser | None) -> None:
    """Store the rated period and mark it closed (by `user`; None, the system)."""
    moved = _rows_store(period=period, rated=rated, conf=conf)
    period.closed_at = timezone.now()
    period.closed_by = acting_account(user)
    period.closed_with_pending = len(rated.battles.pending)
    period.needs_rating = False
    period.ratings_version += 1
    period.save()
    _moved_mark(period=period, first=moved)
    _audit(period=period, rated=rated, user=user, action=Action.RATING_PERIOD_CLOSED)


def _next_open_index(*, pool: str, conf: PoolSettings) -> int | None:
    """The number of the pool's next period to close: the one after the last closed, or the
    period of its earliest battle; None when the pool has no battle yet."""
    last = (
        RatingPeriod.objects.filter(pool=pool)
        .exclude(closed_at=None)
        .order_by("-sequence")
        .values_list("sequence", flat=True)
        .first()
    )
    if last is not None:
        return last + 1
    first = pool_first_day(pool=pool)
    if first is None:
        return None
    return period_index(label=period_of(day=first, kind=conf.period), kind=conf.period)


def _today() -> dt.date:
    return timezone.now().astimezone(dt.UTC).date()


@transaction.atomic
def _close_one(
    *, pool: str, upto: int | None, force: bool, user: AnyUser | None
) -> RatingPeriod | None:
    """Close the pool's next period (one transaction) when it has ended and, unless `force`,
    nothing in it is pending or its grace days have passed; None when none closes. `upto`
    bounds it (a close by hand closes the periods before the one it names first)."""
    rating_pool_lock(pool)
    conf = pool_settings(pool=pool)
    index = _next_open_index(pool=pool, conf=conf)
    if index is None or (upto is not None and index > upto):
        return None
    period = _period_row(pool=pool, index=index, conf=conf)
    today = _today()
    if period.ends_before > today:
        return None
    rated = _period_rate(period=period, conf=conf)
    grace = dt.timedelta(days=settings.KZ_RATING_FORCED_CLOSE_DAYS)
    if rated.battles.pending and not force and today < period.ends_before + grace:
        return None
    _close(period=period, rated=rated, conf=conf, user=user)
    return period


def rating_period_close(*, pool: str, label: str, user: AnyUser | None) -> list[RatingPeriod]:
    """Close a period by hand (staff or a rating officer; None, the system), with the pool's
    open periods before it first, each in its own transaction: closed even with a result
    pending (that result re-rates once it counts). Refused: a pool or period that cannot be
    read, a period not yet over, one already closed."""
    if not user_is_rating_officer(user):
        raise PermissionDenied(gettext("only staff and rating officers may close rating periods"))
    try:
        pool_check(pool)
    except ValueError as exc:
        raise ValidationError({"pool": str(exc)}) from None
    conf = pool_settings(pool=pool)
    try:
        index = period_index(label=label, kind=conf.period)
        _, end = period_bounds(label=label, kind=conf.period)
    except ValueError as exc:
        raise ValidationError({"period": str(exc)}) from None
    if end > _today():
        raise ValidationError(
            {"period": gettext("period %(period)s is not over yet") % {"period": label}}
        )
    if RatingPeriod.objects.filter(pool=pool, sequence=index).exclude(closed_at=None).exists():
        raise ValidationError(
            {"period": gettext("period %(period)s is already closed") % {"period": label}}
        )
    closed = []
    while (period := _close_one(pool=pool, upto=index, force=True, user=user)) is not None:
        closed.append(period)
    if not closed or closed[-1].sequence != index:
        # Nothing dated up to it: the period is closed as it stands, empty.
        closed.append(_close_empty(pool=pool, index=index, user=user))
    transaction.on_commit(lambda: task_send(RATINGS_RUN_TASK, pool))
    return closed


@transaction.atomic
def _close_empty(*, pool: str, index: int, user: AnyUser | None) -> RatingPeriod:
    """Close the period numbered `index` of a pool with no battle up to it."""
    rating_pool_lock(pool)
    conf = pool_settings(pool=pool)
    period = _period_row(pool=pool, index=index, conf=conf)
    if not period.is_closed:
        _close(period=period, rated=_period_rate(period=period, conf=conf), conf=conf, user=user)
    return period


def rating_periods_close_due(*, pool: str) -> list[RatingPeriod]:
    """Close, in order, every period of the pool that has passed with nothing pending (or
    whose grace days with a result pending have passed): the sweep's part."""
    closed = []
    while (period := _close_one(pool=pool, upto=None, force=False, user=None)) is not None:
        closed.append(period)
    return closed


# What a battle was rated as: its period's number, the two players, the first's score.
Fingerprint = tuple[int, int, int, float]


def _rated_now(
    *, pool: str, tournament: Tournament, end: dt.date, conf: PoolSettings
) -> dict[int, Fingerprint]:
    """The event's battles as they would be rated now, in periods ending by `end`."""
    found = pool_battles(pool=pool, end=end, tournaments=[tournament])
    return {
        d.battle.battle: (
            period_index(label=period_of(day=d.day, kind=conf.period), kind=conf.period),
            d.battle.white,
            d.battle.black,
            d.battle.score,
        )
        for d in found.rated
    }


def _rated_then(*, pool: str, tournament: Tournament) -> dict[int, Fingerprint]:
    """The event's battles as the pool's closed periods rated them."""
    rows = BattleRating.objects.filter(
        period__pool=pool, game__round__tournament=tournament
    ).values_list("game_id", "period__sequence", "first_id", "second_id", "first_score")
    return {game: (seq, first, second, score) for game, seq, first, second, score in rows}


def _earliest_change(
    *, pool: str, tournament: Tournament, end: dt.date, conf: PoolSettings
) -> int | None:
    """The number of the earliest period whose rated battles of the event differ from what
    was rated (a result corrected, confirmed late, penalised, re-dated), or None."""
    now = _rated_now(pool=pool, tournament=tournament, end=end, conf=conf)
    then = _rated_then(pool=pool, tournament=tournament)
    changed = [
        fp[0]
        for game in now.keys() | then.keys()
        if now.get(game) != then.get(game)
        for fp in (now.get(game), then.get(game))
        if fp is not None
    ]
    return min(changed, default=None)


def _periods_mark(*, pool: str, first: int, conf: PoolSettings) -> int:
    """Mark the pool's closed periods from number `first` on to be rated again; a period
    before the pool's first closed one is made (closed, with those between) to be rated."""
    closed = RatingPeriod.objects.filter(pool=pool).exclude(closed_at=None)
    lowest = closed.order_by("sequence").values_list("sequence", flat=True).first()
    if lowest is not None and first < lowest:
        for index in range(first, lowest):
            period = _period_row(pool=pool, index=index, conf=conf)
            period.closed_at = timezone.now()
            period.save(update_fields=["closed_at"])
    return closed.filter(sequence__gte=first).update(needs_rating=True)


@transaction.atomic
def rating_corrections_find(*, pool: str) -> int:
    """Compare each event of the pool whose published version moved since it was last
    compared with what the closed periods rated; mark the periods from the earliest that
    differs on to be rated again. How many periods were marked."""
    rating_pool_lock(pool)
    conf = pool_settings(pool=pool)
    last = (
        RatingPeriod.objects.filter(pool=pool).exclude(closed_at=None).order_by("-sequence").first()
    )
    if last is None:
        return 0
    seen = dict(RatedEventVersion.objects.filter(pool=pool).values_list("tournament_id", "version"))
    earliest: int | None = None
    for tournament in pool_tournaments(pool=pool):
        # The version read before the battles: a change committed in between is compared
        # again at the next check.
        version = Tournament.objects.values_list("published_version", flat=True).get(
            pk=tournament.pk
        )
        if seen.get(tournament.pk) == version:
            continue
        change = _earliest_change(pool=pool, tournament=tournament, end=last.ends_before, conf=conf)
        if change is not None:
            earliest = change if earliest is None else min(earliest, change)
        RatedEventVersion.objects.update_or_create(
            pool=pool, tournament=tournament, defaults={"version": version}
        )
    return 0 if earliest is None else _periods_mark(pool=pool, first=earliest, conf=conf)


@transaction.atomic
def rating_period_rerate_next(*, pool: str) -> RatingPeriod | None:
    """Rate again the pool's earliest closed period marked to be (one transaction): the
    periods after it follow, each from the state the one before leaves."""
    rating_pool_lock(pool)
    period = (
        RatingPeriod.objects.filter(pool=pool, needs_rating=True)
        .exclude(closed_at=None)
        .order_by("sequence")
        .first()
    )
    if period is None:
        return None
    conf = pool_settings(pool=pool)
    rated = _period_rate(period=period, conf=conf)
    moved = _rows_store(period=period, rated=rated, conf=conf)
    period.needs_rating = False
    period.ratings_version += 1
    period.save(update_fields=["needs_rating", "ratings_version"])
    _moved_mark(period=period, first=moved)
    _audit(period=period, rated=rated, user=None, action=Action.RATING_PERIOD_RERATED)
    return period


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What one run did to a pool."""

    marked: int
    rerated: list[str]
    closed: list[str]


def ratings_run(*, pool: str) -> RunSummary:
    """Everything the pool has due, each step its own transaction and safe to repeat: find
    corrections, rate the marked periods again in order, close the periods that are due."""
    pool_check(pool)
    marked = rating_corrections_find(pool=pool)
    rerated = []
    while (period := rating_period_rerate_next(pool=pool)) is not None:
        rerated.append(period.label)
    closed = [p.label for p in rating_periods_close_due(pool=pool)]
    # A result confirmed while the due periods closed is a correction for the next run.
    return RunSummary(marked, rerated, closed)


def ratings_sweep() -> dict[str, RunSummary]:
    """ratings_run for every pool (the beat schedule's)."""
    return {pool: ratings_run(pool=pool) for pool in POOLS}


def pool_ratings_recompute(*, pool: str) -> RunSummary:
    """Rate every closed period of the pool again from the stored results, in order (the
    same history gives the same ratings to the last bit), then whatever is due."""
    pool_check(pool)
    with transaction.atomic():
        rating_pool_lock(pool)
        RatingPeriod.objects.filter(pool=pool).exclude(closed_at=None).update(needs_rating=True)
    return ratings_run(pool=pool)
