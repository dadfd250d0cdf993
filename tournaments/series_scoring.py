"""A series' standings from its events' placings, on plain objects (docs/series.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

SCORING_PLACING = "placing"
SCORING_SCORE = "score"
SCORINGS = (SCORING_PLACING, SCORING_SCORE)
# A Grand Prix's usual table (the points of places 1, 2, ...; 0 beyond it).
DEFAULT_TABLE = (25.0, 18.0, 15.0, 12.0, 10.0, 8.0, 6.0, 4.0, 2.0, 1.0)


@dataclass(frozen=True, slots=True)
class Placing:
    """Where one player finished in one event: the first of the places they share with
    `shared - 1` others (3 and 2: third and fourth together), and their event score."""

    player: int
    place: int
    shared: int = 1
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class EventPlacings:
    event: int
    placings: tuple[Placing, ...]


@dataclass(frozen=True, slots=True)
class SeriesRules:
    scoring: str = SCORING_PLACING
    table: tuple[float, ...] = DEFAULT_TABLE
    best: int | None = None  # count the best N results; None: all of them


@dataclass(frozen=True, slots=True)
class SeriesResult:
    event: int
    place: int
    shared: int
    points: float
    counted: bool


@dataclass(frozen=True, slots=True)
class SeriesRow:
    """One player's line: `rank` is shared by rows the tie-breaks cannot part, and then
    `playoff` is set (a play-off decides them, if the organizer wants one)."""

    rank: int
    player: int
    total: float
    played: int
    best: float
    results: tuple[SeriesResult, ...] = field(default_factory=tuple)
    playoff: bool = False


def placing_points(table: Sequence[float], place: int, shared: int = 1) -> float:
    """The points of `place`, or the average of the points of the places shared (each
    place beyond the table is worth 0)."""
    if place < 1 or shared < 1:
        raise ValueError("a place and the number sharing it are at least 1")
    span = range(place - 1, place - 1 + shared)
    return round(sum(table[i] if i < len(table) else 0.0 for i in span) / shared, 6)


def places_shared(ordered: Sequence[tuple[int, object]]) -> list[Placing]:
    """Placings of players in finishing order, each with a key: neighbours with an equal
    key share their places (an event's score and tie-breaks that part nobody)."""
    out: list[Placing] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1][1] == ordered[i][1]:
            j += 1
        out += [Placing(player=p, place=i + 1, shared=j - i + 1) for p, _ in ordered[i : j + 1]]
        i = j + 1
    return out


def knockout_places(reached: Mapping[int, int], champion: int | None) -> list[Placing]:
    """A knockout's placings by the round reached (`reached`: the stage a player last
    played in, 1 the first): the champion first, then the rest of the last stage, then each
    earlier stage's players sharing their places (semi-finalists share 3-4)."""
    order = sorted(reached, key=lambda p: (-reached[p], p != champion, p))
    keyed = [(p, (reached[p], p == champion)) for p in order]
    return places_shared(keyed)


def _event_points(placing: Placing, rules: SeriesRules) -> float:
    if rules.scoring == SCORING_SCORE:
        return placing.score
    return placing_points(rules.table, placing.place, placing.shared)


def _player_results(
    events: Sequence[EventPlacings], rules: SeriesRules
) -> dict[int, list[SeriesResult]]:
    """Each player's results in event order, the best N (by points, the earlier event
    first among equal ones) marked counted."""
    found: dict[int, list[SeriesResult]] = {}
    for ev in events:
        for pl in ev.placings:
            found.setdefault(pl.player, []).append(
                SeriesResult(ev.event, pl.place, pl.shared, _event_points(pl, rules), False)
            )
    for player, results in found.items():
        ranked = sorted(range(len(results)), key=lambda i: (-results[i].points, i))
        keep = set(ranked if rules.best is None else ranked[: rules.best])
        found[player] = [
            SeriesResult(r.event, r.place, r.shared, r.points, i in keep)
            for i, r in enumerate(results)
        ]
    return found


def _row_key(row: SeriesRow) -> tuple[float, int, float]:
    """Total, then more events played, then the best single result."""
    return (-row.total, -row.played, -row.best)


def series_rank(rows: Iterable[SeriesRow], name: Callable[[int], str] = str) -> list[SeriesRow]:
    """Rows in order and ranked (a subset, a category, ranks again among itself): rows the
    tie-breaks cannot part share a rank and are marked for a play-off; `name` orders them."""
    ordered = sorted(rows, key=lambda r: (_row_key(r), name(r.player), r.player))
    out: list[SeriesRow] = []
    for i, row in enumerate(ordered):
        tied_before = i > 0 and _row_key(ordered[i - 1]) == _row_key(row)
        tied_after = i + 1 < len(ordered) and _row_key(ordered[i + 1]) == _row_key(row)
        rank = out[-1].rank if tied_before else i + 1
        out.append(
            SeriesRow(
                rank, row.player, row.total, row.played, row.best, row.results,
                playoff=(tied_before or tied_after) and row.total > 0,
            )
        )  # fmt: skip
    return out


def series_standings(
    events: Sequence[EventPlacings],
    rules: SeriesRules,
    name: Callable[[int], str] = str,
) -> list[SeriesRow]:
    """The series' rows: the sum of each player's best N results, ranked by series_rank."""
    if rules.scoring not in SCORINGS:
        raise ValueError(f"unknown scoring {rules.scoring!r}")
    if rules.best is not None and rules.best < 1:
        raise ValueError("best N is at least 1")
    rows = []
    for player, results in _player_results(events, rules).items():
        rows.append(
            SeriesRow(
                rank=0,
                player=player,
                total=round(sum(r.points for r in results if r.counted), 6),
                played=len(results),
                best=max(r.points for r in results),
                results=tuple(results),
            )
        )
    return series_rank(rows, name)


@dataclass(frozen=True, slots=True)
class Category:
    """A band of ratings at the series' start (`low` <= rating < `high`; None: open) or a
    named group of players (`players`, when given)."""

    name: str
    low: int | None = None
    high: int | None = None
    players: frozenset[int] | None = None

    def holds(self, player: int, rating: int) -> bool:
        if self.players is not None:
            return player in self.players
        return (self.low is None or rating >= self.low) and (
            self.high is None or rating < self.high
        )


def category_standings(
    rows: Iterable[SeriesRow],
    category: Category,
    ratings: Mapping[int, int],
    name: Callable[[int], str] = str,
) -> list[SeriesRow]:
    """The rows of a category's players, ranked among themselves."""
    return series_rank(
        [r for r in rows if category.holds(r.player, ratings.get(r.player, 0))], name
    )
