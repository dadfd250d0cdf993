"""Staff's page merging two players into one (services.players_merge): both shown by what
tells them apart, then merged on confirmation."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from klinzha_site.errors import Conflict
from klinzha_site.parsing import ID_MAX
from tournaments import services
from tournaments.models import Player
from tournaments.permissions import errors_text
from tournaments.player_labels import player_label
from tournaments.roles import user_may_merge_players


def _player_of(text: str) -> Player | None:
    text = text.strip().lstrip("#")
    if not (text.isascii() and text.isdigit()) or len(text) > 18 or not 0 < int(text) <= ID_MAX:
        return None
    return Player.objects.select_related("club", "user").filter(pk=int(text)).first()


@login_required
@require_http_methods(["GET", "POST"])
def players_merge(request: HttpRequest) -> HttpResponse:
    """GET: the two players named (`keep`, `drop`: site ids) side by side. POST with
    `confirm`: `drop` merged into `keep`."""
    if not user_may_merge_players(request.user):
        raise PermissionDenied(_("only staff may merge players"))
    data = request.POST if request.method == "POST" else request.GET
    keep, drop = _player_of(data.get("keep", "")), _player_of(data.get("drop", ""))
    error, status = "", 200
    if (data.get("keep") and keep is None) or (data.get("drop") and drop is None):
        error, status = _("no player of that id"), 404
    elif request.method == "POST" and keep is not None and drop is not None:
        try:
            merged = services.players_merge(keep=keep, drop=drop, user=request.user)
        except Conflict as exc:
            error, status = errors_text(exc), 409
        except ValidationError as exc:
            error, status = errors_text(exc), 400
        else:
            messages.success(
                request,
                _("%(dropped)s is merged into %(kept)s.")
                % {"dropped": player_label(drop), "kept": player_label(merged)},
            )
            return redirect("tournaments:player", pk=merged.pk)
    shown = [(p, player_label(p), p.registrations.count()) for p in (keep, drop) if p is not None]
    return render(
        request,
        "arbiter/players_merge.html",
        {"keep": keep, "drop": drop, "shown": shown, "error": error, "data": data},
        status=status,
    )
