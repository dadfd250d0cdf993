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

TIEBREAKS = (
    "buchholz",
    "buchholz_cut1",
    "median_buchholz",
    "sonneborn_berger",
    "wins",
    "progressive",
    "direct_encounter",
    "koya",
)
DEFAULT_TIEBREAKS = ("buchholz", "sonneborn_berger", "wins")
WEIGHT = {Outcome.WIN: 1.0, Outcome.DRAW: 0.5, Outcome.LOSS: 0.0}
_PLAYED = frozenset(o for o in Outcome if o.played)
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
) -> list[StandingRow]:
    """Rows in standings order: score, the tie-breaks in order, rating, then name."""
    _tiebreaks_check(tiebreaks=tiebreaks)
    shown, by_player = _results_index(results=results)
    last_round = max((rnd for rr in by_player.values() for rnd in rr), default=0)
    n_rounds = rounds_completed if rounds_completed is not None else last_round
    ids = [e.id for e in entrants]
    score = _scores(ids=ids, by_player=by_player, n_rounds=n_rounds)
    want_buchholz = bool(set(tiebreaks) & {"buchholz", "buchholz_cut1", "median_buchholz"})
    values = _tiebreaks_compute(
        ids=ids, by_player=by_player, score=score, n_rounds=n_rounds, want_buchholz=want_buchholz
    )
    entrant_of = {e.id: e for e in entrants}
    order = _standings_order(
        ids=ids,
        score=score,
        values=values,
        tiebreaks=tiebreaks,
        entrant_of=entrant_of,
        by_player=by_player,
        n_rounds=n_rounds,
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
        if tb not in TIEBREAKS:
            raise ValueError(f"unknown tie-break {tb!r}")


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


def _scores(
    *, ids: list[int], by_player: dict[int, dict[int, RoundResult]], n_rounds: int
) -> dict[int, float]:
    """Each player's score: the points of their counted rounds up to `n_rounds`."""
    return {
        pid: _round_half(sum(r.points for r in by_player[pid].values() if r.round <= n_rounds))
        for pid in ids
    }


def _tiebreaks_compute(
    *,
    ids: list[int],
    by_player: dict[int, dict[int, RoundResult]],
    score: dict[int, float],
    n_rounds: int,
    want_buchholz: bool,
) -> dict[int, dict[str, float]]:
    """Every player's tie-breaks but the direct encounter, in one pass over each player's
    rounds (a round without an opponent counts one as strong as the player)."""
    # Sonneborn-Berger adds half a point per round to each opponent's score, so that a
    # draw's −½ never makes beating a player worth less than nothing (tournaments.md).
    shift = 0.5 * n_rounds
    koya_bar = 0.5 * n_rounds
    win, played, weight = Outcome.WIN, _PLAYED, WEIGHT
    values: dict[int, dict[str, float]] = {}
    for pid in ids:
        rounds = by_player[pid]
        own = score[pid]
        contributions = []
        add = contributions.append
        sb = koya = running = progressive = 0.0
        wins = 0
        for rnd in range(1, n_rounds + 1):
            r = rounds.get(rnd)
            if r is None:
                add(own)  # a virtual opponent as strong as oneself
                continue
            outcome = r.outcome
            opponent = score.get(r.opponent) if r.opponent is not None else None
            if outcome in played and opponent is not None:
                add(opponent)
                sb += weight[outcome] * (opponent + shift)
                if opponent >= koya_bar:
                    koya += r.points
            else:
                add(own)
            if outcome is win:
                wins += 1
            running += r.points
            progressive += running
        values[pid] = v = {}
        if want_buchholz:
            contributions.sort()
            v["buchholz"] = _round_half(sum(contributions))
            v["buchholz_cut1"] = _round_half(sum(contributions[1:]))
            v["median_buchholz"] = _round_half(sum(contributions[1:-1]))
        v["sonneborn_berger"] = _round_half(sb)
        v["wins"] = float(wins)
        v["progressive"] = _round_half(progressive)
        v["koya"] = _round_half(koya)
    return values


def _standings_order(
    *,
    ids: list[int],
    score: dict[int, float],
    values: dict[int, dict[str, float]],
    tiebreaks: Sequence[str],
    entrant_of: dict[int, Entrant],
    by_player: dict[int, dict[int, RoundResult]],
    n_rounds: int,
) -> list[int]:
    """The players' ids in standings order. The direct encounter is among players tied on
    everything before it, so it is computed (into `values`) from a first order without it."""
    order = sorted(ids, key=lambda pid: _key(pid, score, values, tiebreaks, entrant_of, "pre"))
    if "direct_encounter" in tiebreaks:
        _direct_encounter(order, score, values, tiebreaks, by_player, n_rounds)
        order = sorted(ids, key=lambda pid: _key(pid, score, values, tiebreaks, entrant_of, "all"))
    return order


def _key(
    pid: int,
    score: dict[int, float],
    values: dict[int, dict[str, float]],
    tiebreaks: Sequence[str],
    entrant_of: dict[int, Entrant],
    stage: str,
) -> tuple[Any, ...]:
    tbs = []
    for tb in tiebreaks:
        if tb == "direct_encounter" and stage == "pre":
            tbs.append(0.0)
        else:
            tbs.append(-values[pid].get(tb, 0.0))
    e = entrant_of[pid]
    return (-score[pid], *tbs, -e.rating, e.name, pid)


def _direct_encounter(
    order: list[int],
    score: dict[int, float],
    values: dict[int, dict[str, float]],
    tiebreaks: Sequence[str],
    by_player: dict[int, dict[int, RoundResult]],
    n_rounds: int,
) -> None:
    """Points among players tied on score and the tie-breaks before it, when all of them met;
    0 for everyone in a group where some pair never met."""
    before = list(tiebreaks[: list(tiebreaks).index("direct_encounter")])
    groups: dict[tuple[float, ...], list[int]] = defaultdict(list)
    for pid in order:
        groups[(score[pid], *(values[pid][tb] for tb in before))].append(pid)
    for members in groups.values():
        for pid in members:
            values[pid]["direct_encounter"] = 0.0
        if len(members) < 2:
            continue
        member_set = set(members)
        met: set[frozenset[int]] = set()
        points = dict.fromkeys(members, 0.0)
        for pid in members:
            for r in by_player[pid].values():
                if r.opponent in member_set and r.outcome.played and r.round <= n_rounds:
                    met.add(frozenset((pid, r.opponent)))
                    points[pid] += r.points
        pairs = len(members) * (len(members) - 1) // 2
        if len(met) == pairs:
            for pid in members:
                values[pid]["direct_encounter"] = _round_half(points[pid])


def standings_json(
    rows: Sequence[StandingRow], tiebreaks: Sequence[str], *, extended: bool = False
) -> list[dict[str, Any]]:
    """The `kz standings --json` form: rank, name, score, tie-breaks (wins as a whole number);
    `extended` (the API's form) adds each row's start rank and withdrawal."""
    out = []
    for row in rows:
        tbs: dict[str, Any] = {}
        for tb in tiebreaks:
            value = row.tiebreaks[tb]
            tbs[tb] = int(value) if tb == "wins" else float(value)
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
