"""Reads of series: each member event's placings, the standings with their categories, the
series an event belongs to, and the ratings the bands read (series_scoring does the sums)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet

from tournaments.models import (
    Game,
    PeriodRating,
    Player,
    Round,
    Series,
    SeriesEvent,
    Tournament,
)
from tournaments.pairing import knockout_next_round
from tournaments.scoring import Outcome
from tournaments.selectors import declared_result, penalty_effects, standings_compute
from tournaments.series_scoring import (
    Category,
    EventPlacings,
    Placing,
    SeriesRow,
    SeriesRules,
    category_standings,
    knockout_places,
    places_shared,
    series_standings,
)

KNOCKOUT_OUTCOME = {
    Game.Result.FIRST_WIN: "first",
    Game.Result.FIRST_FORFEIT_WIN: "first",
    Game.Result.SECOND_WIN: "second",
    Game.Result.SECOND_FORFEIT_WIN: "second",
    Game.Result.DRAW: "draw",
    Game.Result.DOUBLE_FORFEIT: "draw",
    Game.Result.PENDING: "",
}


def series_events(*, series: Series, accepted_only: bool = True) -> list[SeriesEvent]:
    """The series' events by date (those accepted only, unless asked)."""
    q = series.memberships.select_related("tournament", "tournament__organizer")
    if accepted_only:
        q = q.filter(status=SeriesEvent.Status.ACCEPTED)
    return list(q.order_by("tournament__start_date", "tournament__name"))


def tournament_series(*, tournament: Tournament) -> QuerySet[Series]:
    """The series an event counts in (its organizer accepted)."""
    return Series.objects.filter(
        memberships__tournament=tournament, memberships__status=SeriesEvent.Status.ACCEPTED
    ).order_by("name")


def series_invitations(*, tournament: Tournament) -> QuerySet[SeriesEvent]:
    """The invitations an event's organizer has not yet accepted."""
    return tournament.series_memberships.filter(status=SeriesEvent.Status.INVITED).select_related(
        "series"
    )


def _knockout_stages(tournament: Tournament) -> tuple[dict[int, int], int | None]:
    """Each player's last stage (1 the first) and the champion, if decided: a round whose
    games all replay ties of the current stage belongs to it, any other starts a new one
    (as the pairing reads a knockout's progress)."""
    rounds = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number")
    rounds = rounds.prefetch_related(Prefetch("games", queryset=Game.objects.order_by("board")))
    effects = penalty_effects(tournament=tournament)
    reached: dict[int, int] = {}
    stage: list[tuple[int, int | None]] = []
    played: list[tuple[int, int, str]] = []
    number = 0
    for rnd in rounds:
        games = [g for g in rnd.games.all() if g.kind != Game.Kind.REQUESTED_BYE]
        ties = {frozenset(t) for t in stage}
        met = [frozenset((g.first_id, g.second_id)) for g in games if g.second_id is not None]
        if not stage or not met or not all(pair in ties for pair in met):
            stage, played, number = [(g.first_id, g.second_id) for g in games], [], number + 1
        for g in games:
            for pid in (g.first_id, g.second_id):
                if pid is not None:
                    reached[pid] = number
            if g.second_id is not None:
                declared = declared_result(
                    effects.get((g.pk, g.first_id), ()), effects.get((g.pk, g.second_id), ())
                )
                played.append(
                    (g.first_id, g.second_id, KNOCKOUT_OUTCOME[Game.Result(declared or g.result)])
                )
    return reached, _champion(stage, played)


def _champion(
    stage: list[tuple[int, int | None]], played: list[tuple[int, int, str]]
) -> int | None:
    if not stage:
        return None
    try:
        kind, ties = knockout_next_round(stage, played)
    except ValueError:  # a result still pending: nobody has won yet
        return None
    return ties[0][0] if kind == "done" else None


def event_placings(*, tournament: Tournament) -> EventPlacings:
    """Where each player who played finished: a knockout by the round reached; any other
    event by its standings, players whose score and every tie-break are equal sharing."""
    if tournament.pairing_system == Tournament.PairingSystem.KNOCKOUT:
        reached, champion = _knockout_stages(tournament)
        return EventPlacings(tournament.pk, tuple(knockout_places(reached, champion)))
    rows = [
        r
        for r in standings_compute(tournament=tournament)
        if any(rr.outcome != Outcome.ABSENT for rr in r.rounds.values())
    ]
    keyed = [(r.entrant.id, (r.score, tuple(sorted(r.tiebreaks.items())))) for r in rows]
    scores = {r.entrant.id: r.score for r in rows}
    return EventPlacings(
        tournament.pk,
        tuple(Placing(p.player, p.place, p.shared, scores[p.player]) for p in places_shared(keyed)),
    )


def series_rules(*, series: Series) -> SeriesRules:
    table = tuple(float(x) for x in series.points_table)
    return SeriesRules(scoring=series.scoring, table=table, best=series.best_of)


def series_start_ratings(*, series: Series, players: list[int]) -> dict[int, int]:
    """Each player's rating when the series began: their rating in its pool after the last
    period that ended by then, else their declared rating (0: none)."""
    found = dict(Player.objects.filter(pk__in=players).values_list("pk", "rating"))
    if series.starts_on is not None:
        rated = PeriodRating.objects.filter(
            player_id__in=players,
            period__pool=series.pool,
            period__ends_before__lte=series.starts_on,
            period__closed_at__isnull=False,
        ).order_by("period__sequence")
        for pid, rating in rated.values_list("player_id", "rating"):
            found[pid] = round(rating)
    return found


@dataclass(frozen=True)
class SeriesLine:
    """A row as the pages show it: the player, and one cell per event (None: not played)."""

    row: SeriesRow
    name: str
    club: str
    cells: tuple[Any, ...]


@dataclass
class SeriesTable:
    series: Series
    events: list[SeriesEvent]
    lines: list[SeriesLine]
    categories: list[tuple[str, list[SeriesLine]]] = field(default_factory=list)
    start_ratings: dict[int, int] = field(default_factory=dict)


def _category_of(category: Any) -> Category:
    if category.is_group:
        players = frozenset(p.pk for p in category.players.all())
        return Category(category.name, players=players)
    return Category(category.name, low=category.low, high=category.high)


def series_table(*, series: Series) -> SeriesTable:
    """The series' standings, with a table per category."""
    events = series_events(series=series)
    placings = [event_placings(tournament=m.tournament) for m in events]
    ids = sorted({p.player for ev in placings for p in ev.placings})
    people = {p.pk: p for p in Player.objects.filter(pk__in=ids).select_related("club")}
    rows = series_standings(placings, series_rules(series=series), lambda pid: people[pid].name)
    order = [m.tournament_id for m in events]

    def line(row: SeriesRow) -> SeriesLine:
        by_event = {r.event: r for r in row.results}
        person = people[row.player]
        club = person.club.name if person.club else ""
        return SeriesLine(row, person.name, club, tuple(by_event.get(e) for e in order))

    ratings = series_start_ratings(series=series, players=ids)
    categories = [
        (
            c.name,
            [
                line(r)
                for r in category_standings(
                    rows, _category_of(c), ratings, lambda pid: people[pid].name
                )
            ],
        )
        for c in series.categories.prefetch_related("players")
    ]
    return SeriesTable(series, events, [line(r) for r in rows], categories, ratings)


def _line_json(line: SeriesLine, events: list[SeriesEvent]) -> dict[str, Any]:
    return {
        "rank": line.row.rank,
        "player": line.row.player,
        "name": line.name,
        "club": line.club,
        "total": line.row.total,
        "played": line.row.played,
        "best": line.row.best,
        "playoff": line.row.playoff,
        "results": [
            {
                "event": m.tournament.slug,
                "place": cell.place,
                "shared": cell.shared,
                "points": cell.points,
                "counted": cell.counted,
            }
            for m, cell in zip(events, line.cells, strict=True)
            if cell is not None
        ],
    }


def series_json(*, table: SeriesTable) -> dict[str, Any]:
    """The standings as the API, the JSON page and `kz series standings --json` give them."""
    s = table.series
    return {
        "series": s.slug,
        "name": s.name,
        "scoring": s.scoring,
        "points_table": list(s.points_table),
        "best_of": s.best_of,
        "events": [
            {
                "slug": m.tournament.slug,
                "name": m.tournament.name,
                "start_date": str(m.tournament.start_date),
            }
            for m in table.events
        ],
        "standings": [_line_json(line, table.events) for line in table.lines],
        "categories": [
            {"name": name, "standings": [_line_json(line, table.events) for line in lines]}
            for name, lines in table.categories
        ],
    }
