"""The arbiter's check-in page: the windows, who has checked in for the next round (with an
override each), the list of who has not and the closing confirm, and each entrant's private
link to print on their slip."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from klinzha_site.parsing import ID_MAX, SMALL_MAX
from tournaments import services
from tournaments.check_in_selectors import (
    check_in_next_round,
    check_in_rows,
    check_in_window_for,
    check_in_windows,
)
from tournaments.models import Registration, Tournament
from tournaments.permissions import form_errors_text, tournament_role
from tournaments.roles import Role
from tournaments.services.notifications import check_in_link


class CheckInWindowForm(forms.Form):
    round_number = forms.IntegerField(
        label=_("round"), min_value=0, max_value=SMALL_MAX, help_text=_("0 for the whole event")
    )
    opens_at = forms.DateTimeField(label=_("check-in opens"))
    closes_at = forms.DateTimeField(label=_("check-in closes"))


def _page_url(t: Tournament) -> str:
    return reverse("arbiter:check-in", args=[t.slug])


@tournament_role(Role.ARBITER)
def check_in_page(request: HttpRequest, t: Tournament) -> HttpResponse:
    number = check_in_next_round(tournament=t)
    window = check_in_window_for(tournament=t, round_number=number)
    rows = [] if window is None else check_in_rows(tournament=t, window=window, round_number=number)
    context = {
        "t": t,
        "number": number,
        "window": window,
        "windows": check_in_windows(tournament=t),
        "rows": rows,
        "missing": [row for row in rows if not row.present],
        "form": CheckInWindowForm(initial={"round_number": number}),
        "confirming": request.GET.get("close") == "1",
        "slips": request.GET.get("slips") == "1",
        "private_links": (
            [
                (row.registration.player.name, check_in_link(registration=row.registration))
                for row in rows
            ]
            if request.GET.get("slips") == "1"
            else []
        ),
    }
    return render(request, "arbiter/check_in.html", context)


@require_POST
@tournament_role(Role.ARBITER)
def check_in_window(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = CheckInWindowForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors_text(form))
        return redirect(_page_url(t))
    services.check_in_window_set(
        tournament=t,
        round_number=form.cleaned_data["round_number"],
        opens_at=form.cleaned_data["opens_at"],
        closes_at=form.cleaned_data["closes_at"],
        user=request.user,
    )
    messages.success(request, gettext("check-in window set; reminders are on their way"))
    return redirect(_page_url(t))


@require_POST
@tournament_role(Role.ARBITER)
def check_in_set(request: HttpRequest, t: Tournament, player_id: int) -> HttpResponse:
    if not 0 < player_id <= ID_MAX:  # no database column holds the number itself
        raise Http404(gettext("no such entrant"))
    reg = get_object_or_404(Registration, tournament=t, player_id=player_id)
    present = request.POST.get("present", "1") == "1"
    services.check_in_record(registration=reg, present=present, user=request.user)
    return redirect(_page_url(t) + "#check-ins")


@require_POST
@tournament_role(Role.ARBITER)
def check_in_close(request: HttpRequest, t: Tournament) -> HttpResponse:
    if request.POST.get("confirm") != "1":
        raise ValidationError({"confirm": gettext("confirm the list first")})
    missing = services.check_in_close(tournament=t, user=request.user)
    messages.success(
        request,
        gettext("check-in closed; %(count)s did not check in") % {"count": len(missing)},
    )
    return redirect(_page_url(t))
