"""The WebSocket routes: a battle played online at `/ws/games/{id}/` (docs/online-play.md),
its user from the session (with the site's own Origin) or a DRF token."""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from django.urls import path

from games.live_consumer import LiveBattleConsumer, SocketAuthMiddleware

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", LiveBattleConsumer.as_asgi()),
]


def websocket_application() -> Any:
    """The sockets' ASGI application: session authentication, then the token's, then the
    routes."""
    return AuthMiddlewareStack(SocketAuthMiddleware(URLRouter(websocket_urlpatterns)))
