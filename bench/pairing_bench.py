"""Swiss pairing speed and memory: rounds 2, 5 and 9 of simulated events of 100, 500, 1,000,
5,000 and 10,000 players, each round up to 1,000 players also paired by the FIDE Dutch
reference (issue 4's benchmark); after each field, its slowest round of all nine (issue 16
asks for a round of 10,000 players in under 10 s).

    python bench/pairing_bench.py [--players 100 500 1000 5000 10000] [--reference-max 1000]

The reference is py4swiss 0.3.1, a Python port of bbpPairings that uses bbpPairings' C++
matching; bbpPairings itself (FIDE Dutch mode) takes about 8 s for 500 players and 25-40 s
for 1,000 on these machines. Both engines pair the same position one after the other, so the
shared machine's noise hits both alike; the event goes on with our pairing (10% draws at
-1/2 each, 5% absences a round). The reference runs for fields up to --reference-max players.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.pairing import pair_swiss  # noqa: E402
from tournaments.pairing.simulate import Event, round_quality  # noqa: E402

ROUNDS = 9
MEASURED = (2, 5, 9)


def bench(n: int, reference: bool, seed: int = 1) -> None:
    event = Event(n, seed=seed)
    slowest = (0.0, 0)
    for rnd in range(1, ROUNDS + 1):
        present = event.present()
        start = time.perf_counter()
        ours = pair_swiss(present, round_number=rnd)
        secs = time.perf_counter() - start
        slowest = max(slowest, (secs, rnd))
        if rnd in MEASURED:
            # A second run under tracemalloc, so that its overhead stays out of the time.
            tracemalloc.start()
            pair_swiss(present, round_number=rnd)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            q = round_quality(present, ours)
            cells = [
                f"{n:>7} {rnd:>5} {secs:>8.3f} {peak / 2**20:>8.1f}",
                f"{q.floaters:>4}/{q.score_diff:<5g} {q.strong + q.absolute:>4}",
            ]
            if reference:
                from bench.dutch_reference import pair_reference

                ref = pair_reference(event, present, ROUNDS)
                rq = round_quality(present, ref.result)
                cells.append(
                    f"{ref.seconds:>9.2f} {rq.floaters:>4}/{rq.score_diff:<5g} "
                    f"{rq.strong + rq.absolute:>4} {ref.seconds / max(secs, 1e-6):>8.0f}x"
                )
            print(" ".join(cells), flush=True)
        event.play(ours)
    print(f"{n:>7} players: slowest round {slowest[1]}, {slowest[0]:.2f} s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, nargs="+", default=[100, 500, 1000, 5000, 10000])
    ap.add_argument("--reference-max", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print("floats = downfloaters/sum of score differences; pref = strong or absolute placement")
    print("preferences denied; ref = FIDE Dutch reference (py4swiss) on the same position")
    print(
        f"{'players':>7} {'round':>5} {'ours s':>8} {'peak MiB':>8} {'floats':>10} {'pref':>4} "
        f"{'ref s':>9} {'floats':>10} {'pref':>4} {'ref/ours':>9}"
    )
    for n in args.players:
        bench(n, n <= args.reference_max, args.seed)


if __name__ == "__main__":
    main()
