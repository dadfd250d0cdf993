"""Swiss pairing speed and memory: rounds 2, 5 and 9 of simulated events of 100, 500, 1,000
and 5,000 players (issue 4's benchmark; the reference is bbpPairings' FIDE Dutch mode, about
8 s for 500 players and 25-40 s for 1,000 on these machines).

    python bench/pairing_bench.py [--players 100 500 1000 5000]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.pairing import PairingPlayer, pair_swiss  # noqa: E402


def simulate(n: int, rounds: int, seed: int = 1) -> dict[int, list[tuple[float, float, int]]]:
    rng = random.Random(seed)
    players = {i: PairingPlayer(i, i) for i in range(1, n + 1)}
    timings: dict[int, list[tuple[float, float, int]]] = {}
    for rnd in range(1, rounds + 1):
        present = list(players.values())
        tracemalloc.start()
        start = time.perf_counter()
        result = pair_swiss(present, round_number=rnd)
        elapsed = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        timings[rnd] = [(elapsed, peak / 2**20, len(result.warnings))]
        for p in result.pairings:
            a, b = players[p.first], players[p.second]
            outcome = rng.choices([1.0, 0.0, -0.5], weights=[45, 45, 10])[0]
            other = {1.0: 0.0, 0.0: 1.0, -0.5: -0.5}[outcome]
            players[a.id] = PairingPlayer(
                a.id,
                a.rank,
                a.score + outcome,
                0,
                a.opponents | {b.id},
                a.had_bye,
                a.placements + ("F",),
            )
            players[b.id] = PairingPlayer(
                b.id,
                b.rank,
                b.score + other,
                0,
                b.opponents | {a.id},
                b.had_bye,
                b.placements + ("S",),
            )
        if result.bye is not None:
            q = players[result.bye]
            players[q.id] = PairingPlayer(
                q.id, q.rank, q.score + 1, 0, q.opponents, True, q.placements
            )
    return timings


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, nargs="+", default=[100, 500, 1000, 5000])
    args = ap.parse_args()
    print(f"{'players':>7} {'round':>5} {'seconds':>8} {'peak MiB':>9} {'warnings':>8}")
    for n in args.players:
        for rnd, rows in sorted(simulate(n + (n % 2 == 0), 9).items()):
            if rnd in (2, 5, 9):
                secs, mib, warns = rows[0]
                print(f"{n:>7} {rnd:>5} {secs:>8.3f} {mib:>9.1f} {warns:>8}")


if __name__ == "__main__":
    main()
