"""A pool's ratings from its ordered history: one period closed at a time, players who played
updated by Glicko-2 against their opponents' ratings at the period's start, everyone else in
the pool grown idle; the same history gives the same floats to the last bit."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import sqrt

from tournaments.ratings.glicko import (
    SCALE,
    Outcome,
    Rating,
    rating_update,
    rating_with_changes,
)
from tournaments.ratings.pools import PoolSettings

SCORES = (0.0, 0.5, 1.0)


@dataclass(frozen=True, slots=True)
class RatedBattle:
    """A battle that is rated: its id, the two players and the first player's score (win 1,
    draw ½, loss 0 for the formula, whatever the tournament points)."""

    battle: int
    white: int
    black: int
    score: float


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place in the pool after a close: rating, rated battles so far, the last
    period they played in."""

    rating: Rating
    games: int
    last_period: str


@dataclass(frozen=True, slots=True)
class BattleChange:
    """What one battle added to each player's rating, in the period's order."""

    battle: int
    white_change: float
    black_change: float


@dataclass(frozen=True, slots=True)
class PeriodResult:
    """A closed period: every standing in the pool after it, and each battle's changes."""

    label: str
    standings: dict[int, Standing]
    changes: list[BattleChange]


def battles_check(battles: Sequence[RatedBattle]) -> None:
    """ValueError naming the battle whose players or score cannot be rated."""
    for b in battles:
        if b.white == b.black:
            raise ValueError(f"battle {b.battle}: a player cannot be rated against themself")
        if b.score not in SCORES:
            raise ValueError(f"battle {b.battle}: score {b.score!r} is not 1, 0.5 or 0")


def _outcomes(
    *, battles: Sequence[RatedBattle], standings: Mapping[int, Standing], fresh: Rating
) -> dict[int, list[tuple[int, Outcome]]]:
    """Each player's (battle, outcome) in the period's order, against pre-period ratings
    (`fresh` for a player new to the pool)."""
    played: dict[int, list[tuple[int, Outcome]]] = {}
    get = standings.get
    for b in battles:
        white, black = get(b.white), get(b.black)
        white_rating = fresh if white is None else white.rating
        black_rating = fresh if black is None else black.rating
        played.setdefault(b.white, []).append((b.battle, Outcome(black_rating, b.score)))
        played.setdefault(b.black, []).append((b.battle, Outcome(white_rating, 1 - b.score)))
    return played


def _idle_grow(
    *,
    standings: Mapping[int, Standing],
    played: Mapping[int, object],
    ceiling: float,
    into: dict[int, Standing],
) -> None:
    """Every idle player's standing after the period into `into`: the deviation grown
    (Glicko-2 step 6; glicko.grown_deviation written out, the same operations, so the same
    bits: a large pool's players are mostly idle, and this runs for each every period). A
    deviation already at the ceiling stays as it is (the row `into` holds already)."""
    for pid, old in standings.items():
        if pid in played:
            continue
        rating, deviation, volatility = old.rating
        if deviation == ceiling:
            continue
        phi = deviation / SCALE
        grown = min(sqrt(phi * phi + volatility * volatility) * SCALE, ceiling)
        if grown != deviation:
            into[pid] = Standing(Rating(rating, grown, volatility), old.games, old.last_period)


def period_rate(
    *,
    standings: Mapping[int, Standing],
    label: str,
    battles: Sequence[RatedBattle],
    settings: PoolSettings,
    with_changes: bool = True,
) -> PeriodResult:
    """Close one period: the pool's standings after it and (with_changes) each battle's
    rating change for both players. Each player's update reads only pre-period ratings, so
    the order players are updated in changes no bit."""
    battles_check(battles)
    fresh = Rating(settings.initial_rating, settings.initial_deviation, settings.initial_volatility)
    played = _outcomes(battles=battles, standings=standings, fresh=fresh)
    ceiling = settings.initial_deviation
    # Everyone's standing as it was, the idle grown, then those who played updated.
    after: dict[int, Standing] = dict(standings)
    _idle_grow(standings=standings, played=played, ceiling=ceiling, into=after)
    per_battle: dict[tuple[int, int], float] = {}
    for pid in sorted(played):
        mine = played[pid]
        old = standings.get(pid)
        start = fresh if old is None else old.rating
        outcomes = [o for _, o in mine]
        if with_changes:
            new, deltas = rating_with_changes(player=start, outcomes=outcomes, tau=settings.tau)
            for (battle, _), delta in zip(mine, deltas, strict=True):
                per_battle[(battle, pid)] = delta
        else:
            new = rating_update(player=start, outcomes=outcomes, tau=settings.tau, ceiling=ceiling)
        after[pid] = Standing(new, (old.games if old else 0) + len(outcomes), label)
    changes = (
        [
            BattleChange(b.battle, per_battle[(b.battle, b.white)], per_battle[(b.battle, b.black)])
            for b in battles
        ]
        if with_changes
        else []
    )
    return PeriodResult(label, after, changes)


def pool_recompute(
    *,
    periods: Iterable[tuple[str, Sequence[RatedBattle]]],
    settings: PoolSettings,
    with_changes: bool = True,
) -> Iterator[PeriodResult]:
    """Each period's result in turn, from an empty pool, for the periods in their order."""
    standings: dict[int, Standing] = {}
    for label, battles in periods:
        result = period_rate(
            standings=standings,
            label=label,
            battles=battles,
            settings=settings,
            with_changes=with_changes,
        )
        standings = result.standings
        yield result


def standings_fingerprint(standings: Mapping[int, Standing]) -> str:
    """A digest of every standing to the last bit of its floats: equal digests, equal pools."""
    digest = hashlib.sha256()
    for pid in sorted(standings):
        s = standings[pid]
        r = s.rating
        floats = f"{r.rating.hex()} {r.deviation.hex()} {r.volatility.hex()}"
        digest.update(f"{pid} {floats} {s.games} {s.last_period}\n".encode())
    return digest.hexdigest()
