"""The series pages: the series, one series' standings with its CSV and JSON (no login), an
organizer's new series, the consent or refusal an invited event's organizer gives on it, and
the series' organizer taking an event out."""

from __future__ import annotations

import csv
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from klinzha_site.csv_cells import csv_text
from tournaments.formats import points_formatter
from tournaments.models import Series, SeriesEvent, Tournament
from tournaments.models.ratings import POOL_CHOICES
from tournaments.permissions import errors_text, form_errors_text
from tournaments.roles import Role, user_is_organizer, user_role
from tournaments.series_form import SeriesForm
from tournaments.series_selectors import series_events, series_json, series_table
from tournaments.services.series import (
    series_create,
    series_event_accept,
    series_event_decline,
    series_event_remove,
    series_manage_require,
)


def series_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/series_list.html",
        {"series": Series.objects.order_by("name"), "organizer": user_is_organizer(request.user)},
    )


def series_detail(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    table = series_table(series=series)
    invited = [
        m
        for m in series_events(series=series, accepted_only=False)
        if m.status == SeriesEvent.Status.INVITED
    ]
    mine = [
        m
        for m in invited
        if user_role(user=request.user, tournament=m.tournament) >= Role.ORGANIZER
    ]
    try:
        series_manage_require(series=series, user=request.user)
    except PermissionDenied:
        manages = False
    else:
        manages = request.user.is_authenticated
    return render(
        request,
        "tournaments/series.html",
        {
            "s": series,
            "table": table,
            "pool_name": dict(POOL_CHOICES).get(series.pool, series.pool),
            "invited": invited,
            "mine": mine,
            "manages": manages,
            "members": series_events(series=series, accepted_only=False) if manages else [],
            "points": points_formatter(),
        },
    )


def series_csv(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    table = series_table(series=series)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="series-{series.slug}.csv"'
    writer = csv.writer(response)
    writer.writerow(
        ["rank", "name", "club", "total", "played", "best", "playoff"]
        + [csv_text(m.tournament.slug) for m in table.events]
    )
    for line in table.lines:
        row = line.row
        cells = ["" if c is None else f"{c.points:g}{'' if c.counted else '*'}" for c in line.cells]
        writer.writerow(
            [row.rank, csv_text(line.name), csv_text(line.club), f"{row.total:g}", row.played,
             f"{row.best:g}", int(row.playoff), *cells]
        )  # fmt: skip
    return response


def series_json_page(request: HttpRequest, slug: str) -> JsonResponse:
    series = get_object_or_404(Series, slug=slug)
    return JsonResponse(
        series_json(table=series_table(series=series)), json_dumps_params={"ensure_ascii": False}
    )


@login_required
def series_new(request: HttpRequest) -> HttpResponse:
    """An organizer makes a series: their own events join, another organizer's are invited."""
    if not user_is_organizer(request.user):
        raise PermissionDenied(gettext("only organizers may make a series"))
    form = SeriesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            series = series_create(user=request.user, **data)
        except ValidationError as exc:
            messages.error(request, errors_text(exc))
        else:
            return HttpResponseRedirect(reverse("tournaments:series", args=[series.slug]))
    elif request.method == "POST":
        messages.error(request, form_errors_text(form))
    return render(request, "tournaments/series_new.html", {"form": form})


def _series_event_step(
    request: HttpRequest,
    *,
    slug: str,
    event: str,
    act: Callable[..., object],
    done: str,
    organizer_only: bool = False,
) -> HttpResponse:
    """One event's step in the series from its page: `act` done, `done` (with the event's
    name) said, or the refusal said; back to the series' page either way."""
    series = get_object_or_404(Series, slug=slug)
    if organizer_only:
        series_manage_require(series=series, user=request.user)
    tournament = get_object_or_404(Tournament, slug=event)
    try:
        act(series=series, tournament=tournament, user=request.user)
    except ValidationError as exc:
        messages.error(request, errors_text(exc))
    else:
        messages.success(request, done % {"event": tournament.name})
    return HttpResponseRedirect(reverse("tournaments:series", args=[series.slug]))


@login_required
@require_POST
def series_accept(request: HttpRequest, slug: str, event: str) -> HttpResponse:
    """The invited event's organizer consents to its counting in the series."""
    return _series_event_step(
        request,
        slug=slug,
        event=event,
        act=series_event_accept,
        done=gettext("%(event)s counts in this series."),
    )


@login_required
@require_POST
def series_decline(request: HttpRequest, slug: str, event: str) -> HttpResponse:
    """The invited event's organizer refuses: the invitation goes."""
    return _series_event_step(
        request,
        slug=slug,
        event=event,
        act=series_event_decline,
        done=gettext("%(event)s declined the invitation into this series."),
    )


@login_required
@require_POST
def series_remove(request: HttpRequest, slug: str, event: str) -> HttpResponse:
    """The series' organizer takes an event out of the series."""
    return _series_event_step(
        request,
        slug=slug,
        event=event,
        act=series_event_remove,
        done=gettext("%(event)s no longer counts in this series."),
        organizer_only=True,
    )
