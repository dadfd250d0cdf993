"""The socket of a battle played online, `/ws/games/{id}/`: the protocol of
docs/online-play.md over the services of games.services.live_battles; the channel layer only
fans out what a service decided."""

from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.middleware import BaseMiddleware
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http.request import split_domain_port, validate_host
from django.utils.translation import gettext
from rest_framework.authtoken.models import Token

from games.live_fanout import battle_group, ended_message
from games.live_models import LiveBattle
from games.live_selectors import battle_may_watch, battle_side_of, live_battle_state
from games.services.live_battles import (
    Ended,
    LiveRefusal,
    live_battle_flag,
    live_draw,
    live_move_play,
    live_resign,
)
from klinzha_site.user_types import AnyUser
from rules.live_clock import lag_estimate

# How many ping offsets a socket keeps for its lag estimate.
PING_OFFSETS_KEPT = 20
# Close codes: no such battle, not allowed to watch it.
CLOSE_NOT_FOUND = 4404
CLOSE_FORBIDDEN = 4403


def _token_user(token: str) -> AnyUser:
    """The user a DRF token names, anonymous for an unknown one."""
    found = Token.objects.select_related("user").filter(key=token).first()
    return found.user if found is not None and found.user.is_active else AnonymousUser()


def _origin_allowed(scope: dict[str, Any]) -> bool:
    """Whether the socket's Origin header names one of the site's hosts: a session's cookie
    authenticates only such a socket (a page of another site cannot act as its visitor)."""
    for name, value in scope.get("headers", []):
        if name == b"origin":
            origin = value.decode("latin-1")
            host = origin.split("://", 1)[-1].split("/", 1)[0]
            domain, _port = split_domain_port(host)
            return bool(domain) and validate_host(domain, settings.ALLOWED_HOSTS)
    return False


class SocketAuthMiddleware(BaseMiddleware):
    """The socket's user: the DRF token of the query string (`?token=…`) when given, else
    the session's (Channels' AuthMiddlewareStack, outside this one) when the Origin is the
    site's own, else anonymous."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        scope = dict(scope)
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        token = (query.get("token") or [""])[0]
        if token:
            scope["user"] = await database_sync_to_async(_token_user)(token)
        elif not _origin_allowed(scope):
            scope["user"] = AnonymousUser()
        return await super().__call__(scope, receive, send)


def _opening(game_id: int, user: AnyUser) -> tuple[int, int | None, dict[str, Any]] | int:
    """(battle id, the side `user` plays or None, the state) for a socket that may watch
    the battle of game `game_id`; else the close code."""
    battle = LiveBattle.objects.select_related("game__round__tournament").filter(game_id=game_id)
    found = battle.first()
    if found is None:
        return CLOSE_NOT_FOUND
    if not battle_may_watch(battle=found, user=user):
        return CLOSE_FORBIDDEN
    side = battle_side_of(battle=found, user=user)
    return found.pk, side, live_battle_state(battle=found, user=user)


def _watched_state(battle_id: int, user: AnyUser) -> dict[str, Any]:
    """The state `user` sees now, the flag left to the players' sockets."""
    return live_battle_state(battle=LiveBattle.objects.get(pk=battle_id), user=user)


def _state(battle_id: int, user: AnyUser) -> tuple[dict[str, Any], Ended | None]:
    """The state after letting a fallen flag fall (the flag is the server's to say)."""
    ended = live_battle_flag(battle_id=battle_id)
    battle = LiveBattle.objects.get(pk=battle_id)
    return live_battle_state(battle=battle, user=user), ended


class LiveBattleConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]  # untyped base
    """One socket watching one battle: its players act, everyone allowed watches."""

    battle_id: int
    side: int | None
    group: str
    offsets: list[int]
    flag_timer: asyncio.Task[None] | None
    # Seconds a spectator sees the battle late (the event's broadcast delay), and the
    # messages held back for it meanwhile.
    delay: float
    held: set[asyncio.Task[None]]

    async def connect(self) -> None:
        self.flag_timer = None
        self.offsets = []
        self.delay = 0.0
        self.held = set()
        game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        user = self.scope.get("user") or AnonymousUser()
        opened = await database_sync_to_async(_opening)(game_id, user)
        if isinstance(opened, int):
            await self.close(code=opened)
            return
        self.battle_id, self.side, state = opened
        self.delay = float(state.get("delay", 0))
        self.group = battle_group(self.battle_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_state(state)

    async def disconnect(self, code: int) -> None:
        if self.flag_timer is not None:
            self.flag_timer.cancel()
        self._held_drop()
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    # --- from the client ----------------------------------------------------------------
    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        handler = {
            "move": self._move,
            "resign": self._resign,
            "draw": self._draw,
            "spindle": self._spindle,
            "abort": self._abort,
            "ping": self._ping,
            "sync": self._resync,
        }.get(kind if isinstance(kind, str) else "")
        if handler is None:
            await self._refuse(None, None, "bad_message", gettext("unknown message type"))
            return
        await handler(content)

    async def _move(self, content: dict[str, Any]) -> None:
        n, ply = content.get("n"), content.get("ply")
        if not isinstance(n, int) or isinstance(n, bool) or not isinstance(ply, str):
            message = gettext("a move needs its number n and its ply")
            await self._refuse(None, None, "bad_message", message)
            return
        user = self.scope.get("user") or AnonymousUser()
        try:
            played = await database_sync_to_async(live_move_play)(
                battle_id=self.battle_id,
                user=user,
                n=n,
                ply=ply[:100],
                lag_ms=lag_estimate(self.offsets),
            )
        except LiveRefusal as exc:
            await self._send_refused(n, ply, exc)
            return
        if played.played:
            event = {
                "type": "battle.moved",
                "n": played.n,
                "ply": played.ply,
                "clocks": played.clocks,
                "legal": played.legal,
                "turn": played.turn,
            }
            await self.channel_layer.group_send(self.group, event)
        if played.draw_withdrawn:
            await self.channel_layer.group_send(
                self.group, {"type": "battle.draw", "offered_by": None}
            )
        if played.ended is not None:
            await self._broadcast_ended(played.ended)

    async def _resign(self, content: dict[str, Any]) -> None:
        user = self.scope.get("user") or AnonymousUser()
        try:
            ended = await database_sync_to_async(live_resign)(battle_id=self.battle_id, user=user)
        except LiveRefusal as exc:
            await self._send_refused(None, None, exc)
            return
        await self._broadcast_ended(ended)

    async def _draw(self, content: dict[str, Any]) -> None:
        offer = content.get("offer")
        if not isinstance(offer, bool):
            message = gettext("a draw message needs offer true or false")
            await self._refuse(None, None, "bad_message", message)
            return
        user = self.scope.get("user") or AnonymousUser()
        try:
            answer = await database_sync_to_async(live_draw)(
                battle_id=self.battle_id, user=user, offer=offer
            )
        except LiveRefusal as exc:
            await self._send_refused(None, None, exc)
            return
        if answer.ended is not None:
            await self._broadcast_ended(answer.ended)
            return
        offered_by = answer.offered_by or None
        await self.channel_layer.group_send(
            self.group, {"type": "battle.draw", "offered_by": offered_by}
        )

    async def _spindle(self, content: dict[str, Any]) -> None:
        message = gettext("the spindle cast is not played online yet")
        await self._refuse(None, None, "not_online", message)

    async def _abort(self, content: dict[str, Any]) -> None:
        message = gettext("only a casual battle can be aborted")
        await self._refuse(None, None, "casual_only", message)

    async def _ping(self, content: dict[str, Any]) -> None:
        t = content.get("t")
        server = int(time.time() * 1000)
        if isinstance(t, int | float) and not isinstance(t, bool):
            self.offsets = [*self.offsets[-(PING_OFFSETS_KEPT - 1) :], server - int(t)]
        await self.send_json({"type": "pong", "t": t, "server": server})

    async def _resync(self, content: dict[str, Any]) -> None:
        user = self.scope.get("user") or AnonymousUser()
        state, ended = await database_sync_to_async(_state)(self.battle_id, user)
        if ended is not None:
            await self._broadcast_ended(ended)
        await self._send_state(state)

    # --- to the client ------------------------------------------------------------------
    async def _refuse(self, n: int | None, ply: str | None, code: str, message: str) -> None:
        await self._send_refused(n, ply, LiveRefusal(code, message, ply=n))

    async def _send_refused(self, n: int | None, ply: str | None, exc: LiveRefusal) -> None:
        out: dict[str, Any] = {"type": "refused", "n": n, "ply": ply, "error": exc.error()}
        if exc.code != "rules":
            # The rules' refusals carry the Article; the others a code (stale, turn, ...).
            out["code"] = exc.code
        await self.send_json(out)

    async def _send_state(self, state: dict[str, Any]) -> None:
        await self.send_json(state)
        self._flag_arm(state["clocks"], state["turn"], state["status"])

    async def _broadcast_ended(self, ended: Ended) -> None:
        await self.channel_layer.group_send(
            self.group, {**ended_message(ended), "type": "battle.ended"}
        )

    # --- from the group -----------------------------------------------------------------
    async def battle_moved(self, event: dict[str, Any]) -> None:
        out = {k: event[k] for k in ("n", "ply", "clocks")}
        if self.side is not None:
            out["legal"] = event["legal"]
        await self._to_watcher({"type": "moved", **out})
        self._flag_arm(event["clocks"], event["turn"], "playing")

    async def battle_draw(self, event: dict[str, Any]) -> None:
        await self._to_watcher({"type": "draw", "offered_by": event["offered_by"]})

    async def battle_ended(self, event: dict[str, Any]) -> None:
        if self.flag_timer is not None:
            self.flag_timer.cancel()
        if self.delay:
            # The broadcast delay ends with the battle: the whole record, then the ending.
            self._held_drop()
            self.delay = 0.0
            user = self.scope.get("user") or AnonymousUser()
            await self.send_json(await database_sync_to_async(_watched_state)(self.battle_id, user))
        await self.send_json({k: v for k, v in event.items() if k != "type"} | {"type": "ended"})

    # --- the broadcast delay ------------------------------------------------------------
    async def _to_watcher(self, message: dict[str, Any]) -> None:
        """Send `message` now, or as late as the broadcast delay says to a spectator."""
        if not self.delay:
            await self.send_json(message)
            return
        task = asyncio.ensure_future(self._send_later(message, self.delay))
        self.held.add(task)
        task.add_done_callback(self.held.discard)

    async def _send_later(self, message: dict[str, Any], delay: float) -> None:
        await asyncio.sleep(delay)
        await self.send_json(message)

    def _held_drop(self) -> None:
        for task in list(self.held):
            task.cancel()
        self.held.clear()

    # --- the flag -----------------------------------------------------------------------
    def _flag_arm(self, clocks: dict[str, int | None], turn: str, status: str) -> None:
        """Ask the server, when the side to act's clock would fall, whether it fell (a
        player's socket only: the battle's two are enough)."""
        if self.flag_timer is not None:
            self.flag_timer.cancel()
            self.flag_timer = None
        left = clocks.get(turn)
        if self.side is None or left is None or status not in ("waiting", "playing"):
            return
        self.flag_timer = asyncio.ensure_future(self._flag_at(left / 1000 + 0.05))

    async def _flag_at(self, delay: float) -> None:
        await asyncio.sleep(delay)
        ended = await database_sync_to_async(live_battle_flag)(battle_id=self.battle_id)
        if ended is not None:
            await self._broadcast_ended(ended)
