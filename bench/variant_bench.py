"""The cost of each variant and ruleset: perft and validation speed against the flat engine.

Every case (the flat engine, each variant of Art. 13 switched on alone, the rulesets
loyd-1989 and italian-society) is measured the same way, in this process:

- perft: mid-game positions made by playing seeded random legal games under the case's rules
  to a few dozen plies into the battle, counted at one depth (bulk counting at the last
  ply), position after position until the time budget is spent;
- validation: seeded random records written under the case's rules (Kinta's with the
  spindle casts in `{[%cast …]}` notes, tri-level's in its own cell notation) and read back
  with rules.validate.validate_text.

Each case's rates are then given as a fraction of the flat engine's ("x0.62 of flat").

    python bench/variant_bench.py [--quick] [--json] [--only kinta,tri-level]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rules import record as record_module  # noqa: E402
from rules.engines import new_position  # noqa: E402
from rules.kinta import KintaPosition  # noqa: E402
from rules.notation import describe_move, move_text  # noqa: E402
from rules.position import COLOR_NAMES, Move, Position, Rules  # noqa: E402
from rules.record import Record, RecordPly, write_record  # noqa: E402
from rules.validate import rules_from_tags, validate_text  # noqa: E402

# A few clouds, away from the corners (the squares tests/rules/test_perft.py clouds).
CLOUDS = ("E37", "F36", "G46", "D28")


@dataclass(frozen=True, slots=True)
class Case:
    """One measured configuration: a ruleset and the variants switched on, with the tags
    that name them in a record (and so the Rules, read as the validator reads them)."""

    name: str
    ruleset: str = "laws"
    variants: tuple[str, ...] = ()
    extra_tags: tuple[tuple[str, str], ...] = ()

    def tags(self) -> dict[str, str]:
        tags = {"Ruleset": self.ruleset}
        if self.variants:
            tags["Variants"] = ", ".join(self.variants)
        tags.update(self.extra_tags)
        return tags

    def rules(self) -> Rules:
        return rules_from_tags(self.tags())[0]


FLAT = Case("flat")
CASES: tuple[Case, ...] = (
    FLAT,
    Case("alternating-placement", variants=("alternating-placement",)),
    Case("power-vanguards", variants=("power-vanguards",)),
    Case("kaggas-crown", variants=("kaggas-crown",)),
    Case("clouded (4 clouds)", variants=("clouded",), extra_tags=(("Clouds", " ".join(CLOUDS)),)),
    Case("forward-placement", variants=("forward-placement",)),
    Case("ablative (limit 6)", variants=("ablative",), extra_tags=(("AblationLimit", "6"),)),
    Case("ablative (unlimited)", variants=("ablative",), extra_tags=(("AblationLimit", "none"),)),
    Case("reflective", variants=("reflective",)),
    Case("honor-in-setup", variants=("honor-in-setup",)),
    Case("kinta", variants=("kinta",)),
    Case("tri-level", variants=("tri-level",)),
    Case("ruleset loyd-1989", ruleset="loyd-1989"),
    Case("ruleset italian-society", ruleset="italian-society"),
)


@dataclass(frozen=True, slots=True)
class Config:
    """How much to measure.

    `positions` mid-game positions are taken `into_battle` plies past the setup and counted
    at `depth`; from depth 3, only `roots` seeded random moves of each are followed (0: all of
    them). A rate needs no complete count, and the sample keeps the slowest cases within
    seconds while the count keeps depth 3's mix: the root side's moves (unsafe ones too), the
    replies, and at the leaves the safety checks those leave behind. `budget` is the seconds
    each case's perft (and, separately, its validation) is repeated for, `rounds` times at
    least unless one round alone takes twice the budget; `records` records, each at most
    `max_plies` long, are validated per case.
    """

    depth: int = 3
    positions: int = 6
    roots: int = 3
    into_battle: int = 30
    # Long enough that the fastest round is not all spent in one slow second of a shared host.
    budget: float = 1.2
    rounds: int = 2
    records: int = 30
    max_plies: int = 120
    seed: int = 1


DEFAULT = Config()
QUICK = Config(positions=3, roots=2, budget=0.3, records=10)
# A run that only proves every case works (the tests use it).
TINY = Config(
    depth=2, positions=1, roots=0, into_battle=6, budget=0.0, rounds=1, records=2, max_plies=40
)


@dataclass(slots=True)
class Measure:
    """One case's numbers; ratios are against the flat engine measured the same way."""

    case: str
    depth: int
    roots: int
    nodes: int
    perft_seconds: float
    records: int
    plies: int
    validate_seconds: float
    perft_ratio: float | None = None
    validate_ratio: float | None = None
    positions: list[int] = field(default_factory=list)
    setup_seconds: float = 0.0

    @property
    def perft_label(self) -> str:
        """The depth, and how many root moves of each position were followed."""
        return f"{self.depth} ({self.roots} roots)" if self.roots else str(self.depth)

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.perft_seconds if self.perft_seconds > 0 else 0.0

    @property
    def plies_per_second(self) -> float:
        return self.plies / self.validate_seconds if self.validate_seconds > 0 else 0.0

    def as_dict(self, reference: float | None = None) -> dict[str, Any]:
        """The measure as JSON; with `reference` (python-chess's PGN plies per second), the
        validation's ratio to it too."""
        out = asdict(self)
        out["nodes_per_second"] = round(self.nodes_per_second, 1)
        out["plies_per_second"] = round(self.plies_per_second, 1)
        if reference:
            out["validate_vs_python_chess"] = round(self.plies_per_second / reference, 3)
        return out


# --- random games ---------------------------------------------------------------------------
def choose(pos: Position, moves: Sequence[Move], rng: random.Random, tries: int = 8) -> Move:
    """A random move, preferring (within a few draws) one that keeps the own Goal safe, so
    games run long like real ones (a strict ruleset offers only safe moves)."""
    if not pos.in_battle or pos.rules.strict_safety:
        return rng.choice(moves)
    m = rng.choice(moves)
    for _ in range(tries):
        if pos.is_safe(m):
            return m
        m = rng.choice(moves)
    return m


def play_game(
    rules: Rules, first: int, rng: random.Random, stop: Callable[[Position], bool]
) -> Iterable[tuple[Position, Move, str | None, Position]]:
    """Play a seeded random legal game until `stop` says so or the battle ends; yields
    (position before, move, the casts' note or None, position after) for each ply."""
    pos = new_position(rules, first)
    while not stop(pos):
        moves = pos.generate_moves()
        if not moves:
            return
        m = choose(pos, moves, rng)
        after: Position
        note: str | None
        if isinstance(pos, KintaPosition):
            # Combats are cast with the game's generator and recorded with the ply.
            kinta = pos.copy()
            result = kinta.play(m, rng)
            after = kinta
            note = result.note() if result is not None else None
        else:
            after = pos.apply(m)
            note = None
        yield pos, m, note, after
        pos = after


def midgame_position(
    rules: Rules, first: int, rng: random.Random, into_battle: int
) -> Position | None:
    """The position `into_battle` plies past the setup of a seeded random game, or None when
    the game is decided (or deadlocked) before."""
    setup_end: int | None = None

    def stop(pos: Position) -> bool:
        nonlocal setup_end
        if setup_end is None and pos.in_battle:
            setup_end = pos.ply
        return setup_end is not None and pos.ply >= setup_end + into_battle

    last: Position | None = None
    for _before, _m, _note, after in play_game(rules, first, rng, stop):
        last = after
    if last is None or not stop(last) or last.outcome is not None:
        return None
    return last if last.generate_moves() else None


def midgame_positions(case: Case, count: int, into_battle: int, seed: int) -> list[Position]:
    """`count` mid-game positions of seeded random games under `case` (a game decided before
    it gets there is replaced by the next seed's)."""
    rules = case.rules()
    out: list[Position] = []
    game = 0
    while len(out) < count:
        if game > 50 * count:
            raise RuntimeError(f"{case.name}: random games keep ending before mid-game")
        rng = random.Random(f"{seed}/{case.name}/midgame/{game}")
        pos = midgame_position(rules, game % 2, rng, into_battle)
        game += 1
        if pos is not None:
            out.append(pos)
    return out


def random_record(case: Case, rng: random.Random, max_plies: int) -> tuple[str, int]:
    """A seeded random legal game under `case` written as a record; (text, plies)."""
    rules = case.rules()
    first = rng.randrange(2)
    tags = {
        "Event": "Variant benchmark",
        "Site": "Bench",
        "Date": "2026.11.22",
        "Round": "1",
        "Green": "Kor",
        "Gold": "Kang",
        "FirstPlacement": COLOR_NAMES[first],
        **case.tags(),
    }
    # The notation the record's tags name (tri-level's cells, `2:E37`).
    notation = Record(tags).notation
    clock = [1800, 1800]
    plies: list[RecordPly] = []
    last: Position | None = None
    for before, m, note, after in play_game(rules, first, rng, lambda p: p.ply >= max_plies):
        side = before.turn
        clock[side] = max(0, clock[side] - rng.randrange(1, 40))
        comments = (note,) if note else ()
        text = move_text(before, m, notation)
        plies.append(RecordPly(describe_move(before, m), text, clock[side], comments))
        last = after
    outcome = last.final_outcome() if last is not None else None
    tags["Result"] = outcome.winner_name if outcome else "*"
    return write_record(Record(tags, plies)), len(plies)


def random_records(case: Case, count: int, max_plies: int, seed: int) -> tuple[list[str], int]:
    rng = random.Random(f"{seed}/{case.name}/records")
    texts = []
    plies = 0
    for _ in range(count):
        text, n = random_record(case, rng, max_plies)
        texts.append(text)
        plies += n
    return texts, plies


# --- measuring ------------------------------------------------------------------------------
def perft_roots(
    positions: Sequence[Position], depth: int, roots: int, rng: random.Random
) -> list[tuple[Position, int]]:
    """What to count: each position at `depth`, or, with `roots` and from depth 3, that many
    of its moves drawn at random, each position after one at `depth - 1`."""
    if depth < 3 or not roots:
        return [(p, depth) for p in positions]
    out = []
    for p in positions:
        moves = p.generate_moves()
        for m in rng.sample(moves, min(roots, len(moves))):
            out.append((p.apply(m), depth - 1))
    return out


def time_perft(
    items: Sequence[tuple[Position, int]], budget: float, rounds: int = 2
) -> tuple[int, float]:
    """(nodes, seconds) of perft of each (position, depth): rounds over all of them are
    repeated until `budget` seconds have passed (and `rounds` are done), and each one's
    fastest time counts (the machine is shared: a slower round measures the neighbours, not
    the engine)."""
    best = [float("inf")] * len(items)
    nodes = [0] * len(items)
    start = time.process_time()
    done = 0
    while True:
        for i, (pos, depth) in enumerate(items):
            t = time.process_time()
            nodes[i] = pos.perft(depth)
            best[i] = min(best[i], time.process_time() - t)
        done += 1
        elapsed = time.process_time() - start
        if elapsed >= budget and (done >= rounds or elapsed >= 2 * budget):
            return sum(nodes), sum(best)


def time_validation(
    texts: Sequence[str], plies: int, budget: float, rounds: int = 2
) -> tuple[int, float]:
    """(plies, seconds) of validate_text over all the records, in the fastest of rounds
    repeated until `budget` seconds have passed (and `rounds` are done); every record must
    be valid in full."""
    best = float("inf")
    start = time.process_time()
    rounds_done = 0
    while True:
        # The reader keeps the ply texts it has read: every round starts from nothing.
        record_module._SEEN.clear()
        t = time.process_time()
        done = 0
        for text in texts:
            verdict = validate_text(text)
            if not verdict.valid:
                raise AssertionError(f"a benchmark record is refused: {verdict.error}\n{text}")
            done += verdict.plies
        best = min(best, time.process_time() - t)
        if done != plies:
            raise AssertionError(f"validated {done} plies of {plies}")
        rounds_done += 1
        elapsed = time.process_time() - start
        if elapsed >= budget and (rounds_done >= rounds or elapsed >= 2 * budget):
            return done, best


def measure(case: Case, config: Config = DEFAULT) -> Measure:
    """Measure one case (making its positions and records is not timed)."""
    t = time.process_time()
    positions = midgame_positions(case, config.positions, config.into_battle, config.seed)
    rng = random.Random(f"{config.seed}/{case.name}/roots")
    items = perft_roots(positions, config.depth, config.roots, rng)
    texts, plies = random_records(case, config.records, config.max_plies, config.seed)
    setup = time.process_time() - t
    nodes, psecs = time_perft(items, config.budget, config.rounds)
    done, vsecs = time_validation(texts, plies, config.budget, config.rounds)
    return Measure(
        case.name,
        config.depth,
        config.roots if config.depth >= 3 else 0,
        nodes,
        psecs,
        len(texts),
        done,
        vsecs,
        positions=[p.ply for p in positions],
        setup_seconds=setup,
    )


def run(
    config: Config = DEFAULT,
    cases: Sequence[Case] = CASES,
    progress: Callable[[str], None] | None = None,
) -> list[Measure]:
    """Measure the flat engine and then every case, with ratios against the flat one."""
    todo = [FLAT] + [c for c in cases if c != FLAT]
    out = []
    for case in todo:
        if progress is not None:
            progress(f"measuring {case.name} ...")
        out.append(measure(case, config))
    flat = out[0]
    for m in out:
        m.perft_ratio = m.nodes_per_second / flat.nodes_per_second
        m.validate_ratio = m.plies_per_second / flat.plies_per_second
    return out


def ratio(value: float | None) -> str:
    """`x0.62`; small fractions keep a significant digit (`x0.0035`)."""
    if value is None:
        return ""
    return f"x{value:.2f}" if value >= 0.1 else f"x{value:.2g}"


# Issue 16's targets: perft of these cases at least this fraction of the flat engine's, and
# every case's validation at least as fast as python-chess reads PGN.
PERFT_TARGETS: Final = {"kinta": 0.5, "ruleset italian-society": 0.25}
VALIDATE_TARGET: Final = 1.0


def targets(
    measures: Sequence[Measure], reference: float | None = None
) -> dict[str, tuple[float, float, bool]]:
    """{what: (ratio, target, met)} for the perft targets of the cases measured and, with
    `reference` (python-chess's PGN plies per second), every case's validation."""
    out = {}
    for m in measures:
        target = PERFT_TARGETS.get(m.case)
        if target is not None and m.perft_ratio is not None:
            out[f"perft {m.case} / flat"] = (m.perft_ratio, target, m.perft_ratio >= target)
    if reference:
        for m in measures:
            r = m.plies_per_second / reference
            out[f"validate {m.case} / python-chess"] = (r, VALIDATE_TARGET, r >= VALIDATE_TARGET)
    return out


def table(measures: Sequence[Measure], reference: float | None = None) -> str:
    """A markdown table of the measures; with `reference` (python-chess's PGN plies per
    second), a last column with each case's validation against it."""
    head = [
        "case",
        "perft depth",
        "nodes",
        "s",
        "nodes/s",
        "vs flat",
        "records",
        "plies",
        "s",
        "plies/s",
        "vs flat",
    ]
    if reference:
        head.append("vs python-chess")
    rows = [head, ["---"] * len(head)]
    for m in measures:
        rows.append(
            [
                m.case,
                m.perft_label,
                f"{m.nodes:,}",
                f"{m.perft_seconds:.3f}",
                f"{m.nodes_per_second:,.0f}",
                ratio(m.perft_ratio),
                str(m.records),
                f"{m.plies:,}",
                f"{m.validate_seconds:.3f}",
                f"{m.plies_per_second:,.0f}",
                ratio(m.validate_ratio),
            ]
        )
        if reference:
            rows[-1].append(ratio(m.plies_per_second / reference))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = []
    for r in rows:
        cells = []
        for i, cell in enumerate(r):
            if cell == "---":
                cells.append("-" * widths[i])
            elif i == 0:
                cells.append(cell.ljust(widths[i]))
            else:
                cells.append(cell.rjust(widths[i]))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


NOTE = (
    "Every case in-process, the same way: perft from seeded random mid-game positions (bulk\n"
    "counting at the last ply; from depth 3 only a seeded sample of root moves is followed)\n"
    "and validate_text over seeded random records, each the fastest of repeated rounds\n"
    "timed in CPU seconds. 'vs flat' is the case's rate as a fraction of the flat engine's\n"
    "in this table."
)


def config_from_args(args: argparse.Namespace) -> Config:
    base = QUICK if args.quick else DEFAULT
    changes = {
        k: getattr(args, f"variant_{k}")
        for k in ("depth", "positions", "roots", "budget", "records")
        if getattr(args, f"variant_{k}", None) is not None
    }
    return Config(**{**asdict(base), **changes})


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """The variant benchmark's options (shared with bench/rules_bench.py)."""
    ap.add_argument("--quick", action="store_true", help="a short run (less of everything)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of tables")
    ap.add_argument("--variant-depth", type=int, help="perft depth for every case")
    ap.add_argument("--variant-positions", type=int, help="mid-game positions per case")
    ap.add_argument("--variant-roots", type=int, help="root moves followed per position (0: all)")
    ap.add_argument("--variant-budget", type=float, help="seconds per case and measure")
    ap.add_argument("--variant-records", type=int, help="records validated per case")
    ap.add_argument("--only", help="comma-separated case names (the flat one is always run)")


def select_cases(only: str | None) -> list[Case]:
    if not only:
        return list(CASES)
    wanted = [w.strip() for w in only.split(",") if w.strip()]
    chosen = [c for c in CASES if any(w in c.name for w in wanted)]
    if not chosen:
        raise SystemExit(f"no case matches {only!r}: {', '.join(c.name for c in CASES)}")
    return chosen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    add_arguments(ap)
    args = ap.parse_args()
    config = config_from_args(args)
    progress = None if args.json else (lambda s: print(s, file=sys.stderr, flush=True))
    measures = run(config, select_cases(args.only), progress)
    if args.json:
        print(json.dumps({"config": asdict(config), "cases": [m.as_dict() for m in measures]}))
    else:
        print(table(measures))
        print(NOTE)


if __name__ == "__main__":
    main()
