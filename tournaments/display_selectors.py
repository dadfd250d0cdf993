"""Reads for a venue's display screen: the current round's pairings by name (alphabetical),
its results by board and the standings, each cut into pages of a screen's rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from tournaments.formats import points_formatter
from tournaments.models import Round, Tournament
from tournaments.page_selectors import PairingRow, round_pairing_rows
from tournaments.selectors import round_list, standings_compute

# How many rows a screen shows by default, and the bounds a ?rows= may ask for.
ROWS_DEFAULT = 14
ROWS_MIN, ROWS_MAX = 5, 60


@dataclass(frozen=True, slots=True)
class NameLine:
    """A player's line of the pairings by name: their board, placement and opponent."""

    name: str
    board: int
    placed_first: bool
    opponent: str
    marks: str


@dataclass(frozen=True, slots=True)
class Slide:
    """One screen: what it shows (pairings, results, standings), its title and rows."""

    kind: str
    title: str
    rows: Sequence[Any]
    page: int
    pages: int


def _pages(kind: str, title: str, rows: Sequence[Any], per_page: int) -> list[Slide]:
    chunks = [rows[i : i + per_page] for i in range(0, len(rows), per_page)] or [[]]
    return [Slide(kind, title, chunk, n, len(chunks)) for n, chunk in enumerate(chunks, start=1)]


def names_of(rows: Sequence[PairingRow]) -> list[NameLine]:
    """Each player of the round once, by name (as players look for themselves)."""
    lines = []
    for row in rows:
        g = row.game
        if row.second is None:
            kind = str(g.get_kind_display())
            lines.append(NameLine(row.first.name, g.board, True, kind, row.bye_points))
            continue
        lines.append(NameLine(row.first.name, g.board, True, row.second.name, row.marks[0]))
        lines.append(NameLine(row.second.name, g.board, False, row.first.name, row.marks[1]))
    return sorted(lines, key=lambda line: (line.name.casefold(), line.board))


def display_slides(*, tournament: Tournament, per_page: int) -> tuple[Round | None, list[Slide]]:
    """The current (last published) round and the screens to rotate: its pairings by name,
    its results by board, the standings; each kind in pages of `per_page` rows."""
    rnd = round_list(tournament=tournament).order_by("-number").first()
    slides: list[Slide] = []
    if rnd is not None:
        rows = round_pairing_rows(tournament=tournament, round=rnd)
        slides += _pages(
            "pairings",
            gettext("Round %(number)s: pairings by name") % {"number": rnd.number},
            names_of(rows),
            per_page,
        )
        slides += _pages(
            "results",
            gettext("Round %(number)s: results") % {"number": rnd.number},
            rows,
            per_page,
        )
    shown = points_formatter()
    standings = [
        (row.rank, row.entrant.name, shown(row.score))
        for row in standings_compute(tournament=tournament)
    ]
    slides += _pages("standings", gettext("Standings"), standings, per_page)
    return rnd, slides
