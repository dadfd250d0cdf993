"""Glicko-2 against Glickman's "Example of the Glicko-2 system", to the digits he prints."""

from __future__ import annotations

import math
import random

import pytest

from tournaments.ratings.glicko import (
    SCALE,
    Outcome,
    Rating,
    battle_changes,
    expected,
    g,
    grown_deviation,
    new_volatility,
    rating_step,
    rating_update,
    rating_with_changes,
)

# The example: a player rated 1500, RD 200, σ 0.06 plays three opponents in one period,
# τ = 0.5: wins against 1400 (RD 30), loses to 1550 (RD 100) and to 1700 (RD 300).
PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = ((1400, 30), (1550, 100), (1700, 300))
SCORES = (1, 0, 0)
OUTCOMES = [Outcome(Rating(r, rd, 0.06), s) for (r, rd), s in zip(OPPONENTS, SCORES, strict=True)]


def truncated(x: float, digits: int) -> str:
    """x cut (not rounded) to `digits` decimals: Glickman prints σ' = 0.059996 as 0.05999."""
    return f"{math.floor(x * 10**digits) / 10**digits:.{digits}f}"


def test_step_2_converts_to_the_glicko2_scale() -> None:
    s = rating_step(player=PLAYER, outcomes=OUTCOMES, tau=0.5)
    assert s.mu == 0
    assert round(s.phi, 4) == 1.1513
    assert [round((r - 1500) / SCALE, 4) for r, _ in OPPONENTS] == [-0.5756, 0.2878, 1.1513]
    assert [round(rd / SCALE, 4) for _, rd in OPPONENTS] == [0.1727, 0.5756, 1.7269]


def test_step_3_g_and_e_as_printed() -> None:
    phis = [rd / SCALE for _, rd in OPPONENTS]
    mus = [(r - 1500) / SCALE for r, _ in OPPONENTS]
    assert [round(g(p), 4) for p in phis] == [0.9955, 0.9531, 0.7242]
    assert [round(expected(0.0, m, p), 3) for m, p in zip(mus, phis, strict=True)] == [
        0.639,
        0.432,
        0.303,
    ]


def test_steps_3_4_and_6_from_his_rounded_intermediates() -> None:
    # Glickman carries the rounded g and E of step 3 into v and Δ, so his printed v and Δ
    # are those of the rounded values; the same formulas on them give his digits.
    gs, es = (0.9955, 0.9531, 0.7242), (0.639, 0.432, 0.303)
    v = 1 / sum(gj * gj * ej * (1 - ej) for gj, ej in zip(gs, es, strict=True))
    total = sum(gj * (s - ej) for gj, ej, s in zip(gs, es, SCORES, strict=True))
    assert round(v, 4) == 1.7785
    assert round(v * total, 4) == -0.4834
    assert round(math.sqrt(1.1513**2 + 0.05999**2), 6) == 1.152862
    # And unrounded, the implementation's v and Δ lie within that rounding of his.
    s = rating_step(player=PLAYER, outcomes=OUTCOMES, tau=0.5)
    assert abs(s.v - 1.7785) < 0.001
    assert abs(s.delta - -0.4834) < 0.001


def test_step_5_volatility_from_his_printed_values() -> None:
    sigma = new_volatility(sigma=0.06, phi=1.1513, v=1.7785, delta=-0.4834, tau=0.5)
    assert truncated(sigma, 5) == "0.05999"


def test_steps_5_to_8_the_new_rating() -> None:
    s = rating_step(player=PLAYER, outcomes=OUTCOMES, tau=0.5)
    assert truncated(s.sigma, 5) == "0.05999"
    assert round(s.new_phi, 4) == 0.8722
    assert round(s.new_mu, 4) == -0.2069
    # Step 8 as printed: r' from the rounded μ', RD' from the rounded φ'.
    assert round(SCALE * round(s.new_mu, 4) + 1500, 2) == 1464.06
    assert round(SCALE * round(s.new_phi, 4), 2) == 151.52
    # Unrounded throughout, the rating is 1464.05 (the figure the glicko2 package's own test
    # gives for the example).
    assert round(s.result.rating, 2) == 1464.05
    assert round(s.result.deviation, 2) == 151.52


def test_an_idle_player_keeps_rating_and_volatility_and_grows_deviation() -> None:
    r = rating_update(player=PLAYER, outcomes=[], tau=0.5, ceiling=350)
    assert (r.rating, r.volatility) == (1500, 0.06)
    assert r.deviation == math.sqrt((200 / SCALE) ** 2 + 0.06**2) * SCALE
    assert round(r.deviation, 2) == 200.27


def test_growth_stops_at_an_unrated_players_deviation() -> None:
    assert grown_deviation(deviation=349.99, volatility=0.06, ceiling=350) == 350
    assert grown_deviation(deviation=350, volatility=0.06, ceiling=350) == 350


def test_a_win_raises_and_a_loss_lowers() -> None:
    opp = Rating(1500, 100, 0.06)
    win = rating_update(player=PLAYER, outcomes=[Outcome(opp, 1)], tau=0.5, ceiling=350)
    draw = rating_update(player=PLAYER, outcomes=[Outcome(opp, 0.5)], tau=0.5, ceiling=350)
    loss = rating_update(player=PLAYER, outcomes=[Outcome(opp, 0)], tau=0.5, ceiling=350)
    assert loss.rating < draw.rating < win.rating
    assert abs(draw.rating - 1500) < 1e-9


def test_battle_changes_add_up_to_the_periods_change() -> None:
    changes = battle_changes(player=PLAYER, outcomes=OUTCOMES, tau=0.5)
    assert len(changes) == 3
    assert changes[0] > 0 > changes[1]
    final = rating_update(player=PLAYER, outcomes=OUTCOMES, tau=0.5, ceiling=350)
    assert math.isclose(sum(changes), final.rating - 1500, abs_tol=1e-9)


@pytest.mark.parametrize("seed", range(20))
def test_each_battles_change_is_the_prefix_updates_difference_to_the_bit(seed: int) -> None:
    """rating_with_changes sums the prefixes as it goes: each prefix's rating is exactly
    rating_step's over that prefix, and the last is the period's update."""
    rng = random.Random(seed)
    player = Rating(rng.uniform(1000, 2200), rng.uniform(40, 350), rng.uniform(0.04, 0.08))
    outcomes = [
        Outcome(
            Rating(rng.uniform(1000, 2200), rng.uniform(40, 350), 0.06),
            rng.choice((0.0, 0.5, 1.0)),
        )
        for _ in range(rng.randint(1, 15))
    ]
    result, changes = rating_with_changes(player=player, outcomes=outcomes, tau=0.5)
    before = player.rating
    for k, change in enumerate(changes, start=1):
        prefix = rating_step(player=player, outcomes=outcomes[:k], tau=0.5).result
        assert prefix.rating - before == change
        before = prefix.rating
    assert result == rating_step(player=player, outcomes=outcomes, tau=0.5).result
