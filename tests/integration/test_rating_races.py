"""Rating periods closed under concurrency, on PostgreSQL with real threads: a close while a
result of the period is corrected, and two closes of the same period at once, end (after the
run a close queues) with the ratings a serial history gives, each period closed once."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.audit import Action
from tournaments.models import AuditEntry, BattleRating, Game, PoolRating, RatingPeriod, Round
from tournaments.rating_page_selectors import pool_fingerprint
from tournaments.rating_selectors import pool_battles
from tournaments.ratings.glicko import Rating
from tournaments.ratings.history import Standing, pool_recompute
from tournaments.ratings.pools import DEFAULT_SETTINGS, period_of
from tournaments.services import ratings as rating_services
from tournaments.services.ratings import (
    pool_ratings_recompute,
    rating_period_close,
    ratings_run,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SEP = dt.datetime(2025, 9, 10, 18, tzinfo=dt.UTC)
OCT = dt.datetime(2025, 10, 10, 18, tzinfo=dt.UTC)
WIN, DRAW, LOSS = Game.Result.FIRST_WIN, Game.Result.DRAW, Game.Result.SECOND_WIN


def played(t, pairs, when, results) -> list[Game]:  # type: ignore[no-untyped-def]
    rnd = round_make(t, pairs)
    Round.objects.filter(pk=rnd.pk).update(starts_at=when)
    games = list(rnd.games.order_by("board"))
    for game, result in zip(games, results, strict=True):
        services.game_result_set(game=game, result=result)
    return games


@pytest.fixture
def season():  # type: ignore[no-untyped-def]
    """Six players, three battles in September 2025, three in October; a staff account."""
    t, p = event_make(officials_make(), names=("Ann", "Bob", "Cid", "Dax", "Eve", "Fay"))
    sep = played(t, [(p[0], p[1]), (p[2], p[3]), (p[4], p[5])], SEP, [WIN, DRAW, LOSS])
    octo = played(t, [(p[0], p[2]), (p[1], p[4]), (p[3], p[5])], OCT, [LOSS, WIN, DRAW])
    staff = get_user_model().objects.create_user("staff", password="pw-staff-12345", is_staff=True)
    return sep, octo, staff


def stored() -> dict[int, Standing]:
    return {
        r.player_id: Standing(
            Rating(r.rating, r.deviation, r.volatility), r.games, r.last_period.label
        )
        for r in PoolRating.objects.filter(pool="laws").select_related("last_period")
    }


def serial() -> dict[int, Standing]:
    """The pool rated from the stored results one closed period after the other, in one
    thread: each player as of the last period they played in."""
    battles = pool_battles(pool="laws").rated
    periods = RatingPeriod.objects.filter(pool="laws").exclude(closed_at=None)
    history = [
        (p.label, [d.battle for d in battles if period_of(day=d.day, kind="month") == p.label])
        for p in periods
    ]
    last: dict[int, Standing] = {}
    for result in pool_recompute(periods=history, settings=DEFAULT_SETTINGS):
        for pid, standing in result.standings.items():
            if standing.last_period == result.label:
                last[pid] = standing
    return last


def together(*jobs: Callable[[], object]) -> list[object]:
    """Run the jobs in threads released at once; what each returned or raised."""
    barrier = threading.Barrier(len(jobs))
    done: list[object] = [None] * len(jobs)

    def worker(i: int) -> None:
        barrier.wait()
        try:
            done[i] = jobs[i]()
        except Exception as exc:  # noqa: BLE001 - the test reads what each thread met
            done[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)
    return done


def slow_reads(monkeypatch, seconds: float) -> None:  # type: ignore[no-untyped-def]
    """The close's read of a period's battles takes `seconds` longer: the other thread's
    write lands while a close is between its read and its write."""
    real = rating_services.pool_battles

    def slow(**kwargs):  # type: ignore[no-untyped-def]
        found = real(**kwargs)
        time.sleep(seconds)
        return found

    monkeypatch.setattr(rating_services, "pool_battles", slow)


def closed_once() -> None:
    """Each period closed exactly once, by one audit entry (the run after closes the empty
    months since October too)."""
    periods = list(RatingPeriod.objects.filter(pool="laws").exclude(closed_at=None))
    assert [p.label for p in periods][:2] == ["2025-09", "2025-10"]
    assert [p.sequence for p in periods] == list(
        range(periods[0].sequence, periods[-1].sequence + 1)
    )
    closes = AuditEntry.objects.filter(action=Action.RATING_PERIOD_CLOSED)
    assert sorted(e.object_id for e in closes) == sorted(str(p.pk) for p in periods)


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.3])
def test_a_close_while_a_result_is_corrected_ends_as_serial(season, monkeypatch, delay) -> None:  # type: ignore[no-untyped-def]
    sep, _, staff = season
    slow_reads(monkeypatch, delay)
    closing, correcting = together(
        lambda: rating_period_close(pool="laws", label="2025-10", user=staff),
        lambda: services.game_result_set(game=sep[1], result=WIN),
    )
    assert not isinstance(closing, Exception), closing
    assert not isinstance(correcting, Exception), correcting
    # What the close queues on commit: the run finds a correction it missed and re-rates.
    ratings_run(pool="laws")
    closed_once()
    assert BattleRating.objects.get(game=sep[1]).first_score == 1.0
    assert stored() == serial()
    raced = pool_fingerprint(pool="laws")
    pool_ratings_recompute(pool="laws")
    assert pool_fingerprint(pool="laws") == raced


@pytest.mark.parametrize("delay", [0.0, 0.2])
def test_two_closes_at_once_close_each_period_once(season, monkeypatch, delay) -> None:  # type: ignore[no-untyped-def]
    _, _, staff = season
    slow_reads(monkeypatch, delay)
    first, second = together(
        lambda: rating_period_close(pool="laws", label="2025-10", user=staff),
        lambda: rating_period_close(pool="laws", label="2025-10", user=staff),
    )
    # One closes both periods, or each closes some; a late one may find it already closed.
    for outcome in (first, second):
        assert isinstance(outcome, list) or "already closed" in str(outcome), outcome
    ratings_run(pool="laws")
    closed_once()
    assert stored() == serial()
    raced = pool_fingerprint(pool="laws")
    pool_ratings_recompute(pool="laws")
    assert pool_fingerprint(pool="laws") == raced


def test_a_sweep_and_a_close_by_hand_at_once(season, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    _, octo, staff = season
    slow_reads(monkeypatch, 0.1)
    outcomes = together(
        lambda: ratings_run(pool="laws"),
        lambda: rating_period_close(pool="laws", label="2025-10", user=staff),
        lambda: services.game_result_set(game=octo[2], result=LOSS),
    )
    assert not any(isinstance(o, Exception) and "already closed" not in str(o) for o in outcomes)
    ratings_run(pool="laws")
    closed_once()
    assert stored() == serial()
