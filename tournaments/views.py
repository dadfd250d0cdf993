"""Public pages (no login): thin views over the selectors."""

from __future__ import annotations

import copy
import csv
from collections.abc import Callable, Sequence

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseBase,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string

from klinzha_site.csv_cells import csv_text
from klinzha_site.page_cache import page_serve, page_splice
from klinzha_site.parsing import ID_MAX, ascii_int_or_none
from tournaments import page_selectors, selectors
from tournaments.audit import audit_head
from tournaments.crosstable_grid import grid_cells
from tournaments.display_selectors import ROWS_DEFAULT, ROWS_MAX, ROWS_MIN, display_slides
from tournaments.event_system_selectors import knockout_bracket_stages, round_robin_schedule
from tournaments.formats import points_formatter
from tournaments.live_page_views import DISPLAY_SECONDS, LIVE_EVERY
from tournaments.models import Player, Tournament
from tournaments.models.ratings import POOL_CHOICES
from tournaments.own_boards import own_boards_first
from tournaments.published import tournament_published_serve
from tournaments.rating_event_selectors import (
    crosstable_json_rated,
    event_rating_changes,
    event_rating_totals,
)
from tournaments.rating_page_selectors import history_points, player_rating_history
from tournaments.rating_selectors import entrant_rating_bases, tournament_pool
from tournaments.series_selectors import tournament_series
from tournaments.standings import StandingRow, tiebreak_keys, tiebreak_value
from tournaments.tiebreak_texts import tiebreak_legend
from tournaments.tiebreaks import code_of


def _labels(tiebreaks: list[str]) -> list[str]:
    """The columns' headings: the FIDE codes (the legend names them)."""
    return [code_of(tb) for tb in tiebreaks]


def _legend(tiebreaks: list[str], rows: Sequence[StandingRow]) -> list[tuple[str, str]]:
    """The tie-break columns with what they mean (after as many rounds as the rows show)."""
    return tiebreak_legend(tiebreaks, max((n for row in rows for n in row.rounds), default=0))


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _anonymous(request: HttpRequest) -> HttpRequest:
    """The request as a visitor would make it: what is rendered for the cache shows nobody's
    name, links or messages (a signed-in user's account links are put in as it is served)."""
    anonymous = copy.copy(request)
    anonymous.user = AnonymousUser()
    anonymous._messages = []  # type: ignore[attr-defined]
    return anonymous


def _published(
    request: HttpRequest,
    slug: str,
    page: str,
    view: Callable[[HttpRequest], HttpResponse],
    params: Sequence[str] = (),
    audited: bool = False,
    own: Callable[[bytes], bytes] | None = None,
) -> HttpResponseBase:
    """A tournament's published page (tournaments.published): rendered for a visitor on a
    miss, keyed by its path too, with a signed-in user's account links put in as served,
    and `own` (their own part of the page, for a signed-in user only) applied to it as
    served, cached or not."""
    if not request.user.is_authenticated:
        own = None

    def uncached() -> HttpResponse:
        response = view(request)
        if own is not None and response.status_code == 200:
            response.content = own(response.content)
        return response

    def personalize(body: bytes) -> bytes:
        body = _account_links(request, body)
        return own(body) if own is not None else body

    return tournament_published_serve(
        request=request,
        slug=slug,
        name=f"{page}:{request.path}",
        render=lambda: view(_anonymous(request)),
        uncached=uncached,
        params=params,
        audited=audited,
        personalize=personalize if request.user.is_authenticated else None,
    )


def _account_links(request: HttpRequest, body: bytes) -> bytes:
    """A cached page with the header's account links of the signed-in user (the arbiter's
    pages, my games, log out): the one part of a published page that is theirs."""
    links = render_to_string("_account_nav.html", request=request)
    return page_splice(body, "account-nav", links.encode())


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", {"tournaments": selectors.tournament_list()})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponseBase:
    return _published(request, slug, "detail", lambda r: _tournament_detail(r, slug), audited=True)


def _tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    return render(
        request,
        "tournaments/detail.html",
        {
            "t": t,
            "pool": (pool := tournament_pool(tournament=t)),
            "pool_name": dict(POOL_CHOICES)[pool],
            "rounds": page_selectors.rounds_published(tournament=t),
            "players": selectors.entrants(tournament=t),
            "bases": entrant_rating_bases(tournament=t),
            "audit_head": audit_head(tournament=t),
            "series": list(tournament_series(tournament=t)),
            "schedule": round_robin_schedule(tournament=t),
        },
    )


def bracket(request: HttpRequest, slug: str) -> HttpResponseBase:
    return _published(request, slug, "bracket", lambda r: _bracket(r, slug))


def _bracket(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    if t.pairing_system != Tournament.PairingSystem.KNOCKOUT:
        raise Http404("not a knockout")
    return render(
        request,
        "tournaments/bracket.html",
        {"t": t, "stages": knockout_bracket_stages(tournament=t)},
    )


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponseBase:
    def own(body: bytes) -> bytes:
        # Only for a signed-in reader (_published): the one query of theirs on a cached page.
        boards = page_selectors.round_own_boards(user_id=request.user.pk, slug=slug, number=number)
        return own_boards_first(body, boards)

    return _published(
        request,
        slug,
        f"round{number}",
        lambda r: _round_detail(r, slug, number),
        ("slips",),
        own=own,
    )


def _round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = _tournament(slug)
    rnd = selectors.round_list(tournament=t).filter(number=number).first()
    if rnd is None:
        raise Http404("no such round")
    rows = page_selectors.round_pairing_rows(tournament=t, round=rnd)
    return render(
        request,
        "tournaments/round.html",
        {"t": t, "round": rnd, "rows": rows},
    )


def standings(request: HttpRequest, slug: str) -> HttpResponseBase:
    return _published(request, slug, "standings", lambda r: _standings(r, slug), ("round",))


def _standings(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    try:
        after = ascii_int_or_none(request.GET.get("round") or None, field="round", lo=1)
    except ValidationError:
        return HttpResponseBadRequest("round must be a round number (digits 0-9)")
    numbers = list(selectors.round_list(tournament=t).values_list("number", flat=True))
    if after is not None and after not in numbers:
        raise Http404("no such round")
    rows = selectors.standings_compute(tournament=t, after_round=after)
    tiebreaks = t.tiebreak_list
    shown = points_formatter()
    table = [
        (row, shown(row.score), [shown(row.tiebreaks[tb]) for tb in tiebreaks]) for row in rows
    ]
    return render(
        request,
        "tournaments/standings.html",
        {
            "t": t,
            "table": table,
            "tiebreaks": _labels(tiebreaks),
            "legend": _legend(tiebreaks, rows),
            "after": after,
            "numbers": numbers,
        },
    )


def crosstable(request: HttpRequest, slug: str) -> HttpResponseBase:
    return _published(request, slug, "crosstable", lambda r: _crosstable(r, slug))


def _crosstable(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    table = selectors.crosstable_get(tournament=t)
    shown = points_formatter()
    changes = event_rating_changes(tournament=t)
    totals = event_rating_totals(changes=changes)
    lines = [
        (
            row,
            [(c.text(), changes.get((n, row.entrant.id))) for n, c in enumerate(cells, start=1)],
            shown(row.score),
            [shown(row.tiebreaks[tb]) for tb in table.tiebreaks],
            totals.get(row.entrant.id),
        )
        for row, cells in zip(table.rows, table.cells, strict=True)
    ]
    grid = []
    if t.is_round_robin:
        # All play all: the player-by-player grid, rows and columns in the standings' order.
        grid = [
            (row, [c.text() for c in cells], score, values)
            for (row, _, score, values, _total), cells in zip(
                lines, grid_cells(table.rows), strict=True
            )
        ]
    return render(
        request,
        "tournaments/crosstable.html",
        {
            "t": t,
            "lines": lines,
            "grid": grid,
            "rounds": range(1, table.rounds + 1),
            "tiebreaks": _labels(list(table.tiebreaks)),
            "legend": _legend(list(table.tiebreaks), list(table.rows)),
        },
    )


def crosstable_csv(request: HttpRequest, slug: str) -> HttpResponseBase:
    return _published(request, slug, "crosstable.csv", lambda r: _crosstable_csv(r, slug))


def _crosstable_csv(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    table = selectors.crosstable_get(tournament=t)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{t.slug}-crosstable.csv"'
    writer = csv.writer(response)
    keys = tiebreak_keys(table.tiebreaks)
    writer.writerow(
        [
            "rank",
            "name",
            "club",
            "rating",
            *[f"R{n}" for n in range(1, table.rounds + 1)],
            "score",
            *(key for key, _name in keys),
            "withdrawn_after_round",
        ]
    )
    for row, cells in zip(table.rows, table.cells, strict=True):
        writer.writerow(
            [
                row.rank,
                csv_text(row.entrant.name),
                csv_text(row.entrant.club),
                row.entrant.rating,
                *[c.text() for c in cells],
                row.score,
                *[tiebreak_value(row, name) for _key, name in keys],
                "" if row.entrant.withdrawn_after is None else row.entrant.withdrawn_after,
            ]
        )
    return response


def crosstable_json(request: HttpRequest, slug: str) -> HttpResponseBase:
    return _published(
        request,
        slug,
        "crosstable.json",
        lambda r: JsonResponse(crosstable_json_rated(tournament=_tournament(slug))),
        audited=True,  # it publishes the audit trail's head
    )


def player_detail(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A player's page: the visitors' one from the cache while neither the player nor any
    of their events changed; a signed-in user's rendered for them (it may list penalties
    only they and their arbiters see)."""
    if not 0 < pk <= ID_MAX:  # no such id; the database would refuse the number itself
        raise Http404("no such player")
    if request.GET or request.user.is_authenticated:
        return _player_detail(request, pk)
    version = page_selectors.player_version_get(pk=pk)
    if version is None:
        raise Http404("no such player")
    return page_serve(
        request,
        key=request.path,
        render=lambda: _player_detail(_anonymous(request), pk),
        version=version,
    )


def _player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    return render(
        request,
        "tournaments/player.html",
        {
            "player": player,
            "games": page_selectors.player_game_rows(player=player),
            "penalties": selectors.player_penalties(player=player, user=request.user),
            "ratings": [
                {
                    "pool_name": dict(POOL_CHOICES)[h.pool],
                    "history": h,
                    "points": history_points(periods=h.periods),
                    "pool": h.pool,
                }
                for h in player_rating_history(player=player)
            ],
        },
    )


def display(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The full-screen page for a venue's TV: the current round's pairings by name, its
    results and the standings, a screen at a time in turn (display.js), following the
    event as live pages do; ?rows= sets how many rows fit a screen."""
    return _published(request, slug, "display", lambda r: _display(r, slug), ("rows",))


def _display(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    try:
        rows = ascii_int_or_none(
            request.GET.get("rows") or None, field="rows", lo=ROWS_MIN, hi=ROWS_MAX
        )
    except ValidationError:
        return HttpResponseBadRequest(
            f"rows must be a number from {ROWS_MIN} to {ROWS_MAX} (digits 0-9)"
        )
    per_page = rows or ROWS_DEFAULT
    rnd, slides = display_slides(tournament=t, per_page=per_page)
    return render(
        request,
        "tournaments/display.html",
        {
            "t": t,
            "round": rnd,
            "slides": slides,
            "every": DISPLAY_SECONDS,
            "live_every": LIVE_EVERY,
        },
    )
