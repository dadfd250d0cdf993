"""Standings and tie-breaks (tournaments.md) computed on plain objects, and crosstable rows.

Scores may be negative (a draw is −½ to each side); nothing here assumes otherwise.
"""

from __future__ import annotations

import marshal
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

from rules.points import format_points
from tournaments.scoring import Outcome
from tournaments.tiebreaks import (
    ALIAS_OF,
    ALIASES,
    CODES,
    RULES_2026,
    WHOLE,
    Field,
    code_of,
    direct_encounter_values,
    field_make,
    name_of,
    tiebreak_values,
)

# Every name a list of tie-breaks may hold: the FIDE codes, and today's names as aliases.
TIEBREAKS = (*CODES, *ALIASES)
DEFAULT_TIEBREAKS = ("BH", "SSB", "WON")
# A round robin's (FIDE C.07, Art. 13.1 for all-play-all events): Sonneborn-Berger, Direct
# Encounter, Koya.
ROUND_ROBIN_TIEBREAKS = ("SB", "DE", "KS")
SYMBOL = {
    Outcome.WIN: "1",
    Outcome.LOSS: "0",
    Outcome.DRAW: "=",
    Outcome.FORFEIT_WIN: "+",
    Outcome.FORFEIT_LOSS: "-",
    Outcome.DOUBLE_FORFEIT: "-",
    Outcome.BYE: "B",
    Outcome.REQUESTED_BYE: "H",
    Outcome.ABSENT: "",
}


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as the standings see them."""

    id: int
    name: str
    rating: int = 0
    club: str = ""
    start_rank: int = 0
    # The last round before a withdrawal or expulsion; None while the player takes part.
    withdrawn_after: int | None = None


class RoundResult(NamedTuple):
    """One player's round: opponent (None for byes and absences), outcome, points after
    penalties, and whether the player placed first. A named tuple rather than a frozen
    dataclass: a 1,000-player event has 11,000 of them per standings, built, cached and read
    back on every change, and a tuple is built and unpickled several times faster."""

    round: int
    player: int
    opponent: int | None
    outcome: Outcome
    points: float
    placed_first: bool | None = None
    # False: kept on record and shown, but left out of scores and tie-breaks (the results of
    # a round robin player who withdrew before playing half of their games, both sides).
    counted: bool = True
    # True: a penalty (Art. 12.4 d, e, f) made these the points that count.
    penalized: bool = False


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line. Frozen, its mappings read-only: the standings memo hands the same
    rows to every caller and thread."""

    rank: int
    entrant: Entrant
    score: float
    tiebreaks: Mapping[str, float]
    rounds: Mapping[int, RoundResult] = field(default_factory=dict)


def _round_half(x: float) -> float:
    # Sums of halves are exact in binary floating point; round away representation noise
    # of reductions the arbiter gave as decimals.
    return round(x, 6)


def compute_standings(
    entrants: Sequence[Entrant],
    results: Iterable[RoundResult],
    *,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    rounds_completed: int | None = None,
    rules: str = RULES_2026,
    round_robin: bool = False,
) -> list[StandingRow]:
    """Rows in standings order: score, the tie-breaks in order (FIDE codes or today's names,
    computed by tournaments.tiebreaks under the regulation's `rules`), rating, then name."""
    _tiebreaks_check(tiebreaks=tiebreaks)
    shown, by_player = _results_index(results=results)
    last_round = max((rnd for rr in by_player.values() for rnd in rr), default=0)
    n_rounds = rounds_completed if rounds_completed is not None else last_round
    ids = [e.id for e in entrants]
    entrant_of = {e.id: e for e in entrants}
    field = field_make(
        rounds=by_player,
        ratings={e.id: e.rating for e in entrants},
        n=n_rounds,
        round_robin=round_robin,
    )
    score = {pid: field.score[pid] for pid in ids}
    codes = [code_of(tb) for tb in tiebreaks]
    by_code = tiebreak_values(field, codes, rules=rules)
    values = {
        pid: {tb: by_code[c][pid] for tb, c in zip(tiebreaks, codes, strict=True) if c != "DE"}
        for pid in ids
    }
    order = _standings_order(
        ids=ids,
        score=score,
        values=values,
        tiebreaks=tiebreaks,
        codes=codes,
        entrant_of=entrant_of,
        field=field,
    )
    return [
        StandingRow(
            rank=i,
            entrant=entrant_of[pid],
            score=score[pid],
            tiebreaks=MappingProxyType({tb: values[pid][tb] for tb in tiebreaks}),
            rounds=MappingProxyType(shown[pid]),
        )
        for i, pid in enumerate(order, start=1)
    ]


def scores_after(rows: Iterable[StandingRow], after_round: int) -> dict[int, float]:
    """Each player's score after round `after_round`, read from standings that go further
    (the rounds they show, as they count): the points before the next round that its
    pairings print, without computing the standings after that round anew. Equal to the
    scores of compute_standings given only the results up to `after_round`."""
    return {
        row.entrant.id: _round_half(
            sum(r.points for r in row.rounds.values() if r.counted and r.round <= after_round)
        )
        for row in rows
    }


# The form of standings_pack's bytes: a reader of another form computes the standings anew.
PACKED_FORM = 1
_NAME_OF = {outcome: outcome.value for outcome in Outcome}
_OUTCOME_OF = {outcome.value: outcome for outcome in Outcome}


def standings_pack(rows: Sequence[StandingRow]) -> bytes:
    """The rows as bytes another process reads back fast (standings_unpack): plain tuples
    and lists in marshal's form, the outcomes by name. Read back in about a third of the
    time of computing them, and faster than pickle's."""
    names = tuple(rows[0].tiebreaks) if rows else ()
    name_of = _NAME_OF
    packed = [
        (
            row.rank,
            (e.id, e.name, e.rating, e.club, e.start_rank, e.withdrawn_after),
            row.score,
            [row.tiebreaks[name] for name in names],
            [
                (n, p, o, name_of[x], pts, f, c, pen)
                for n, p, o, x, pts, f, c, pen in row.rounds.values()
            ],
        )
        for row in rows
        for e in (row.entrant,)
    ]
    return marshal.dumps((PACKED_FORM, names, packed), 4)


def standings_unpack(data: bytes) -> tuple[StandingRow, ...]:
    """The rows standings_pack made (ValueError: bytes of another form)."""
    form, names, packed = marshal.loads(data)
    if form != PACKED_FORM:
        raise ValueError(f"standings packed in form {form}, not {PACKED_FORM}")
    outcome_of = _OUTCOME_OF
    make = tuple.__new__  # a named tuple's own constructor, less its argument handling
    return tuple(
        StandingRow(
            rank,
            Entrant(*entrant),
            score,
            MappingProxyType(dict(zip(names, values, strict=True))),
            MappingProxyType(
                {
                    n: make(RoundResult, (n, p, o, outcome_of[x], pts, f, c, pen))
                    for n, p, o, x, pts, f, c, pen in rounds
                }
            ),
        )
        for rank, entrant, score, values, rounds in packed
    )


def _tiebreaks_check(*, tiebreaks: Sequence[str]) -> None:
    """Refuse a tie-break the standings do not know."""
    for tb in tiebreaks:
        code_of(tb)


def _results_index(
    *, results: Iterable[RoundResult]
) -> tuple[dict[int, dict[int, RoundResult]], dict[int, dict[int, RoundResult]]]:
    """Each player's rounds by number: all those shown, and those that count (the same
    mapping unless some round is kept on record but not counted)."""
    shown: dict[int, dict[int, RoundResult]] = defaultdict(dict)
    uncounted = False
    for r in results:
        shown[r.player][r.round] = r
        if not r.counted:
            uncounted = True
    if not uncounted:
        return shown, shown
    by_player: dict[int, dict[int, RoundResult]] = defaultdict(dict)
    for pid, rounds in shown.items():
        by_player[pid] = {rnd: r for rnd, r in rounds.items() if r.counted}
    return shown, by_player


def _standings_order(
    *,
    ids: list[int],
    score: dict[int, float],
    values: dict[int, dict[str, float]],
    tiebreaks: Sequence[str],
    codes: Sequence[str],
    entrant_of: dict[int, Entrant],
    field: Field,
) -> list[int]:
    """The players' ids in standings order. Direct Encounter is among players tied on
    everything before it: each one is computed (into `values`) from the order so far."""
    names = list(tiebreaks)
    for i, code in enumerate(codes):
        if code != "DE":
            continue
        groups: dict[tuple[float, ...], list[int]] = defaultdict(list)
        for pid in ids:
            groups[(score[pid], *(values[pid][tb] for tb in names[:i]))].append(pid)
        de = direct_encounter_values(field, groups.values())
        for pid in ids:
            values[pid][names[i]] = de[pid]

    def key(pid: int) -> tuple[Any, ...]:
        e = entrant_of[pid]
        return (-score[pid], *(-values[pid][tb] for tb in names), -e.rating, e.name, pid)

    return sorted(ids, key=key)


def tiebreak_keys(tiebreaks: Sequence[str]) -> list[tuple[str, str]]:
    """The JSON and CSV keys of a list of tie-breaks, each with the name its values are
    under: every FIDE code, then today's name of each code that has one (kept as an alias)."""
    codes = [(code_of(tb), tb) for tb in tiebreaks]
    aliases = [(ALIAS_OF[code], tb) for code, tb in codes if code in ALIAS_OF]
    return [*codes, *aliases]


def tiebreak_value(row: StandingRow, name: str) -> float:
    """A row's value of a tie-break named by code or by today's name, whichever the row's
    standings were computed under."""
    found = row.tiebreaks.get(name)
    if found is None:
        code = code_of(name)
        found = row.tiebreaks.get(code, row.tiebreaks.get(ALIAS_OF.get(code, code)))
    if found is None:
        raise KeyError(name)
    return found


def tiebreak_number(key: str, value: float) -> float | int:
    """A value as JSON gives it: counts and ratings as whole numbers, points as floats."""
    return int(value) if code_of(key) in WHOLE else float(value)


def tiebreaks_json(row: StandingRow, tiebreaks: Sequence[str]) -> dict[str, float | int]:
    """A row's tie-breaks as JSON gives them, under the keys of tiebreak_keys."""
    return {
        key: tiebreak_number(key, tiebreak_value(row, name))
        for key, name in tiebreak_keys(tiebreaks)
    }


def tiebreak_legend_json(tiebreaks: Sequence[str]) -> dict[str, str]:
    """Each code's English name (`BH-C1`: `Buchholz Cut 1`), for JSON readers."""
    return {code_of(tb): name_of(code_of(tb)) for tb in tiebreaks}


def standings_json(
    rows: Sequence[StandingRow], tiebreaks: Sequence[str], *, extended: bool = False
) -> list[dict[str, Any]]:
    """The `kz standings --json` form: rank, name, score, tie-breaks by FIDE code and by
    today's names (counts and ratings as whole numbers); `extended` (the API's form) adds
    each row's start rank and withdrawal."""
    keys = tiebreak_keys(tiebreaks)
    out = []
    for row in rows:
        tbs = {key: tiebreak_number(key, tiebreak_value(row, tb)) for key, tb in keys}
        item: dict[str, Any] = {
            "rank": row.rank,
            "name": row.entrant.name,
            "score": row.score,
            "tiebreaks": tbs,
        }
        if extended:
            item["start_rank"] = row.entrant.start_rank
            item["withdrawn_after_round"] = row.entrant.withdrawn_after
        out.append(item)
    return out


class CrossCell(NamedTuple):
    """One round of one crosstable row: opponent's rank, placed first, result symbol, and
    how it counts: `points` where a penalty set them (marked *), in brackets when the round
    is kept on record but not counted. A named tuple: a 1,000-player crosstable has 11,000."""

    opponent_rank: int | None
    placed_first: bool | None
    symbol: str
    counted: bool = True
    penalized: bool = False
    points: float = 0.0

    def text(self) -> str:
        if not self.symbol:
            return ""
        shown = f"{format_points(self.points)}*" if self.penalized else self.symbol
        if self.opponent_rank is not None:
            side = {True: "f", False: "s", None: ""}[self.placed_first]
            shown = f"{self.opponent_rank}{side}{shown}"
        return shown if self.counted else f"({shown})"


# What the marks of a crosstable cell mean, for the pages' legend.
CROSSTABLE_LEGEND = (
    ("f / s", "placed first / second"),
    ("1 0 =", "win, loss, draw (−½ to each side)"),
    ("+ -", "won / lost by forfeit"),
    ("B H", "pairing-allocated bye, requested bye"),
    ("*", "the points that count after a penalty (Art. 12.4 d, e, f)"),
    ("( )", "kept on record, not counted (a round robin withdrawal before half the games)"),
)


def crosstable_rows(rows: Sequence[StandingRow], n_rounds: int) -> list[list[CrossCell]]:
    """Per standings row, a cell for each round 1..n_rounds."""
    rank_of = {row.entrant.id: row.rank for row in rows}
    empty = CrossCell(None, None, "")
    symbol = SYMBOL
    numbers = range(1, n_rounds + 1)
    table = []
    for row in rows:
        rounds = row.rounds
        cells = []
        add = cells.append
        for rnd in numbers:
            r = rounds.get(rnd)
            if r is None:
                add(empty)
                continue
            opponent = r.opponent
            add(
                CrossCell(
                    rank_of.get(opponent) if opponent is not None else None,
                    r.placed_first,
                    symbol[r.outcome],
                    r.counted,
                    r.penalized,
                    r.points,
                )
            )
        table.append(cells)
    return table
