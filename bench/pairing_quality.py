"""Our Swiss pairing against the FIDE Dutch reference (py4swiss), round by round on the same
positions of simulated events: floaters, score differences, placement preferences, time.

    python bench/pairing_quality.py [--players 100 500] [--rounds 9] [--ref-rounds 2 5 9]

Each round is paired by both engines from the same position (interleaved, so machine noise
hits both alike); the event then goes on with our pairing. Results are random with 10% draws
(-1/2 each) and 5% absences a round. The reference is told the event has a round more (no
last-round topscorer exception); both give the bye where the Dutch criteria allow (issue 24).
The last lines say, for each criterion, whether our total is at most the reference's
("denied" is every placement preference denied; "pref" strong or absolute ones).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.dutch_reference import pair_reference_under_our_rules  # noqa: E402
from tournaments.pairing import pair_swiss  # noqa: E402
from tournaments.pairing.simulate import (  # noqa: E402
    Event,
    Quality,
    preferences_key,
    round_quality,
)

HEAD = (
    f"{'players':>7} {'round':>5} {'engine':>9} {'floaters':>8} {'score diff':>10} "
    f"{'abs':>4} {'strong':>6} {'mild':>5} {'hard':>4} {'bye':>5} {'seconds':>8}"
)


def row(n: int, rnd: int | str, engine: str, q: Quality, secs: float) -> str:
    bye = "" if q.bye_score is None else f"{q.bye_score:g}"
    return (
        f"{n:>7} {rnd:>5} {engine:>9} {q.floaters:>8} {q.score_diff:>10g} {q.absolute:>4} "
        f"{q.strong:>6} {q.mild:>5} {q.hard:>4} {bye:>5} {secs:>8.3f}"
    )


def add(total: Quality, q: Quality) -> None:
    total.floaters += q.floaters
    total.score_diff += q.score_diff
    total.absolute += q.absolute
    total.strong += q.strong
    total.mild += q.mild
    total.hard += q.hard


def compare(n: int, rounds: int, ref_rounds: set[int] | None, seed: int = 1) -> dict[str, Quality]:
    event = Event(n, seed=seed)
    totals = {"ours": Quality(), "reference": Quality()}
    secs = {"ours": 0.0, "reference": 0.0}
    for rnd in range(1, rounds + 1):
        present = event.present()
        start = time.perf_counter()
        ours = pair_swiss(present, round_number=rnd)
        ours_secs = time.perf_counter() - start
        q = round_quality(present, ours)
        if ref_rounds is None or rnd in ref_rounds:
            ref = pair_reference_under_our_rules(event, present, rounds, ours)
            rq = round_quality(present, ref.result)
            print(row(n, rnd, "ours", q, ours_secs))
            print(row(n, rnd, "reference", rq, ref.seconds), flush=True)
            add(totals["ours"], q)
            add(totals["reference"], rq)
            secs["ours"] += ours_secs
            secs["reference"] += ref.seconds
        event.play(ours)
    for engine, total in totals.items():
        print(row(n, "all", engine, total, secs[engine]))
    return totals


def verdict(ours: Quality, ref: Quality) -> str:
    """Each criterion: our total, the reference's, and whether ours is at most theirs."""
    cells = []
    for name, mine, theirs in (
        ("floaters", ours.floaters, ref.floaters),
        ("score diff", ours.score_diff, ref.score_diff),
        ("hard", ours.hard, ref.hard),
    ):
        cells.append(f"{name} {mine:g}/{theirs:g} {'ok' if mine <= theirs else 'MORE'}")
    # Preferences by C12 then C13: all denied, then the strong ones among them. The mild
    # count is shown, not judged: sparing a strong preference may cost a mild one.
    key, ref_key = preferences_key(ours), preferences_key(ref)
    cells.append(
        f"denied {key[0]}/{ref_key[0]}, strong {key[1]}/{ref_key[1]} "
        f"{'ok' if key <= ref_key else 'MORE'} (mild {ours.mild}/{ref.mild})"
    )
    return "; ".join(cells)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, nargs="+", default=[100, 500])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument(
        "--ref-rounds", type=int, nargs="*", help="compare only these rounds (default: all)"
    )
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(HEAD)
    everything = {"ours": Quality(), "reference": Quality()}
    for n in args.players:
        totals = compare(
            n, args.rounds, set(args.ref_rounds) if args.ref_rounds else None, args.seed
        )
        print(f"{n:>7} players, ours/reference: {verdict(totals['ours'], totals['reference'])}")
        add(everything["ours"], totals["ours"])
        add(everything["reference"], totals["reference"])
    print(f"all events, ours/reference: {verdict(everything['ours'], everything['reference'])}")


if __name__ == "__main__":
    main()
