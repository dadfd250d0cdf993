"""What a pool rates: battles over the board whose result counts, dated by their round's
scheduled start or else the day the result was entered; forfeits, byes, drafts not."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import Game, Round
from tournaments.rating_selectors import game_day, pool_battles, tournament_pool
from tournaments.ratings.history import RatedBattle

NOV_20 = dt.datetime(2026, 11, 20, 18, 0, tzinfo=dt.UTC)


def result(game: Game, value: str) -> Game:
    return services.game_result_set(game=game, result=value)


def scheduled(rnd: Round, when: dt.datetime | None) -> None:
    Round.objects.filter(pk=rnd.pk).update(starts_at=when)


@pytest.fixture
def officials(db):  # type: ignore[no-untyped-def]
    return officials_make()


def test_the_day_is_the_rounds_date_else_the_results_entry_in_utc() -> None:
    late = dt.datetime(2026, 11, 30, 23, 30, tzinfo=dt.timezone(dt.timedelta(hours=-2)))
    assert game_day(starts_at=late, entered_at=None) == dt.date(2026, 12, 1)
    assert game_day(starts_at=None, entered_at=NOV_20) == dt.date(2026, 11, 20)
    assert game_day(starts_at=NOV_20, entered_at=late) == dt.date(2026, 11, 20)
    assert game_day(starts_at=None, entered_at=None) is None


@pytest.mark.django_db
def test_what_a_pool_rates(officials) -> None:  # type: ignore[no-untyped-def]
    t, (ann, bob, cid, dax, eve) = event_make(officials, names=("Ann", "Bob", "Cid", "Dax", "Eve"))
    one = round_make(t, [(ann, bob), (cid, dax), (eve, None)])
    scheduled(one, NOV_20)
    g1, g2, bye = one.games.order_by("board")
    result(g1, Game.Result.FIRST_WIN)
    result(g2, Game.Result.SECOND_FORFEIT_WIN)
    two = round_make(t, [(bob, cid), (dax, eve), (ann, None)])
    g3, g4, _ = two.games.order_by("board")
    result(g3, Game.Result.DRAW)  # no date: the day it was entered (today)
    found = pool_battles(pool="laws")
    today = dt.datetime.now(dt.UTC).date()
    assert [(d.day, d.battle) for d in found.rated] == sorted(
        [
            (dt.date(2026, 11, 20), RatedBattle(g1.pk, ann.pk, bob.pk, 1.0)),
            (today, RatedBattle(g3.pk, bob.pk, cid.pk, 0.5)),
        ]
    )
    # g4 has neither a date nor a result: in no period yet.
    assert found.pending == []
    assert pool_battles(pool="kinta").rated == []
    day = pool_battles(pool="laws", start=dt.date(2026, 11, 20), end=dt.date(2026, 11, 21))
    assert [d.battle.battle for d in day.rated] == [g1.pk]
    after = pool_battles(pool="laws", start=dt.date(2026, 11, 21))
    assert [d.battle.battle for d in after.rated] == [g3.pk]


@pytest.mark.django_db
def test_pending_unconfirmed_and_declared_lost(officials) -> None:  # type: ignore[no-untyped-def]
    t, (ann, bob, cid, dax) = event_make(officials, result_confirmation=True)
    one = round_make(t, [(ann, bob), (cid, dax)])
    scheduled(one, NOV_20)
    g1, g2 = one.games.order_by("board")
    services.game_result_set(game=g1, result=Game.Result.FIRST_WIN, user=officials.arbiter)
    found = pool_battles(pool="laws")
    assert (found.rated, found.pending) == ([], [g1.pk, g2.pk])
    services.game_result_countersign(game=g1, user=officials.arbiter2)
    # Art. 12.4 d: the battle declared lost for Cid decides the pending game for Dax.
    services.penalty_impose(
        tournament=t, player=cid, kind="battle_lost", reason="phone", user=officials.chief, game=g2
    )
    found = pool_battles(pool="laws")
    assert [d.battle for d in found.rated] == [
        RatedBattle(g1.pk, ann.pk, bob.pk, 1.0),
        RatedBattle(g2.pk, cid.pk, dax.pk, 0.0),
    ]
    assert found.pending == []


@pytest.mark.django_db
def test_a_draft_round_is_not_played(officials) -> None:  # type: ignore[no-untyped-def]
    t, (ann, bob, cid, dax) = event_make(officials)
    rnd = round_make(t, [(ann, bob), (cid, dax)], draft=True)
    scheduled(rnd, NOV_20)
    assert pool_battles(pool="laws") == pool_battles(pool="reflective")


@pytest.mark.django_db
def test_an_events_pool_follows_its_variants(officials) -> None:  # type: ignore[no-untyped-def]
    t, _ = event_make(officials, variants="clouded,kinta")
    assert tournament_pool(tournament=t) == "kinta"
    t2, _ = event_make(officials, slug="italian", ruleset="italian-society", names=("Zed", "Yan"))
    assert tournament_pool(tournament=t2) == "italian-society"
