"""Makes folders of legal random Klin Zha records for the benchmarks (deterministic by seed)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.notation import describe_move, format_ply  # noqa: E402
from rules.position import COLOR_NAMES, Position, Rules  # noqa: E402
from rules.record import Record, RecordPly, write_record  # noqa: E402


def random_game(rng: random.Random, *, max_plies: int = 120, ruleset: str = "laws") -> Record:
    """A legal game: random placement, then random battle moves that prefer not to give away
    the Goal, so games run long like real ones."""
    first = rng.randrange(2)
    pos = Position(Rules(ruleset), first)
    plies = []
    clock = [1800, 1800]
    while pos.ply < max_plies:
        moves = pos.generate_moves()
        if not moves:
            break
        safe = [m for m in moves if pos.is_safe(m)] if pos.in_battle else moves
        m = rng.choice(safe or moves)
        side = pos.turn
        ply = describe_move(pos, m)
        clock[side] = max(0, clock[side] - rng.randrange(1, 40))
        plies.append(RecordPly(ply, format_ply(ply), clock=clock[side]))
        pos = pos.apply(m)
    outcome = pos.final_outcome()
    tags = {
        "Event": "Benchmark",
        "Site": "Bench",
        "Date": "2026.11.22",
        "Round": "1",
        "Green": "Kor",
        "Gold": "Kang",
        "FirstPlacement": COLOR_NAMES[first],
        "Ruleset": ruleset,
        "Result": outcome.winner_name if outcome else "*",
    }
    return Record(tags, plies)


def write_folder(folder: Path, count: int, seed: int = 1) -> int:
    """Write `count` records into `folder`; returns the number of plies written."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    plies = 0
    for i in range(count):
        rec = random_game(rng)
        plies += len(rec.plies)
        (folder / f"game{i:05d}.kzr").write_text(write_record(rec), encoding="utf-8")
    return plies


if __name__ == "__main__":
    n = write_folder(Path(sys.argv[1]), int(sys.argv[2]))
    print(f"{n} plies")
