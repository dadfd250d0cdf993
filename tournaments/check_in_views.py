"""An entrant's own check-in page: by their private link (the token on their slip or in the
reminder mail, no account needed), or signed in."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from tournaments import services
from tournaments.check_in_selectors import (
    check_in_next_round,
    check_in_token_registration,
    check_in_window_for,
    check_in_window_open,
)
from tournaments.models import CheckIn, Registration, Tournament
from tournaments.permissions import errors_text
from tournaments.roles import user_player


def _page(request: HttpRequest, reg: Registration, *, token: str) -> HttpResponse:
    t = reg.tournament
    number = check_in_next_round(tournament=t)
    window = check_in_window_for(tournament=t, round_number=number)
    done, refused = None, ""
    if request.method == "POST":
        try:
            done = services.check_in_record(
                registration=reg, user=request.user, by_link=bool(token)
            )
        except ValidationError as exc:  # closed, not open yet, left the event: said so
            refused = errors_text(exc)
    if done is None and window is not None:
        done = CheckIn.objects.filter(registration=reg, round_number=window.round_number).first()
    context = {
        "t": t,
        "reg": reg,
        "number": number,
        "window": window,
        "open": window is not None and check_in_window_open(window=window, now=timezone.now()),
        "done": done,
        "token": token,
        "refused": refused,
    }
    response = render(request, "tournaments/check_in.html", context, status=409 if refused else 200)
    # The page carries a private link: never kept by a cache, never sent to another site as
    # a referrer (same-origin, not no-referrer: the check-in form's Origin must stay ours for
    # the CSRF check).
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "same-origin"
    return response


@require_http_methods(["GET", "POST"])
def check_in_by_link(request: HttpRequest, token: str) -> HttpResponse:
    reg = check_in_token_registration(token=token)
    if reg is None:
        raise Http404
    return _page(request, reg, token=token)


@login_required
@require_http_methods(["GET", "POST"])
def check_in_signed_in(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_object_or_404(Tournament, slug=slug)
    player = user_player(request.user)
    reg = (
        Registration.objects.select_related("player", "tournament")
        .filter(tournament=t, player=player)
        .first()
        if player is not None
        else None
    )
    if reg is None:
        raise PermissionDenied(gettext("only the event's entrants check in here"))
    return _page(request, reg, token="")
