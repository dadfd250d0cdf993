"""The calendar files (.ics) of an event and of a player, for a calendar app to import or
subscribe to: public, as the pairings they repeat are."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.decorators.http import require_GET

from klinzha_site.parsing import ID_MAX
from tournaments.calendar_feed import calendar_file
from tournaments.calendar_selectors import event_calendar_items, player_calendar_items
from tournaments.models import Player, Tournament


def _ics(body: bytes, *, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
def event_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's days and its published rounds' scheduled starts."""
    t = get_object_or_404(Tournament, slug=slug)
    body = calendar_file(
        name=t.name, items=event_calendar_items(tournament=t), stamp=timezone.now()
    )
    return _ics(body, filename=f"{t.slug}.ics")


@require_GET
def player_calendar(request: HttpRequest, pk: int) -> HttpResponse:
    """The player's events and battles (opponent, board, place, scheduled start)."""
    if not 0 < pk <= ID_MAX:  # no such id; the database would refuse the number itself
        raise Http404("no such player")
    player = get_object_or_404(Player, pk=pk)
    body = calendar_file(
        name=player.name, items=player_calendar_items(player=player), stamp=timezone.now()
    )
    return _ics(body, filename=f"player-{player.pk}.ics")
