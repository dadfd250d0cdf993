"""Rules engine speed, side by side with python-chess in one run (issue 2's benchmark).

Measures perft nodes per second (ours from a mid-game position, python-chess from the chess
start position, both depth 4 with bulk counting at the last ply) and validated plies per
second (ours through `manage.py kz validate` on a folder of records, python-chess reading the
same number of plies of PGN with chess.pgn.read_game).

    python bench/rules_bench.py [--records 1500] [--depth 4]
"""

from __future__ import annotations

import argparse
import io
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.records import write_folder  # noqa: E402
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
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


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
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--records", type=int, default=1500)
    ap.add_argument("--depth", type=int, default=4)
    args = ap.parse_args()
    import chess
    import chess.pgn

    rows = []
    pos = parse_position(MIDGAME)
    nodes, secs = timed(lambda: pos.perft(args.depth))
    ours_perft = nodes / secs
    rows.append(("perft", f"Klin Zha mid-game, depth {args.depth}", nodes, secs, ours_perft))
    board = chess.Board()
    cnodes, csecs = timed(lambda: chess_perft(board, args.depth))
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

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "records"
        plies = write_folder(folder, args.records)
        cmd = [sys.executable, str(ROOT / "manage.py"), "kz", "validate", str(folder), "--json"]
        proc, vsecs = timed(
            lambda: subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
        )
        lines = proc.stdout.splitlines()
        assert proc.returncode == 0 and len(lines) == args.records, proc.stderr[-2000:]
        ours_val = plies / vsecs
        rows.append(("validate", f"kz validate, {args.records} records", plies, vsecs, ours_val))
    pgn, cplies = chess_pgn(plies)

    def read_all() -> int:
        stream = io.StringIO(pgn)
        n = 0
        while (game := chess.pgn.read_game(stream)) is not None:
            n += sum(1 for _ in game.mainline_moves())
        return n

    read, rsecs = timed(read_all)
    assert read == cplies
    theirs_val = cplies / rsecs
    rows.append(("validate", "python-chess chess.pgn.read_game", cplies, rsecs, theirs_val))

    print(f"{'what':9} {'run':45} {'count':>10} {'seconds':>8} {'per second':>12}")
    for what, run, count, s, rate in rows:
        print(f"{what:9} {run:45} {count:>10,} {s:>8.2f} {rate:>12,.0f}")
    print(f"ratio perft (ours / python-chess):    {ours_perft / theirs_perft:.2f}")
    print(f"ratio validate (ours / python-chess): {ours_val / theirs_val:.2f}")


if __name__ == "__main__":
    main()
