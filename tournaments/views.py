"""Public pages (no login): thin views over the selectors."""

from __future__ import annotations

import csv

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _

from rules.points import format_points
from tournaments import selectors
from tournaments.audit import audit_head
from tournaments.models import Player, Tournament

TIEBREAK_LABELS = {
    "buchholz": _("Buchholz"),
    "buchholz_cut1": _("Buchholz Cut 1"),
    "median_buchholz": _("Median Buchholz"),
    "sonneborn_berger": _("Sonneborn-Berger"),
    "wins": _("Wins"),
    "progressive": _("Progressive"),
    "direct_encounter": _("Direct encounter"),
    "koya": _("Koya"),
}


def _labels(tiebreaks: list[str]) -> list[str]:
    return [str(TIEBREAK_LABELS.get(tb, tb)) for tb in tiebreaks]


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", {"tournaments": selectors.tournament_list()})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    return render(
        request,
        "tournaments/detail.html",
        {
            "t": t,
            "rounds": selectors.round_list(tournament=t),
            "players": selectors.entrants(tournament=t),
            "audit_head": audit_head(tournament=t),
        },
    )


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = _tournament(slug)
    rnd = selectors.round_list(tournament=t).filter(number=number).first()
    if rnd is None:
        raise Http404("no such round")
    return render(request, "tournaments/round.html", {"t": t, "round": rnd})


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    rows = selectors.standings_compute(tournament=t)
    tiebreaks = t.tiebreak_list
    table = [
        (row, format_points(row.score), [format_points(row.tiebreaks[tb]) for tb in tiebreaks])
        for row in rows
    ]
    return render(
        request,
        "tournaments/standings.html",
        {"t": t, "table": table, "tiebreaks": _labels(tiebreaks)},
    )


def crosstable(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    table = selectors.crosstable_get(tournament=t)
    lines = [
        (
            row,
            [c.text() for c in cells],
            format_points(row.score),
            [format_points(row.tiebreaks[tb]) for tb in table.tiebreaks],
        )
        for row, cells in zip(table.rows, table.cells, strict=True)
    ]
    return render(
        request,
        "tournaments/crosstable.html",
        {
            "t": t,
            "lines": lines,
            "rounds": range(1, table.rounds + 1),
            "tiebreaks": _labels(list(table.tiebreaks)),
        },
    )


def crosstable_csv(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    table = selectors.crosstable_get(tournament=t)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{t.slug}-crosstable.csv"'
    writer = csv.writer(response)
    writer.writerow(
        [
            "rank",
            "name",
            "club",
            "rating",
            *[f"R{n}" for n in range(1, table.rounds + 1)],
            "score",
            *table.tiebreaks,
        ]
    )
    for row, cells in zip(table.rows, table.cells, strict=True):
        writer.writerow(
            [
                row.rank,
                row.entrant.name,
                row.entrant.club,
                row.entrant.rating,
                *[c.text() for c in cells],
                row.score,
                *[row.tiebreaks[tb] for tb in table.tiebreaks],
            ]
        )
    return response


def crosstable_json(request: HttpRequest, slug: str) -> JsonResponse:
    return JsonResponse(selectors.crosstable_json(tournament=_tournament(slug)))


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    return render(
        request,
        "tournaments/player.html",
        {
            "player": player,
            "games": selectors.player_games(player=player),
            "penalties": selectors.player_penalties(player=player, user=request.user),
        },
    )
