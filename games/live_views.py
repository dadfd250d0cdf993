"""The live board of a game played online: what the game page needs for it (the socket, the
side the visitor plays) and the picture of the position now."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from games.live_selectors import (
    battle_may_watch,
    battle_side_of,
    battle_watch_delay,
    live_battle_of_game,
    live_board_svg,
)
from rules.pieces import COLOR_NAMES
from tournaments.models import Game


def live_context(*, game: Game, user: Any) -> dict[str, Any] | None:
    """The live board's settings for the game page: None when the game is not played online
    or the visitor may not watch it; `side` is the colour the visitor plays ("" watching)."""
    battle = live_battle_of_game(game_id=game.pk)
    if battle is None or not battle_may_watch(battle=battle, user=user):
        return None
    side = battle_side_of(battle=battle, user=user)
    return {
        "battle": battle,
        "side": "" if side is None else COLOR_NAMES[side],
        "socket": f"/ws/games/{game.pk}/",
        "board_url": reverse("games:live-board", args=[game.pk]),
        # Minutes the visitor sees the battle late (the event's broadcast delay), 0: live.
        "delay_minutes": int(battle_watch_delay(battle=battle, user=user).total_seconds() // 60),
    }


def game_live_board(request: HttpRequest, pk: int) -> HttpResponse:
    """The live battle's position as SVG (404 when the game is not played online or the
    visitor may not watch it); `?n=` is the client's ply count, so that caches keep one
    picture a ply."""
    battle = live_battle_of_game(game_id=pk)
    if battle is None or not battle_may_watch(battle=battle, user=request.user):
        return HttpResponse(status=404)
    response = HttpResponse(
        live_board_svg(battle=battle, user=request.user), content_type="image/svg+xml"
    )
    response["Cache-Control"] = "no-store"
    return response
