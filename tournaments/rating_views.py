"""The rating pages (no login): the pools, a pool's rating list with its CSV and JSON."""

from __future__ import annotations

import csv

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from klinzha_site.csv_cells import csv_text
from tournaments.models.ratings import POOL_CHOICES
from tournaments.rating_page_selectors import RatingRow, pool_last_closed, pool_rating_list
from tournaments.ratings.pools import POOLS

PAGE_SIZE = 100
POOL_NAMES = dict(POOL_CHOICES)


def _rows(request: HttpRequest, pool: str) -> list[RatingRow]:
    if pool not in POOLS:
        raise Http404("no such rating pool")
    return pool_rating_list(
        pool=pool,
        club=request.GET.get("club", "")[:120],
        federation=request.GET.get("federation", "")[:3],
    )


def ratings_index(request: HttpRequest) -> HttpResponse:
    pools = [(p, POOL_NAMES[p], pool_last_closed(pool=p)) for p in POOLS]
    return render(request, "tournaments/ratings_index.html", {"pools": pools})


def rating_list(request: HttpRequest, pool: str) -> HttpResponse:
    rows = _rows(request, pool)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "tournaments/rating_list.html",
        {
            "pool": pool,
            "pool_name": POOL_NAMES[pool],
            "last_period": pool_last_closed(pool=pool),
            "page": page,
            "club": request.GET.get("club", ""),
            "federation": request.GET.get("federation", ""),
        },
    )


def rating_list_csv(request: HttpRequest, pool: str) -> HttpResponse:
    rows = _rows(request, pool)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ratings-{pool}.csv"'
    writer = csv.writer(response)
    writer.writerow(
        ["rank", "name", "club", "federation", "rating", "deviation", "games", "last_period",
         "provisional"]
    )  # fmt: skip
    for r in rows:
        writer.writerow(
            [
                r.rank,
                csv_text(r.name),
                csv_text(r.club),
                csv_text(r.federation),
                r.text,
                f"{r.deviation:.1f}",
                r.games,
                r.last_period,
                int(r.provisional),
            ]
        )
    return response


def rating_list_json(request: HttpRequest, pool: str) -> JsonResponse:
    rows = _rows(request, pool)
    return JsonResponse(
        {
            "pool": pool,
            "last_period": pool_last_closed(pool=pool),
            "players": [r.as_json() for r in rows],
        },
        json_dumps_params={"ensure_ascii": False},
    )
