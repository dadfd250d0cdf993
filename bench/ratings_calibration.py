"""How well the ratings predict (issue 25 item 1): players of known strength (a true rating
that drifts a little each period) play random opponents over many periods; before each
period closes, every battle's expected score is predicted by Glicko-2 (as rated here), by
plain Elo (K = 20, updated after each battle) and by no rating at all (a coin: ½). Prints
the accuracy (the favourite won; a draw counts half, an even call half) and the log-loss of
each (draws scored ½), over the periods after a warm-up. No Django, no database.

    python bench/ratings_calibration.py [--players 400] [--periods 36] [--games 4] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournaments.ratings.glicko import SCALE, g  # noqa: E402
from tournaments.ratings.history import RatedBattle, Standing, period_rate  # noqa: E402
from tournaments.ratings.pools import DEFAULT_SETTINGS  # noqa: E402

DRAW_SHARE = 0.15  # of the battles between equals; fewer as the gap grows
ELO_K = 20.0


def true_score(a: float, b: float) -> float:
    """The expected score of strength a against b (the logistic of the Elo scale)."""
    return 1.0 / (1.0 + 10 ** (-(a - b) / 400.0))


def glicko_expected(me: Standing | None, them: Standing | None) -> float:
    """Glicko's expected score of one rating against another, both deviations counted."""
    fresh = (1500.0, 350.0)
    r1, d1 = (me.rating.rating, me.rating.deviation) if me else fresh
    r2, d2 = (them.rating.rating, them.rating.deviation) if them else fresh
    phi = math.sqrt(d1 * d1 + d2 * d2) / SCALE
    return 1.0 / (1.0 + math.exp(-g(phi) * (r1 - r2) / SCALE))


@dataclass
class Tally:
    """Accuracy and log-loss of one predictor."""

    hits: float = 0.0
    loss: float = 0.0
    n: int = 0
    seen: list[float] = field(default_factory=list)

    def add(self, p: float, score: float) -> None:
        p = min(max(p, 1e-9), 1 - 1e-9)
        self.loss -= score * math.log(p) + (1 - score) * math.log(1 - p)
        if score == 0.5 or p == 0.5:
            self.hits += 0.5
        else:
            self.hits += float((p > 0.5) == (score == 1.0))
        self.n += 1

    def line(self, name: str) -> str:
        return f"{name:<22} accuracy {self.hits / self.n:6.3f}   log-loss {self.loss / self.n:6.4f}"


def battle(rng: random.Random, a: float, b: float) -> float:
    """The first player's score: a draw now and then, else a win by the true odds."""
    p = true_score(a, b)
    if rng.random() < DRAW_SHARE * (1 - abs(2 * p - 1)):
        return 0.5
    return 1.0 if rng.random() < p else 0.0


def run(players: int, periods: int, games: int, seed: int, warmup: int) -> dict[str, Tally]:
    rng = random.Random(seed)
    strength = {i: rng.gauss(1500, 300) for i in range(1, players + 1)}
    elo = dict.fromkeys(strength, 1500.0)
    standings: dict[int, Standing] = {}
    tallies = {"Glicko-2": Tally(), "Elo (K = 20)": Tally(), "no rating (coin)": Tally()}
    number = 0
    for period in range(periods):
        rows = []
        ids = list(strength)
        for _ in range(players * games // 2):
            a, b = rng.sample(ids, 2)
            number += 1
            score = battle(rng, strength[a], strength[b])
            if period >= warmup:
                tallies["Glicko-2"].add(glicko_expected(standings.get(a), standings.get(b)), score)
                tallies["Elo (K = 20)"].add(true_score(elo[a], elo[b]), score)
                tallies["no rating (coin)"].add(0.5, score)
            expected = true_score(elo[a], elo[b])
            elo[a] += ELO_K * (score - expected)
            elo[b] -= ELO_K * (score - expected)
            rows.append(RatedBattle(number, a, b, score))
        standings = period_rate(
            standings=standings,
            label=f"p{period}",
            battles=rows,
            settings=DEFAULT_SETTINGS,
            with_changes=False,
        ).standings
        for i in strength:  # the true strengths drift
            strength[i] += rng.gauss(0, 15)
    return tallies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--periods", type=int, default=36)
    parser.add_argument("--games", type=int, default=4, help="battles per player per period")
    parser.add_argument("--warmup", type=int, default=6, help="periods not scored")
    parser.add_argument("--seed", type=int, default=1)
    o = parser.parse_args()
    tallies = run(o.players, o.periods, o.games, o.seed, o.warmup)
    print(
        f"{o.players} players, {o.periods} periods ({o.warmup} of warm-up not scored), "
        f"{o.games} battles each per period, seed {o.seed}:"
    )
    for name, tally in tallies.items():
        print("  " + tally.line(name))


if __name__ == "__main__":
    main()
