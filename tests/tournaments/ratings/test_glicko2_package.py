"""The ratings against an independent implementation, the `glicko2` package (PyPI 2.1.0), on
random players and random periods.

That package's step 5 has a slip: its f(x) takes the player's μ² where Glickman's has φ²
(`self.__rating**2` in `_f`), so its volatilities, and through them ratings, drift from
Glickman's (up to 0.4 rating points in one period). The cross-check runs against the package
with only that line as Glickman writes it (`Corrected` below), to 1e-9. The package is a
development requirement (requirements-dev.txt); these tests skip only where it is not
installed."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.ratings.glicko import Outcome, Rating, rating_update
from tournaments.ratings.history import RatedBattle, pool_recompute
from tournaments.ratings.pools import DEFAULT_SETTINGS

glicko2 = pytest.importorskip("glicko2")


class Corrected(glicko2.Player):  # type: ignore[misc,name-defined]
    """The package's player with step 5's f(x) as Glickman writes it (φ², not μ²)."""

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        ex = math.exp(x)
        phi2 = self._Player__rd**2  # the package's private φ, name-mangled
        return ex * (delta**2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / (
            self._tau**2
        )


def package_update(cls: type, player: Rating, outcomes: list[Outcome]) -> Rating:
    p = cls(player.rating, player.deviation, player.volatility)
    if outcomes:
        p.update_player(
            [o.opponent.rating for o in outcomes],
            [o.opponent.deviation for o in outcomes],
            [o.score for o in outcomes],
        )
    else:
        p.did_not_compete()
    return Rating(p.rating, p.rd, p.vol)


def close(a: Rating, b: Rating, tol: float) -> bool:
    return (
        math.isclose(a.rating, b.rating, abs_tol=tol)
        and math.isclose(a.deviation, b.deviation, abs_tol=tol)
        and math.isclose(a.volatility, b.volatility, abs_tol=tol)
    )


def random_period(rng: random.Random) -> tuple[Rating, list[Outcome]]:
    player = Rating(rng.uniform(900, 2300), rng.uniform(30, 340), rng.uniform(0.03, 0.1))
    outcomes = [
        Outcome(
            Rating(rng.uniform(900, 2300), rng.uniform(30, 350), 0.06),
            rng.choice((0.0, 0.5, 1.0)),
        )
        for _ in range(rng.randint(0, 12))
    ]
    return player, outcomes


@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_one_period_against_the_corrected_package(seed: int) -> None:
    player, outcomes = random_period(random.Random(seed))
    ours = rating_update(player=player, outcomes=outcomes, tau=0.5, ceiling=350)
    assert close(ours, package_update(Corrected, player, outcomes), 1e-9)


def test_the_packages_slip_shows_away_from_1500() -> None:
    # Why the correction: the published package's volatility is not Glickman's.
    player = Rating(2100, 60, 0.06)
    outcomes = [Outcome(Rating(1400, 50, 0.06), 0.0)] * 6
    ours = rating_update(player=player, outcomes=outcomes, tau=0.5, ceiling=350)
    assert close(ours, package_update(Corrected, player, outcomes), 1e-9)
    assert not close(ours, package_update(glicko2.Player, player, outcomes), 1e-6)


@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_a_pools_random_periods_against_the_corrected_package(seed: int) -> None:
    rng = random.Random(seed)
    ids = list(range(1, 11))
    history = []
    number = 0
    for p in range(8):
        rows = []
        for _ in range(rng.randint(0, 14)):
            white, black = rng.sample(ids, 2)
            number += 1
            rows.append(RatedBattle(number, white, black, rng.choice((0.0, 0.5, 1.0))))
        history.append((f"2026-{p + 1:02d}", rows))
    *_, last = pool_recompute(periods=history, settings=DEFAULT_SETTINGS)

    # The package's way: every player of the pool updated once per period, from ratings
    # all taken at the period's start.
    known: dict[int, Rating] = {}
    for _, rows in history:
        start = dict(known)
        for b in rows:
            start.setdefault(b.white, Rating(1500, 350, 0.06))
            start.setdefault(b.black, Rating(1500, 350, 0.06))
        games: dict[int, list[Outcome]] = {}
        for b in rows:
            games.setdefault(b.white, []).append(Outcome(start[b.black], b.score))
            games.setdefault(b.black, []).append(Outcome(start[b.white], 1 - b.score))
        known = {pid: package_update(Corrected, r, games.get(pid, [])) for pid, r in start.items()}
    assert known.keys() == last.standings.keys()
    for pid, rating in known.items():
        assert close(last.standings[pid].rating, rating, 1e-9)
