"""What the tournaments' API views share: a tournament's published reads from the page cache,
and the entrant or round a request's body names."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.http import HttpResponseBase
from django.utils.translation import gettext
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.models import Player, Registration, Round, Tournament
from tournaments.published import tournament_published_serve


def api_published(
    *,
    view: Any,
    request: Request,
    page: str,
    body: Callable[[Tournament], Response],
    params: Sequence[str] = (),
    audited: bool = False,
) -> Response | HttpResponseBase:
    """A tournament's published JSON (tournaments.published; the tournament itself is read
    on a miss). The browsable API's HTML carries the user and a CSRF token: it is rendered
    each time."""
    if request.accepted_renderer.format != "json":
        return body(view.get_object())

    def render() -> Response:
        response = body(view.get_object())
        response.accepted_renderer = request.accepted_renderer
        response.accepted_media_type = request.accepted_media_type
        response.renderer_context = view.get_renderer_context()
        return response.render()

    return tournament_published_serve(
        request=request._request,
        slug=view.kwargs["slug"],
        name=f"api-{page}",
        render=render,
        uncached=lambda: body(view.get_object()),
        params=sorted({*params, "format"}),
        audited=audited,
        missing="No Tournament matches the given query.",
    )


def registration_get(*, tournament: Tournament, player: Player) -> Registration:
    """The entrant a body names; 400 (naming `player`) when they are not registered."""
    reg = Registration.objects.filter(tournament=tournament, player=player).first()
    if reg is None:
        raise ValidationError({"player": gettext("not registered in this tournament")})
    return reg


def round_get(*, tournament: Tournament, number: int) -> Round:
    """The round a body names; 400 (naming `round`) when it was not paired."""
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        raise ValidationError({"round": gettext("no round %(number)s") % {"number": number}})
    return rnd
