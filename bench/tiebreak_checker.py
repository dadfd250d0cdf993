"""Our tie-breaks beside FIDE's tie-break checker's, on the plain TRF export of events made
here: each event is built through the services (random results from a fixed seed), written
with `kz trf export`'s text (its `202` record names the tie-breaks, its `162` the points),
and the checker (TieBreakServer's `tiebreakchecker.py`, a public repository; its sources are
not part of Klin Zha: give their directory) reads that file. Prints, per event and code, how
many players agree and, for the others, our value beside the checker's; `--markdown` prints
the table docs/tiebreaks.md keeps. Nothing is stored: every event is rolled back.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/klinzha_bench \\
    python bench/tiebreak_checker.py --checker /path/to/TieBreakServer [--markdown]

The checker reads the rules version from the start date (before 1 March 2026: the 2024
rules), so the events that follow the 2024 rules start before it.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# Every code the checker computes too (SSB is Klin Zha's own; it reads it as nothing).
CODES = ("BH", "BH-C1", "BH-M1", "FB", "SB", "SB-C1", "AOB", "DE", "WIN", "WON") + (
    "BPG",
    "BWG",
    "PS",
    "KS",
    "ARO",
    "TPR",
    "PTP",
)
# The codes Klin Zha's adaptations change (docs/tiebreaks.md): compared read literally too.
# (Undoing them also makes a draw −½ in Standard Points, which TPR and PTP use: those are
# compared as computed only, where the checker too reads a draw as ½.)
ADAPTED = ("BH", "BH-C1", "BH-M1", "FB", "SB", "SB-C1", "AOB")
RESULTS = ("first_win", "second_win", "draw")


@dataclass(frozen=True, slots=True)
class Shape:
    """An event to make: its name, system, size, rounds, rules and what happens in it."""

    slug: str
    players: int
    rounds: int
    rules: str = "2026"
    system: str = "swiss"
    unplayed: bool = False  # forfeits, a requested bye, a late entry, a withdrawal
    seed: int = 1


SHAPES = (
    Shape("swiss-played", players=10, rounds=5, seed=3),
    Shape("swiss-unplayed-2026", players=9, rounds=5, unplayed=True, seed=7),
    Shape("swiss-unplayed-2024", players=9, rounds=5, rules="2024", unplayed=True, seed=7),
    Shape("round-robin", players=6, rounds=5, system="round_robin", seed=11),
)


@dataclass(slots=True)
class Comparison:
    """One event's figures: per code the players agreeing and the others' (ours, theirs);
    `literal`: ours with Klin Zha's adaptations undone (docs/tiebreaks.md)."""

    shape: Shape
    players: int
    literal: bool
    agree: dict[str, int] = field(default_factory=dict)
    differ: dict[str, list[tuple[int, float, float]]] = field(default_factory=dict)


def _results(rnd: Any, rng: random.Random, forfeits: bool) -> None:
    from tournaments import services
    from tournaments.models import Game

    for game in rnd.games.filter(kind=Game.Kind.GAME, result="").order_by("board"):
        result = rng.choice(RESULTS)
        if forfeits and rng.random() < 0.15:
            result = rng.choice(("first_forfeit_win", "second_forfeit_win", "double_forfeit"))
        services.game_result_set(game=game, result=result)


def event_make(shape: Shape) -> Any:
    """The event, every round paired and every result in."""
    from tournaments import services

    rng = random.Random(shape.seed)
    t = services.tournament_create(
        name=shape.slug.replace("-", " ").title(),
        slug=shape.slug,
        start_date=date(2026, 4, 1) if shape.rules == "2026" else date(2025, 10, 1),
        rounds_planned=shape.rounds,
        pairing_system=shape.system,
        tiebreaks=",".join(CODES),
        tiebreak_rules=shape.rules,
    )
    regs = [
        services.registration_create(
            tournament=t,
            player=services.player_create(name=f"Player {i}", rating=2200 - 37 * i),
        )
        for i in range(1, shape.players + 1)
    ]
    if shape.unplayed:
        services.bye_request_create(registration=regs[2], round_number=3)
    for number in range(1, shape.rounds + 1):
        if shape.unplayed and number == 2:
            services.registration_create(
                tournament=t, player=services.player_create(name="Late", rating=1900)
            )
        if shape.unplayed and number == 4:
            services.registration_withdraw(registration=regs[4])
        _results(services.round_pair(tournament=t), rng, shape.unplayed)
    return t


def checker_run(checker: Path, text: str) -> dict[int, dict[str, float]]:
    """The checker's figures by start rank and code (`BH/C1` read as `BH-C1`)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "event.trf"
        path.write_text(text, encoding="utf-8")
        run = subprocess.run(  # noqa: S603 - the checker given on the command line
            [sys.executable, "tiebreakchecker.py", "-i", str(path), "-f", "TRF", "-o", "-", "-dT"],
            cwd=checker,
            capture_output=True,
            text=True,
            check=False,
        )
    lines = [line.split("\t") for line in run.stdout.splitlines() if "\t" in line]
    if run.returncode or not lines:
        keep = Path(tempfile.gettempdir()) / "tiebreak_checker_refused.trf"
        keep.write_text(text, encoding="utf-8")
        raise SystemExit(f"the checker refused {keep}:\n{run.stdout}{run.stderr}")
    head = [h.replace("/", "-") for h in lines[0]]
    return {
        int(row[0]): {h: float(v) for h, v in zip(head[3:], row[3:], strict=True)}
        for row in lines[1:]
    }


@contextmanager
def adaptations_undone() -> Iterator[None]:
    """Our code as the checker reads a Klin Zha file: the neutral result is the game's −½
    draw, and Sonneborn-Berger multiplies by game points (docs/tiebreaks.md, adaptations)."""
    import tournaments.tiebreaks.buchholz as buchholz_module
    import tournaments.tiebreaks.rounds as rounds_module
    from tournaments.scoring import Outcome
    from tournaments.selectors import standings_memo_clear

    saved = rounds_module.NEUTRAL, buchholz_module.NEUTRAL  # type: ignore[attr-defined]
    standard = rounds_module._STANDARD_PLAYED[Outcome.DRAW]
    rounds_module.NEUTRAL = buchholz_module.NEUTRAL = -0.5  # type: ignore[attr-defined]
    rounds_module._STANDARD_PLAYED[Outcome.DRAW] = -0.5
    standings_memo_clear()
    try:
        yield
    finally:
        rounds_module.NEUTRAL, buchholz_module.NEUTRAL = saved  # type: ignore[attr-defined]
        rounds_module._STANDARD_PLAYED[Outcome.DRAW] = standard
        standings_memo_clear()


def compare(shape: Shape, checker: Path) -> list[Comparison]:
    """The event's figures beside the checker's: ours, and ours read literally."""
    from tournaments.models import Registration
    from tournaments.selectors import standings_compute
    from tournaments.trf_export import tournament_trf

    t = event_make(shape)
    theirs = checker_run(checker, tournament_trf(tournament=t))
    regs = Registration.objects.filter(tournament=t)
    rank_of = {pid: rank or 0 for pid, rank in regs.values_list("player_id", "start_rank")}
    ours = _compared(shape, list(standings_compute(tournament=t)), theirs, rank_of, False)
    with adaptations_undone():
        rows = list(standings_compute(tournament=t))
    return [ours, _compared(shape, rows, theirs, rank_of, True)]


def _compared(
    shape: Shape,
    rows: list[Any],
    theirs: dict[int, dict[str, float]],
    rank_of: dict[int, int],
    literal: bool,
) -> Comparison:
    out = Comparison(shape, len(rows), literal)
    for code in ADAPTED if literal else CODES:
        out.agree[code] = 0
        for row in rows:
            rank = rank_of[row.entrant.id]
            ours, their = float(row.tiebreaks[code]), theirs[rank][code]
            if abs(ours - their) < 0.006:
                out.agree[code] += 1
            else:
                out.differ.setdefault(code, []).append((rank, ours, their))
    return out


def _number(x: float) -> str:
    return f"{x:g}"


def report(found: list[Comparison], markdown: bool) -> None:
    if markdown:
        print(
            "| Event | Players | Rules | Ours | Agree on every player "
            "| Differ (start rank: ours / checker's) |"
        )
        print("|---|---|---|---|---|---|")
    for c in found:
        codes = ADAPTED if c.literal else CODES
        same = [code for code in codes if code not in c.differ]
        differ = "; ".join(
            f"{code} " + ", ".join(f"{r}: {_number(a)} / {_number(b)}" for r, a, b in rows)
            for code, rows in c.differ.items()
        )
        if markdown:
            how = "read literally" if c.literal else "as computed"
            print(
                f"| {c.shape.slug} | {c.players} | {c.shape.rules} | {how} | "
                f"{', '.join(same)} | {differ or '—'} |"
            )
            continue
        how = ", adaptations undone" if c.literal else ""
        print(f"{c.shape.slug} ({c.players} players, {c.shape.rules} rules{how})")
        for code in codes:
            print(f"  {code:6} {c.agree[code]:>3}/{c.players}")
            for rank, ours, their in c.differ.get(code, []):
                print(f"         player {rank}: ours {_number(ours)}, checker {_number(their)}")


class _Rollback(Exception):
    pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--checker", type=Path, required=True, help="TieBreakServer's directory")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    if not (args.checker / "tiebreakchecker.py").exists():
        sys.exit(f"no tiebreakchecker.py in {args.checker}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klinzha_site.settings.test")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction

    call_command("migrate", verbosity=0)
    found: list[Comparison] = []
    try:
        with transaction.atomic():
            found = [c for shape in SHAPES for c in compare(shape, args.checker)]
            raise _Rollback
    except _Rollback:
        pass
    report(found, args.markdown)


if __name__ == "__main__":
    main()
