"""Rating periods through the services: closing by hand and once passed, who may close,
corrections after a close re-rating from their period on, the stored pool equal to the pure
recompute to the last bit, seeding snapshots, and a run cut short finished by the next."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import F
from django.test import override_settings

from tests.tournaments.services.factories import event_make, round_make
from tournaments import services
from tournaments.models import (
    AuditEntry,
    BattleRating,
    Game,
    PeriodRating,
    PoolRating,
    RatingBasis,
    RatingPeriod,
    Round,
    Tournament,
)
from tournaments.rating_selectors import (
    current_deviation,
    last_closed_sequence,
    pool_battles,
    seeding_ratings,
)
from tournaments.ratings.glicko import Rating
from tournaments.ratings.history import Standing, pool_recompute, standings_fingerprint
from tournaments.ratings.pools import DEFAULT_SETTINGS, period_of
from tournaments.services import ratings as rating_services
from tournaments.services.ratings import (
    pool_ratings_recompute,
    rating_period_close,
    rating_period_rerate_next,
    ratings_run,
)
from tournaments.tasks import rating_periods_sweep_task, ratings_run_task

SEP = dt.datetime(2025, 9, 10, 18, tzinfo=dt.UTC)
OCT = dt.datetime(2025, 10, 10, 18, tzinfo=dt.UTC)


def played(t, pairs, when, results):  # type: ignore[no-untyped-def]
    """A round of `pairs` scheduled `when` with `results` entered (None: left pending)."""
    rnd = round_make(t, pairs)
    Round.objects.filter(pk=rnd.pk).update(starts_at=when)
    games = list(rnd.games.order_by("board"))
    for game, result in zip(games, results, strict=True):
        if result is not None:
            services.game_result_set(game=game, result=result)
    return games


def stored() -> dict[int, Standing]:
    """The laws pool as stored, in the pure package's terms."""
    return {
        r.player_id: Standing(
            Rating(r.rating, r.deviation, r.volatility), r.games, r.last_period.label
        )
        for r in PoolRating.objects.filter(pool="laws").select_related("last_period")
    }


def pure() -> dict[int, Standing]:
    """The laws pool recomputed by the pure package from the stored results, up to the last
    closed period, players as of their last period played."""
    battles = pool_battles(pool="laws").rated
    periods = list(RatingPeriod.objects.filter(pool="laws").exclude(closed_at=None))
    history = [
        (p.label, [d.battle for d in battles if period_of(day=d.day, kind="month") == p.label])
        for p in periods
    ]
    last_seen: dict[int, Standing] = {}
    for result in pool_recompute(periods=history, settings=DEFAULT_SETTINGS):
        for pid, standing in result.standings.items():
            if standing.last_period == result.label:
                last_seen[pid] = standing
    return last_seen


@pytest.fixture
def staff(db):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user("staff", password="pw-staff-12345", is_staff=True)


@pytest.fixture
def season(officials):  # type: ignore[no-untyped-def]
    """Ann, Bob, Cid, Dax: two battles in September 2025, two in October."""
    t, (ann, bob, cid, dax) = event_make(officials)
    sep = played(t, [(ann, bob), (cid, dax)], SEP, [Game.Result.FIRST_WIN, Game.Result.DRAW])
    octo = played(t, [(ann, cid), (bob, dax)], OCT, [Game.Result.SECOND_WIN, Game.Result.FIRST_WIN])
    return t, (ann, bob, cid, dax), sep, octo


def test_closing_by_hand_rates_the_period_and_audits_it(season, staff) -> None:  # type: ignore[no-untyped-def]
    t, (ann, bob, cid, dax), sep, _ = season
    closed = rating_period_close(pool="laws", label="2025-09", user=staff)
    assert [p.label for p in closed] == ["2025-09"]
    period = closed[0]
    assert (period.closed_by, period.closed_with_pending, period.ratings_version) == (staff, 0, 1)
    assert set(PeriodRating.objects.filter(period=period).values_list("player_id", flat=True)) == {
        ann.pk,
        bob.pk,
        cid.pk,
        dax.pk,
    }
    win = BattleRating.objects.get(game=sep[0])
    assert (win.first_score, win.first_id, win.second_id) == (1.0, ann.pk, bob.pk)
    assert win.first_change > 0 > win.second_change
    assert BattleRating.objects.get(game=sep[1]).first_score == 0.5
    assert stored() == pure()
    entry = AuditEntry.objects.filter(tournament=None).order_by("-seq").first()
    assert (entry.action, entry.actor, entry.after["period"], entry.after["battles"]) == (
        "rating.period_closed",
        "staff",
        "2025-09",
        2,
    )


def test_closing_a_later_period_closes_those_before_it(season, staff) -> None:  # type: ignore[no-untyped-def]
    closed = rating_period_close(pool="laws", label="2025-10", user=staff)
    assert [p.label for p in closed] == ["2025-09", "2025-10"]
    assert stored() == pure()


@pytest.mark.parametrize(
    ("label", "error"),
    [
        ("2025-9", "a month period is written like 2026-11"),
        ("2099-01", "period 2099-01 is not over yet"),
    ],
)
def test_a_period_that_cannot_be_closed_is_refused(season, staff, label, error) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValidationError, match=error):
        rating_period_close(pool="laws", label=label, user=staff)
    with pytest.raises(ValidationError, match="no rating pool 'chess'"):
        rating_period_close(pool="chess", label="2025-09", user=staff)


def test_a_closed_period_is_not_closed_twice(season, staff) -> None:  # type: ignore[no-untyped-def]
    rating_period_close(pool="laws", label="2025-09", user=staff)
    with pytest.raises(ValidationError, match="2025-09 is already closed"):
        rating_period_close(pool="laws", label="2025-09", user=staff)


def test_who_may_close_by_hand(season, officials, staff) -> None:  # type: ignore[no-untyped-def]
    """Staff and rating officers; not the event's organizer, chief arbiter or arbiters."""
    for user in (officials.organizer, officials.chief, officials.arbiter, officials.stranger):
        with pytest.raises(PermissionDenied):
            rating_period_close(pool="laws", label="2025-09", user=user)
    officer = get_user_model().objects.create_user("officer", password="pw-officer-12345")
    officer.user_permissions.add(Permission.objects.get(codename="close_ratingperiod"))
    officer = get_user_model().objects.get(pk=officer.pk)  # the permission cache anew
    assert [p.label for p in rating_period_close(pool="laws", label="2025-09", user=officer)]
    assert RatingPeriod.objects.get(pool="laws", label="2025-09").closed_by == officer


def test_the_sweep_closes_passed_periods_in_order(season) -> None:  # type: ignore[no-untyped-def]
    summary = ratings_run(pool="laws")
    assert summary.closed[:2] == ["2025-09", "2025-10"]
    # Every month since is closed too, empty: the players' deviations grow in each.
    today = dt.datetime.now(dt.UTC).date()
    last = period_of(day=today.replace(day=1) - dt.timedelta(days=1), kind="month")
    assert summary.closed[-1] == last
    assert stored() == pure()
    assert ratings_run(pool="laws").closed == []


def test_an_idle_players_deviation_grows_by_each_closed_period(season) -> None:  # type: ignore[no-untyped-def]
    t, (ann, *_), _, _ = season
    rating_period_close(pool="laws", label="2025-09", user=None)
    row = PoolRating.objects.select_related("last_period").get(pool="laws", player=ann)
    now = current_deviation(row=row, closed_sequence=last_closed_sequence(pool="laws"), ceiling=350)
    assert now == row.deviation
    rating_period_close(pool="laws", label="2025-12", user=None)
    row = PoolRating.objects.select_related("last_period").get(pool="laws", player=ann)
    later = current_deviation(
        row=row, closed_sequence=last_closed_sequence(pool="laws"), ceiling=350
    )
    assert row.last_period.label == "2025-10"
    assert later > row.deviation


@override_settings(KZ_RATING_FORCED_CLOSE_DAYS=100000)
def test_a_pending_result_holds_the_automatic_close(officials) -> None:  # type: ignore[no-untyped-def]
    t, (ann, bob, cid, dax) = event_make(officials)
    played(t, [(ann, bob), (cid, dax)], SEP, [Game.Result.FIRST_WIN, None])
    assert ratings_run(pool="laws").closed == []
    with override_settings(KZ_RATING_FORCED_CLOSE_DAYS=14):
        assert ratings_run(pool="laws").closed[0] == "2025-09"
    period = RatingPeriod.objects.get(pool="laws", label="2025-09")
    assert period.closed_with_pending == 1
    assert BattleRating.objects.count() == 1


def test_a_result_corrected_after_the_close_re_rates_from_its_period_on(season, staff) -> None:  # type: ignore[no-untyped-def]
    t, players, sep, _ = season
    rating_period_close(pool="laws", label="2025-10", user=staff)
    ratings_run(pool="laws")  # the check notes each event's version
    before = stored()
    services.game_result_set(game=sep[1], result=Game.Result.FIRST_WIN)  # was a draw
    summary = ratings_run(pool="laws")
    assert summary.marked >= 2 and summary.rerated[:2] == ["2025-09", "2025-10"]
    assert BattleRating.objects.get(game=sep[1]).first_score == 1.0
    assert stored() == pure() != before
    sep_period = RatingPeriod.objects.get(pool="laws", label="2025-09")
    assert (sep_period.ratings_version, sep_period.needs_rating) == (2, False)
    assert AuditEntry.objects.filter(tournament=None, action="rating.period_rerated").count() >= 2


def test_a_pending_result_confirmed_after_a_forced_close_re_rates(officials, staff) -> None:  # type: ignore[no-untyped-def]
    t, (ann, bob, cid, dax) = event_make(officials)
    games = played(t, [(ann, bob), (cid, dax)], SEP, [Game.Result.FIRST_WIN, None])
    rating_period_close(pool="laws", label="2025-09", user=staff)
    assert not PoolRating.objects.filter(player=cid).exists()
    services.game_result_set(game=games[1], result=Game.Result.SECOND_WIN)
    ratings_run(pool="laws")
    assert PoolRating.objects.filter(player=cid).exists()
    assert stored() == pure()


def test_recompute_gives_the_same_ratings_to_the_last_bit(season, staff) -> None:  # type: ignore[no-untyped-def]
    rating_period_close(pool="laws", label="2025-10", user=staff)
    first = standings_fingerprint(stored())
    changes = list(BattleRating.objects.values_list("game_id", "first_change", "second_change"))
    pool_ratings_recompute(pool="laws")
    assert standings_fingerprint(stored()) == first == standings_fingerprint(pure())
    assert list(BattleRating.objects.values_list("game_id", "first_change", "second_change")) == (
        changes
    )


def test_a_run_cut_short_is_finished_by_the_next(season, staff) -> None:  # type: ignore[no-untyped-def]
    rating_period_close(pool="laws", label="2025-10", user=staff)
    whole = standings_fingerprint(stored())
    RatingPeriod.objects.filter(pool="laws").update(needs_rating=True)
    assert rating_period_rerate_next(pool="laws").label == "2025-09"
    # The worker stops here: September is rated again, October still marked.
    assert RatingPeriod.objects.get(pool="laws", label="2025-10").needs_rating
    assert ratings_run(pool="laws").rerated[0] == "2025-10"
    assert standings_fingerprint(stored()) == whole


def test_a_correction_committed_while_a_close_runs_is_found_after(
    season, staff, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """The close reads September's battles, then a correction lands before it stores them:
    the close rates what it read, and the next check finds the difference and re-rates."""
    t, players, sep, _ = season
    real = rating_services.pool_battles
    corrected = []

    def read_then_correct(**kwargs):  # type: ignore[no-untyped-def]
        found = real(**kwargs)
        if not corrected:
            corrected.append(services.game_result_set(game=sep[1], result=Game.Result.SECOND_WIN))
        return found

    monkeypatch.setattr(rating_services, "pool_battles", read_then_correct)
    rating_period_close(pool="laws", label="2025-09", user=staff)
    monkeypatch.setattr(rating_services, "pool_battles", real)
    assert BattleRating.objects.get(game=sep[1]).first_score == 0.5  # the draw it read
    ratings_run(pool="laws")
    assert BattleRating.objects.get(game=sep[1]).first_score == 0.0
    assert stored() == pure()


def test_seeding_takes_the_pool_rating_once_it_is_not_provisional(officials) -> None:  # type: ignore[no-untyped-def]
    t, (ann, bob, cid, dax) = event_make(officials)  # declared 2000, 1900, 1800, 1700
    sep = RatingPeriod.objects.create(
        pool="laws",
        label="2025-09",
        sequence=2025 * 12 + 8,
        starts_on=dt.date(2025, 9, 1),
        ends_before=dt.date(2025, 10, 1),
        closed_at=SEP,
    )
    settled = PoolRating.objects.create(
        pool="laws", player=ann, rating=1712.6, deviation=80, volatility=0.06, last_period=sep
    )
    PoolRating.objects.create(
        pool="laws", player=bob, rating=1401, deviation=200, volatility=0.06, last_period=sep
    )
    newcomer = services.player_create(name="Eve", rating=0)
    fresh = services.player_create(name="Fay", rating=0)
    PoolRating.objects.create(
        pool="laws", player=fresh, rating=1555.5, deviation=250, volatility=0.06, last_period=sep
    )
    seeds = seeding_ratings(tournament=t, players=[ann, bob, newcomer, fresh])
    assert seeds == {
        ann.pk: (1713, RatingBasis.POOL),
        bob.pk: (1900, RatingBasis.DECLARED),
        newcomer.pk: (0, ""),
        fresh.pk: (1556, RatingBasis.PROVISIONAL),
    }
    # Idle long enough, a settled rating is provisional again: the declared one seeds.
    settled.deviation = 109.9
    settled.save()
    RatingPeriod.objects.create(
        pool="laws",
        label="2025-10",
        sequence=2025 * 12 + 9,
        starts_on=dt.date(2025, 10, 1),
        ends_before=dt.date(2025, 11, 1),
        closed_at=OCT,
    )
    assert seeding_ratings(tournament=t, players=[ann])[ann.pk] == (2000, RatingBasis.DECLARED)


def test_registration_and_the_re_sort_take_the_snapshot(officials) -> None:  # type: ignore[no-untyped-def]
    t, (ann, bob, cid, dax) = event_make(officials)
    assert t.registrations.get(player=ann).rating_basis == RatingBasis.DECLARED
    sep = RatingPeriod.objects.create(
        pool="laws",
        label="2025-09",
        sequence=2025 * 12 + 8,
        starts_on=dt.date(2025, 9, 1),
        ends_before=dt.date(2025, 10, 1),
        closed_at=SEP,
    )
    PoolRating.objects.create(
        pool="laws", player=dax, rating=2301, deviation=60, volatility=0.06, last_period=sep
    )
    services.start_ranks_sort(tournament=t, user=officials.arbiter)
    reg = t.registrations.get(player=dax)
    assert (reg.rating, reg.rating_basis, reg.start_rank) == (2301, RatingBasis.POOL, 1)
    t2, _ = event_make(officials, slug="next-open", names=("Gus",))
    reg = services.registration_create(tournament=t2, player=dax)
    assert (reg.rating, reg.rating_basis, reg.start_rank) == (2301, RatingBasis.POOL, 1)


def test_the_tasks_take_the_pools_name_and_run_the_service(season) -> None:  # type: ignore[no-untyped-def]
    done = ratings_run_task("laws")
    assert done["closed"][:2] == ["2025-09", "2025-10"] and done["rerated"] == []
    assert ratings_run_task("laws") == {"marked": 0, "rerated": [], "closed": []}
    assert rating_periods_sweep_task() == 0


def test_a_battle_re_dated_into_a_later_period_moves_its_row(season, staff) -> None:  # type: ignore[no-untyped-def]
    """September's round moved to November after September closed: November's close rates
    its battles there (their rows leave September's), and the run re-rates September."""
    t, players, sep, _ = season
    rating_period_close(pool="laws", label="2025-09", user=staff)
    nov = dt.datetime(2025, 11, 12, 18, tzinfo=dt.UTC)
    Round.objects.filter(pk=sep[0].round_id).update(starts_at=nov)
    Tournament.objects.filter(pk=t.pk).update(published_version=F("published_version") + 1)
    rating_period_close(pool="laws", label="2025-11", user=staff)
    moved = BattleRating.objects.filter(game__in=sep).values_list("period__label", flat=True)
    assert set(moved) == {"2025-11"}
    ratings_run(pool="laws")
    assert not BattleRating.objects.filter(period__label="2025-09").exists()
    assert stored() == pure()
