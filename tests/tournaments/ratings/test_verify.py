"""ratings.verify on plain data: a history whose published ratings are what rating it gives
verifies; any rated result, day or published figure changed is a difference."""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

import pytest

from tournaments.ratings.history import RatedBattle, pool_recompute
from tournaments.ratings.pools import DEFAULT_SETTINGS
from tournaments.ratings.verify import HISTORY_FORMAT, HistoryError, history_verify

LABELS = ["2026-01", "2026-02", "2026-03", "2026-04"]


def history(seed: int) -> dict[str, Any]:
    """Random battles over four months (the third idle), published as rating them gives."""
    rng = random.Random(seed)
    results, periods, game = [], [], 0
    for label in LABELS:
        battles = []
        for _ in range(0 if label == "2026-03" else rng.randint(1, 12)):
            game += 1
            white, black = rng.sample(range(1, 9), 2)
            score = rng.choice((0.0, 0.5, 1.0))
            day = f"{label}-{rng.randint(1, 28):02d}"
            results.append(
                {"game": game, "first": white, "second": black, "rated_score": score, "day": day}
            )
            battles.append((day, RatedBattle(game, white, black, score)))
        periods.append((label, [b for _, b in sorted(battles, key=lambda d: (d[0], d[1].battle))]))
    latest = {}
    for (_, battles), result in zip(
        periods, pool_recompute(periods=periods, settings=DEFAULT_SETTINGS), strict=True
    ):
        for b in battles:
            latest[b.white] = result.standings[b.white]
            latest[b.black] = result.standings[b.black]
    return {
        "format": HISTORY_FORMAT,
        "pool": "laws",
        "settings": dataclasses.asdict(DEFAULT_SETTINGS),
        "periods": [{"label": label, "closed": True} for label in LABELS],
        "events": [{"results": results}],
        "published": [
            {
                "player": pid,
                "rating": s.rating.rating,
                "deviation": s.rating.deviation,
                "volatility": s.rating.volatility,
                "games": s.games,
                "last_period": s.last_period,
            }
            for pid, s in latest.items()
        ],
    }


@pytest.mark.parametrize("seed", range(5))
def test_a_true_history_verifies_and_a_changed_one_does_not(seed: int) -> None:
    body = history(seed)
    report = history_verify(body)
    assert report.ok and report.periods == 4 and report.battles == len(body["events"][0]["results"])
    for field, value in (("rated_score", None), ("day", "2026-05-01"), ("first", 99)):
        changed = copy.deepcopy(body)
        changed["events"][0]["results"][0][field] = value
        assert not history_verify(changed).ok, field
    changed = copy.deepcopy(body)
    changed["published"][0]["games"] += 1
    assert not history_verify(changed).ok


def test_an_unreadable_history_is_refused() -> None:
    body = history(0)
    for broken in (
        {},
        {**body, "settings": None},
        {**body, "periods": [{"label": "Jan", "closed": True}]},
    ):
        with pytest.raises(HistoryError):
            history_verify(broken)
