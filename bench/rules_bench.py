"""Rules engine speed, side by side with python-chess in one run (issues 2 and 16).

Measures perft nodes per second (ours from a mid-game position under the Laws and under the
strict ruleset loyd-1989, python-chess's legal-move perft from the chess start position, all
depth 4 with bulk counting at the last ply) and validated plies per second (ours through
`manage.py kz validate` on a folder of records, Django's start-up included; python-chess
reading the same number of plies of PGN with chess.pgn.read_game in a process of its own,
its start-up included, and in-process). Then the cost of each variant and ruleset switched on alone,
against the flat engine measured the same way (bench/variant_bench.py), each case's
validation also against python-chess's PGN reading.

Times are CPU seconds of the process doing the work (the children's for the two processes),
the best of three: the machine is shared, and a wall clock would time the neighbours too.

    python bench/rules_bench.py [--records 1500] [--depth 4] [--quick] [--json] [--no-variants]
"""

from __future__ import annotations

import argparse
import io
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import variant_bench  # noqa: E402
from bench.records import write_folder  # noqa: E402
from rules.position import RULESET_LOYD_1989  # noqa: E402
from rules.posstring import parse_position  # noqa: E402

# A mid-game position (ply 44 of a random legal game): 69 moves, 4,660 at depth 2.
MIDGAME = (
    "laws - gold 44 apex/FeE26,LE59,SH79,FlF37,FlG46,VC29,VE38,VE48,BE16/E27 "
    "west/FeH45,LG14,SG36,FlF48,FlI67,VH23,VI11,VI33,BG25/H24"
)


def chess_perft(board, depth: int) -> int:  # type: ignore[no-untyped-def]
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += chess_perft(board, depth - 1)
        board.pop()
    return n


def timed(fn):  # type: ignore[no-untyped-def]
    t = time.process_time()
    out = fn()
    return out, time.process_time() - t


def best_of(fn, rounds: int):  # type: ignore[no-untyped-def]
    """(result, fastest CPU seconds) of `rounds` calls of fn."""
    runs = [timed(fn) for _ in range(rounds)]
    return runs[0][0], min(s for _out, s in runs)


# What python-chess does in its own process: read every game of a PGN file, count the plies.
CHESS_READER = """
import sys, chess.pgn
n = 0
with open(sys.argv[1]) as stream:
    while (game := chess.pgn.read_game(stream)) is not None:
        n += sum(1 for _ in game.mainline_moves())
print(n)
"""


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def chess_pgn(total_plies: int, seed: int = 3) -> tuple[str, int]:
    import chess
    import chess.pgn

    rng = random.Random(seed)
    games = []
    plies = 0
    while plies < total_plies:
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(min(80, total_plies - plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            m = rng.choice(moves)
            node = node.add_variation(m)
            board.push(m)
            plies += 1
        games.append(str(game))
    return "\n\n".join(games) + "\n", plies


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--records", type=int, help="records for kz validate (1500; --quick 300)")
    ap.add_argument("--depth", type=int, help="perft depth of the flat run (4; --quick 3)")
    ap.add_argument("--no-variants", action="store_true", help="only the flat engine's run")
    variant_bench.add_arguments(ap)
    args = ap.parse_args()
    if args.records is None:
        args.records = 300 if args.quick else 1500
    if args.depth is None:
        args.depth = 3 if args.quick else 4
    import chess
    import chess.pgn

    def progress(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    progress(f"perft depth {args.depth} ...")

    rows = []
    pos = parse_position(MIDGAME)
    nodes, secs = timed(lambda: pos.perft(args.depth))
    ours_perft = nodes / secs
    rows.append(("perft", f"Klin Zha mid-game, depth {args.depth}", nodes, secs, ours_perft))
    strict = parse_position(MIDGAME.replace("laws", RULESET_LOYD_1989, 1))
    snodes, ssecs = timed(lambda: strict.perft(args.depth))
    strict_perft = snodes / ssecs
    rows.append(
        ("perft", f"the same, {RULESET_LOYD_1989}, depth {args.depth}", snodes, ssecs, strict_perft)
    )
    board = chess.Board()
    cnodes, csecs = best_of(lambda: chess_perft(board, args.depth), 3)
    theirs_perft = cnodes / csecs
    rows.append(
        (
            "perft",
            f"python-chess {chess.__version__} start, depth {args.depth}",
            cnodes,
            csecs,
            theirs_perft,
        )
    )

    progress(f"kz validate, {args.records} records ...")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "records"
        plies = write_folder(folder, args.records)
        cmd = [sys.executable, str(ROOT / "manage.py"), "kz", "validate", str(folder), "--json"]

        def kz_validate() -> float:
            before = child_cpu()
            proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
            lines = proc.stdout.splitlines()
            assert proc.returncode == 0 and len(lines) == args.records, proc.stderr[-2000:]
            return child_cpu() - before

        vsecs = min(kz_validate() for _ in range(3))
        ours_val = plies / vsecs
        rows.append(("validate", f"kz validate, {args.records} records", plies, vsecs, ours_val))
        pgn, cplies = chess_pgn(plies)
        # python-chess the same way: a process started on a file, its start-up included, as
        # `kz validate` includes Django's (best of three each).
        pgn_file = Path(tmp) / "games.pgn"
        pgn_file.write_text(pgn)

        def chess_process() -> float:
            before = child_cpu()
            proc = subprocess.run(
                [sys.executable, "-c", CHESS_READER, str(pgn_file)],
                capture_output=True,
                text=True,
                check=False,
            )
            assert proc.returncode == 0 and int(proc.stdout) == cplies, proc.stderr[-2000:]
            return child_cpu() - before

        psecs = min(chess_process() for _ in range(3))
        theirs_process = cplies / psecs
        rows.append(
            ("validate", "python-chess read_game, a process", cplies, psecs, theirs_process)
        )

    def read_all() -> int:
        stream = io.StringIO(pgn)
        n = 0
        while (game := chess.pgn.read_game(stream)) is not None:
            n += sum(1 for _ in game.mainline_moves())
        return n

    read, rsecs = best_of(read_all, 3)
    assert read == cplies
    theirs_val = cplies / rsecs
    rows.append(("validate", "python-chess read_game, in-process", cplies, rsecs, theirs_val))

    measures = []
    config = variant_bench.config_from_args(args)
    if not args.no_variants:
        cases = variant_bench.select_cases(args.only)
        measures = variant_bench.run(config, cases, progress)

    ratios = {
        "perft": ours_perft / theirs_perft,
        f"perft {RULESET_LOYD_1989}": strict_perft / theirs_perft,
        "validate": ours_val / theirs_process,
    }
    targets = variant_bench.targets(measures, theirs_val) if measures else {}
    if args.json:
        out = {
            "flat": [
                {"what": w, "run": r, "count": c, "seconds": round(s, 4), "per_second": round(x)}
                for w, r, c, s, x in rows
            ],
            "ratios": {k: round(v, 3) for k, v in ratios.items()},
            "target_met": {k: v > 1 for k, v in ratios.items()},
        }
        if measures:
            out["variants"] = {
                "config": asdict(config),
                "cases": [m.as_dict(theirs_val) for m in measures],
                "targets": {
                    k: {"ratio": round(r, 3), "met": ok} for k, (r, _t, ok) in targets.items()
                },
            }
        print(json.dumps(out, indent=1))
        return
    print(f"{'what':9} {'run':45} {'count':>10} {'seconds':>8} {'per second':>12}")
    for what, run, count, s, rate in rows:
        print(f"{what:9} {run:45} {count:>10,} {s:>8.2f} {rate:>12,.0f}")
    for k, v in ratios.items():
        print(f"ratio {k + ' (ours / python-chess):':42} {v:.2f}")
    met = [f"{k} {'met' if v > 1 else 'NOT met'}" for k, v in ratios.items()]
    print(f"target (faster than python-chess): {', '.join(met)}")
    if measures:
        print()
        print("Variants and rulesets, each switched on alone, against the flat engine and")
        print("(validation) python-chess's PGN reading measured above:")
        print()
        print(variant_bench.table(measures, theirs_val))
        print(variant_bench.NOTE)
        print()
        for k, (r, target, ok) in targets.items():
            print(f"target {k}: {r:.2f} (at least {target:g}) {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
