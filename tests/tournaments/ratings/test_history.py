"""A pool's history: determinism to the last bit, idle growth, closing one period after
another, and each battle's change adding up to the period's."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.ratings.glicko import Outcome, Rating, rating_update
from tournaments.ratings.history import (
    RatedBattle,
    period_rate,
    pool_recompute,
    standings_fingerprint,
)
from tournaments.ratings.pools import DEFAULT_SETTINGS

Periods = list[tuple[str, list[RatedBattle]]]


def random_history(seed: int, *, players: int, periods: int, battles: int) -> Periods:
    """`periods` periods of up to `battles` battles among `players` players, from `seed`."""
    rng = random.Random(seed)
    history: Periods = []
    number = 0
    for p in range(periods):
        rows = []
        for _ in range(rng.randint(0, battles)):
            white, black = rng.sample(range(1, players + 1), 2)
            number += 1
            rows.append(RatedBattle(number, white, black, rng.choice((0.0, 0.5, 1.0))))
        history.append((f"2026-{p + 1:02d}", rows))
    return history


def final(history: Periods) -> dict:
    *_, last = pool_recompute(periods=history, settings=DEFAULT_SETTINGS)
    return last.standings


seeds = st.integers(min_value=0, max_value=2**32 - 1)


@given(seed=seeds)
def test_the_same_history_gives_the_same_ratings_to_the_last_bit(seed: int) -> None:
    history = random_history(seed, players=12, periods=6, battles=20)
    first, second = final(history), final(list(history))
    assert standings_fingerprint(first) == standings_fingerprint(second)
    assert first == second


@given(seed=seeds)
def test_closing_period_by_period_is_the_recompute(seed: int) -> None:
    history = random_history(seed, players=10, periods=5, battles=15)
    standings: dict = {}
    for label, battles in history:
        standings = period_rate(
            standings=standings, label=label, battles=battles, settings=DEFAULT_SETTINGS
        ).standings
    assert standings_fingerprint(standings) == standings_fingerprint(final(history))


@given(seed=seeds)
def test_the_order_within_a_period_changes_nothing_but_rounding(seed: int) -> None:
    # Glicko-2 treats a period's battles as simultaneous; only the float additions' order
    # differs, which is why the stored order is fixed (date, then battle id).
    history = random_history(seed, players=8, periods=3, battles=12)
    shuffled = [(label, random.Random(seed).sample(rows, len(rows))) for label, rows in history]
    a, b = final(history), final(shuffled)
    assert a.keys() == b.keys()
    for pid in a:
        assert math.isclose(a[pid].rating.rating, b[pid].rating.rating, abs_tol=1e-9)
        assert math.isclose(a[pid].rating.deviation, b[pid].rating.deviation, abs_tol=1e-9)


@given(seed=seeds)
def test_each_battles_changes_add_up_to_each_players_period_change(seed: int) -> None:
    (label, battles), *_ = random_history(seed, players=6, periods=1, battles=15)
    result = period_rate(standings={}, label=label, battles=battles, settings=DEFAULT_SETTINGS)
    totals: dict[int, float] = {}
    for b, change in zip(battles, result.changes, strict=True):
        assert change.battle == b.battle
        totals[b.white] = totals.get(b.white, 0.0) + change.white_change
        totals[b.black] = totals.get(b.black, 0.0) + change.black_change
    for pid, total in totals.items():
        assert math.isclose(total, result.standings[pid].rating.rating - 1500, abs_tol=1e-6)


def test_a_player_idle_in_a_period_keeps_the_rating_and_grows_the_deviation() -> None:
    history = [
        ("2026-01", [RatedBattle(1, 1, 2, 1.0), RatedBattle(2, 3, 4, 0.5)]),
        ("2026-02", [RatedBattle(3, 1, 2, 0.0)]),
    ]
    results = list(pool_recompute(periods=history, settings=DEFAULT_SETTINGS))
    jan, feb = results[0].standings, results[1].standings
    assert set(feb) == {1, 2, 3, 4}
    idle = feb[3]
    assert idle.rating.rating == jan[3].rating.rating
    assert idle.rating.volatility == jan[3].rating.volatility
    expected = rating_update(player=jan[3].rating, outcomes=[], tau=0.5, ceiling=350)
    assert idle.rating.deviation == expected.deviation > jan[3].rating.deviation
    assert (idle.games, idle.last_period) == (1, "2026-01")
    assert (feb[1].games, feb[1].last_period) == (2, "2026-02")


def test_a_player_is_rated_against_the_opponents_rating_at_the_periods_start() -> None:
    history = [
        ("2026-01", [RatedBattle(1, 1, 2, 1.0)]),
        ("2026-02", [RatedBattle(2, 1, 3, 1.0), RatedBattle(3, 3, 2, 0.5)]),
    ]
    jan, feb = (r.standings for r in pool_recompute(periods=history, settings=DEFAULT_SETTINGS))
    newcomer = Rating(1500, 350, 0.06)
    one = rating_update(
        player=jan[1].rating, outcomes=[Outcome(newcomer, 1.0)], tau=0.5, ceiling=350
    )
    three = rating_update(
        player=newcomer,
        outcomes=[Outcome(jan[1].rating, 0.0), Outcome(jan[2].rating, 0.5)],
        tau=0.5,
        ceiling=350,
    )
    assert (feb[1].rating, feb[3].rating) == (one, three)


@pytest.mark.parametrize(
    ("battle", "error"),
    [
        (RatedBattle(7, 1, 1, 1.0), "battle 7: a player cannot be rated against themself"),
        (RatedBattle(8, 1, 2, 2.0), "battle 8: score 2.0 is not 1, 0.5 or 0"),
    ],
)
def test_a_battle_that_cannot_be_rated_is_named(battle: RatedBattle, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        period_rate(standings={}, label="2026-01", battles=[battle], settings=DEFAULT_SETTINGS)
