"""Glicko-2 for one player and one rating period, step by step as Glickman's "Example of the
Glicko-2 system" writes it (steps 1 to 8), on plain floats."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

# Step 2's conversion factor between the Glicko scale and the Glicko-2 scale.
SCALE = 173.7178
CENTRE = 1500.0
# Step 5's convergence tolerance, Glickman's value.
EPSILON = 0.000001


class Rating(NamedTuple):
    """A rating on the Glicko scale: rating r, deviation RD, volatility σ. Named tuples
    rather than frozen dataclasses here and in ratings.history: a pool of 100,000 players
    makes millions of them, and a tuple is built several times faster."""

    rating: float
    deviation: float
    volatility: float


class Outcome(NamedTuple):
    """One battle seen from the player's side: the opponent's pre-period rating and the
    score (1 a win, 0.5 a draw, 0 a loss)."""

    opponent: Rating
    score: float


class Step(NamedTuple):
    """Every quantity of one update on the Glicko-2 scale, for the worked example's digits."""

    mu: float
    phi: float
    v: float
    delta: float
    sigma: float
    phi_star: float
    new_phi: float
    new_mu: float
    result: Rating


def g(phi: float) -> float:
    """Step 3's g(φ): how much an opponent's uncertainty dampens the game's weight."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """Step 3's E(μ, μj, φj): the expected score against opponent j."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def new_volatility(*, sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: σ' by the Illinois algorithm, exactly as the example's items 1 to 5."""
    a = math.log(sigma * sigma)
    delta2, phi2, tau2 = delta * delta, phi * phi, tau * tau
    exp = math.exp

    def f(x: float) -> float:
        """Step 5's f(x), whose root is the log of the new volatility squared."""
        ex = exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def grown_deviation(*, deviation: float, volatility: float, ceiling: float) -> float:
    """Step 6 alone (a player idle in the period): φ* = √(φ² + σ²), on the Glicko scale,
    kept at most `ceiling` (an unrated player's deviation: nobody is less known than that)."""
    phi = deviation / SCALE
    return min(math.sqrt(phi * phi + volatility * volatility) * SCALE, ceiling)


def _term(mu: float, outcome: Outcome) -> tuple[float, float]:
    """One battle's terms of step 3's sum (v's inverse) and step 4's (Δ/v)."""
    opponent = outcome.opponent
    g_j = g(opponent.deviation / SCALE)
    e_j = 1.0 / (1.0 + math.exp(-g_j * (mu - (opponent.rating - CENTRE) / SCALE)))
    return g_j * g_j * e_j * (1.0 - e_j), g_j * (outcome.score - e_j)


def _finish(
    *, mu: float, phi: float, volatility: float, sums: tuple[float, float], tau: float
) -> Step:
    """Steps 3 to 8 from the sums over the period's battles (v's inverse, Δ/v)."""
    v_inverse, total = sums
    v = 1.0 / v_inverse
    delta = v * total
    sigma = new_volatility(sigma=volatility, phi=phi, v=v, delta=delta, tau=tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    result = Rating(new_mu * SCALE + CENTRE, new_phi * SCALE, sigma)
    return Step(mu, phi, v, delta, sigma, phi_star, new_phi, new_mu, result)


def rating_step(*, player: Rating, outcomes: Sequence[Outcome], tau: float) -> Step:
    """Steps 2 to 8 for a player who played `outcomes` in the period (at least one)."""
    mu = (player.rating - CENTRE) / SCALE
    phi = player.deviation / SCALE
    v_inverse = 0.0
    total = 0.0
    for outcome in outcomes:
        weight, term = _term(mu, outcome)
        v_inverse += weight
        total += term
    return _finish(mu=mu, phi=phi, volatility=player.volatility, sums=(v_inverse, total), tau=tau)


def rating_update(
    *, player: Rating, outcomes: Sequence[Outcome], tau: float, ceiling: float
) -> Rating:
    """The player's rating after the period: updated by its battles, or (none) grown. Only
    an idle player's growth stops at `ceiling`: Glicko-2's step 6 before an update has none,
    and a player's deviation after any battle is far below an unrated player's."""
    if not outcomes:
        return Rating(
            player.rating,
            grown_deviation(
                deviation=player.deviation, volatility=player.volatility, ceiling=ceiling
            ),
            player.volatility,
        )
    return rating_step(player=player, outcomes=outcomes, tau=tau).result


def battle_changes(*, player: Rating, outcomes: Sequence[Outcome], tau: float) -> list[float]:
    """What each battle adds to the rating, in order: the rating after the first k battles
    minus the rating after the first k-1 (the period's total is their sum, exactly the change
    the close makes up to the rounding of the additions)."""
    return rating_with_changes(player=player, outcomes=outcomes, tau=tau)[1]


def rating_with_changes(
    *, player: Rating, outcomes: Sequence[Outcome], tau: float
) -> tuple[Rating, list[float]]:
    """The rating after the period's battles (at least one) and what each added in order
    (battle_changes): the last prefix is the whole period, so its update is the rating."""
    # The sums of the first k battles grow by one term each: added in the same order as
    # rating_step adds them, so each prefix's update is the same to the last bit, without
    # summing every prefix again (a player's k battles cost k terms, not k²/2).
    mu = (player.rating - CENTRE) / SCALE
    phi = player.deviation / SCALE
    changes = []
    before = player.rating
    result = player
    v_inverse = 0.0
    total = 0.0
    for outcome in outcomes:
        weight, term = _term(mu, outcome)
        v_inverse += weight
        total += term
        step = _finish(
            mu=mu, phi=phi, volatility=player.volatility, sums=(v_inverse, total), tau=tau
        )
        result = step.result
        changes.append(result.rating - before)
        before = result.rating
    return result, changes
