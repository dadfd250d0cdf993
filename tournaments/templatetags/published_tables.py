"""`{% standings_rows table %}`, `{% crosstable_rows lines %}`, `{% pairing_rows rows t %}`,
`{% player_items players %}`: the long published tables and lists built in Python (through the
template engine, a 1,000-player table was two thirds of a cold page: a node per cell and a
`reverse()` per row)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from django import template
from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from tournaments.models import Tournament
from tournaments.page_selectors import PairingRow, Side
from tournaments.rating_event_selectors import RatingChange
from tournaments.standings import Entrant, StandingRow

register = template.Library()

# An id no URL holds otherwise: reversed once with it, each row's URL is the id put in its
# place (the active language's prefix included).
PLACEHOLDER = "987654321"


def url_parts(name: str) -> tuple[str, str]:
    """What comes before and after the id in the URL `name` takes one id for."""
    before, found, after = reverse(name, args=[PLACEHOLDER]).partition(PLACEHOLDER)
    if not found:
        raise ValueError(f"{name} does not put its id in the URL")
    return before, after


def _player_cells(row: StandingRow, link: tuple[str, str]) -> str:
    """Rank, name (a link to the player's page), club and rating, as the templates had them
    (HTML escaped as Django's autoescaping does; numbers as it prints them, no grouping)."""
    e = row.entrant
    return (
        f'<td class="num">{row.rank}</td><td><a href="{link[0]}{e.id}{link[1]}">'
        f"{escape(e.name)}</a>{_withdrawn_mark(e)}</td><td>{escape(e.club)}</td>"
        f'<td class="num">{e.rating}</td>'
    )


def _withdrawn_mark(e: Entrant) -> str:
    """After a withdrawn (or expelled) player's name: since when they are no longer paired."""
    if e.withdrawn_after is None:
        return ""
    text = (
        gettext("withdrawn after round %(n)s") % {"n": e.withdrawn_after}
        if e.withdrawn_after
        else gettext("withdrawn")
    )
    return f' <small class="withdrawn">({escape(text)})</small>'


# The points columns are printed as they are: points_shown makes digits, signs, ½ and the
# language's decimal separator only.


@register.simple_tag
def standings_rows(table: Sequence[tuple[StandingRow, str, Sequence[str]]]) -> SafeString:
    """The standings' rows: (row, score shown, tie-breaks shown) each."""
    link = url_parts("tournaments:player")
    out = []
    for row, score, tiebreaks in table:
        values = "".join(f'<td class="num">{v}</td>' for v in tiebreaks)
        out.append(
            f"\n<tr>{_player_cells(row, link)}"
            f'<td class="num">{row.entrant.start_rank or ""}</td>\n'
            f'<td class="num score">{score}</td>{values}</tr>\n'
        )
    return mark_safe("".join(out))  # noqa: S308 - every text above is escaped


@register.simple_tag
def crosstable_rows(
    lines: Sequence[
        tuple[
            StandingRow,
            Sequence[tuple[str, RatingChange | None]],
            str,
            Sequence[str],
            RatingChange | None,
        ]
    ],
) -> SafeString:
    """The crosstable's rows: (row, its cells' texts each with the battle's rating change,
    score shown, tie-breaks shown, the rating changes' sum) each. A cell's text is a rank,
    f or s, a result's mark, a point and brackets, a change a signed number: nothing to
    escape."""
    link = url_parts("tournaments:player")
    estimate = escape(gettext("estimate"))
    out = []
    for row, cells, score, tiebreaks, total in lines:
        texts = "".join(f"<td>{c}{_change(ch, estimate)}</td>" for c, ch in cells)
        values = "".join(f'<td class="num">{v}</td>' for v in tiebreaks)
        out.append(
            f"\n<tr>{_player_cells(row, link)}\n"
            f'{texts}<td class="num score">{score}</td>{values}'
            f'<td class="num noprint">{_change(total, estimate, cell=True)}</td></tr>\n'
        )
    return mark_safe("".join(out))  # noqa: S308 - every text above is escaped


def _change(change: RatingChange | None, estimate: str, *, cell: bool = False) -> str:
    """A rating change as a crosstable cell shows it: an estimate marked (class, `~`, title);
    not printed (the wall chart keeps to the results and fits its page)."""
    if change is None:
        return ""
    br = "" if cell else "<br>"
    if change.estimate:
        return (
            f'<small class="rating-change estimate noprint" title="{estimate}">'
            f"{br}{change.text()}</small>"
        )
    return f'<small class="rating-change noprint">{br}{change.text()}</small>'


def _side_cells(side: Side, link: tuple[str, str]) -> str:
    return (
        f'<td><a href="{link[0]}{side.id}{link[1]}">{escape(side.name)}</a></td>'
        f'<td class="num">{side.rating}</td>'
    )


def _pairing_row(
    row: PairingRow,
    *,
    games: tuple[str, str],
    players: tuple[str, str],
    spindle: str,
    board_label: str,
) -> str:
    """One board: the first placer, the result (or the bye's points), the second placer
    (or the kind of bye), and the spindle's cell when the event casts it. The board's cell
    carries its heading (`board_label`): a phone shows each board as a card, without the
    table's head (site.css)."""
    g, first, second = row.game, row.first, row.second
    game_url = f"{games[0]}{g.pk}{games[1]}"
    head = (
        f'\n<tr id="board-{g.board}"><td class="num" data-label="{board_label}">'
        f'<a href="{game_url}">{g.board}</a></td>'
        f'<td class="num">{first.start_rank or ""}</td>{_side_cells(first, players)}'
        f'<td class="num">{first.points}</td>\n<td class="result">'
    )
    if second is None:
        tail = (
            f"{row.bye_points}</td>\n<td></td><td>{escape(str(g.get_kind_display()))}</td>"
            "<td></td><td></td>"
        )
    else:
        result = ""
        if row.marks[0]:
            result = f'<a href="{game_url}">{row.marks[0]} – {row.marks[1]}</a>'
        tail = (
            f'{result}</td>\n<td class="num">{second.points}</td>{_side_cells(second, players)}'
            f'<td class="num">{second.start_rank or ""}</td>'
        )
    return f"{head}{tail}\n{spindle}</tr>\n"


@register.simple_tag
def pairing_rows(rows: Sequence[PairingRow], t: Tournament) -> SafeString:
    """The round's boards (page_selectors.round_pairing_rows). The spindle's cell, with its
    translated sentences, stays a template (`tournaments/_spindle_cell.html`)."""
    games, players = url_parts("games:detail"), url_parts("tournaments:player")
    cell = (
        get_template("tournaments/_spindle_cell.html") if t.placement_order == "spindle" else None
    )
    board_label = escape(gettext("Board"))
    out = [
        _pairing_row(
            row,
            games=games,
            players=players,
            spindle=cell.render({"g": row.game}) if cell is not None else "",
            board_label=board_label,
        )
        for row in rows
    ]
    return mark_safe("".join(out))  # noqa: S308 - every text above is escaped


@register.simple_tag
def player_items(players: Sequence[Entrant], bases: Mapping[int, str] | None = None) -> SafeString:
    """The tournament page's players: a link to each one's page, club and rating, and what
    the rating is (`bases`: player id to the basis's name, as the start list seeds by it)."""
    link = url_parts("tournaments:player")
    bases = bases or {}
    out = [
        f'<li><a href="{link[0]}{p.id}{link[1]}">{escape(p.name)}</a> {escape(p.club)} '
        f"{p.rating}{_basis(bases.get(p.id, ''))}</li>"
        for p in players
    ]
    return mark_safe("".join(out))  # noqa: S308 - every text above is escaped


def _basis(name: str) -> str:
    return f' <small class="rating-basis">({escape(name)})</small>' if name else ""
