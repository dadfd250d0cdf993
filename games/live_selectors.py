"""Reads of battles played online: the battle rebuilt from its plies, who watches as what
(and how late: the event's broadcast delay for spectators), the clocks as the server reads
them now, and the protocol's `state`."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.live_models import LiveBattle
from klinzha_site.user_types import AnyUser
from rules.clock import ClockError, TimeControl, parse_time_control
from rules.live import LiveBattle as Battle
from rules.live_clock import time_left_ms
from rules.pieces import COLOR_NAMES
from rules.svg import render_svg
from tournaments.models import Round
from tournaments.roles import user_can_arbitrate


def battle_live(*, battle: LiveBattle) -> Battle:
    """The battle rebuilt by replaying its stored plies through the rules."""
    texts = list(battle.plies.order_by("n").values_list("text", flat=True))
    return Battle.replay(battle.tags, texts)


def battle_side_of(*, battle: LiveBattle, user: AnyUser | None) -> int | None:
    """The side `user` plays in the battle (0 green, 1 gold), or None."""
    if user is None or not user.is_authenticated:
        return None
    if battle.green_id == user.pk:
        return 0
    if battle.gold_id == user.pk:
        return 1
    return None


def battle_may_watch(*, battle: LiveBattle, user: AnyUser | None) -> bool:
    """Whether `user` may watch the battle: its players, the event's officials, anyone
    where the game's round is published."""
    if battle_side_of(battle=battle, user=user) is not None:
        return True
    game = battle.game
    if game is None:
        return False
    if game.round.status != Round.Status.DRAFT:
        return True
    return user_can_arbitrate(user=user, tournament=game.round.tournament)


def battle_watch_delay(*, battle: LiveBattle, user: AnyUser | None) -> timedelta:
    """How late `user` sees the battle: the event's broadcast delay for spectators while
    it is under way; none for its players, the event's officials, or once it is over."""
    game = battle.game
    if battle.status == LiveBattle.Status.OVER or game is None:
        return timedelta(0)
    tournament = game.round.tournament
    minutes = tournament.broadcast_delay_minutes
    if not minutes or battle_side_of(battle=battle, user=user) is not None:
        return timedelta(0)
    if user_can_arbitrate(user=user, tournament=tournament):
        return timedelta(0)
    return timedelta(minutes=minutes)


def time_control_of(battle: LiveBattle) -> TimeControl | None:
    """The battle's time control (Art. 6.4), None when it plays without a clock."""
    text = str(battle.tags.get("TimeControl", "")).strip()
    if not text:
        return None
    try:
        return parse_time_control(text)
    except ClockError:
        return None


def _running(battle: LiveBattle) -> bool:
    return battle.status in (LiveBattle.Status.WAITING, LiveBattle.Status.PLAYING)


def clock_left_ms(*, battle: LiveBattle, live: Battle, now: datetime) -> int | None:
    """The side to act's time left now, its clock running since its turn started."""
    side = live.side
    tc = time_control_of(battle)
    used = int(getattr(battle, f"{COLOR_NAMES[side]}_used_ms"))
    left = time_left_ms(tc, live.completed[side], used)
    if left is None or not _running(battle) or live.outcome is not None:
        return left
    return left - int((now - battle.turn_started_at).total_seconds() * 1000)


def clocks_now(*, battle: LiveBattle, live: Battle, now: datetime) -> dict[str, int | None]:
    """Each colour's time left in milliseconds as the server reads it now (None: no clock)."""
    tc = time_control_of(battle)
    clocks: dict[str, int | None] = {}
    for side, colour in enumerate(COLOR_NAMES):
        used = int(getattr(battle, f"{colour}_used_ms"))
        clocks[colour] = time_left_ms(tc, live.completed[side], used)
    to_act = clock_left_ms(battle=battle, live=live, now=now)
    if to_act is not None and battle.status != LiveBattle.Status.OVER:
        clocks[COLOR_NAMES[live.side]] = max(0, to_act)
    return clocks


def live_battle_state(
    *, battle: LiveBattle, user: AnyUser | None, now: datetime | None = None
) -> dict[str, Any]:
    """The protocol's `state` message for `user` (the legal plies to the side to act's
    player only)."""
    now = now or timezone.now()
    delay = battle_watch_delay(battle=battle, user=user)
    if delay:
        return _delayed_state(battle=battle, delay=delay, now=now)
    live = battle_live(battle=battle)
    over = battle.status == LiveBattle.Status.OVER
    side = battle_side_of(battle=battle, user=user)
    legal = live.legal() if side == live.side and not over and _running(battle) else []
    return {
        "type": "state",
        "plies": list(live.texts),
        "clocks": clocks_now(battle=battle, live=live, now=now),
        "turn": live.turn,
        "phase": "over" if over else live.phase,
        "legal": legal,
        "status": battle.status,
        "result": battle.result,
    }


def _delayed(battle: LiveBattle, cutoff: datetime) -> tuple[Battle, dict[str, int | None]]:
    """The battle as it stood after its plies played by `cutoff`, and each colour's time
    left then (the clock readings a delayed broadcast shows)."""
    rows = list(
        battle.plies.filter(played_at__lte=cutoff)
        .order_by("n")
        .values_list("text", "side", "spent_ms")
    )
    live = Battle.replay(battle.tags, [text for text, _side, _spent in rows])
    tc = time_control_of(battle)
    clocks: dict[str, int | None] = {}
    for side, colour in enumerate(COLOR_NAMES):
        used = sum(spent for _text, mover, spent in rows if mover == colour)
        clocks[colour] = time_left_ms(tc, live.completed[side], used)
    return live, clocks


def _delayed_state(*, battle: LiveBattle, delay: timedelta, now: datetime) -> dict[str, Any]:
    """The `state` a spectator sees through the broadcast delay: the plies played at least
    `delay` ago, the clocks as they read then, no result yet; `delay` in seconds."""
    live, clocks = _delayed(battle, now - delay)
    return {
        "type": "state",
        "plies": list(live.texts),
        "clocks": clocks,
        "turn": live.turn,
        "phase": live.phase,
        "legal": [],
        "status": battle.status,
        "result": "*",
        "delay": int(delay.total_seconds()),
    }


def live_battle_of_game(*, game_id: int) -> LiveBattle | None:
    """The online battle of a tournament game, or None."""
    return LiveBattle.objects.filter(game_id=game_id).first()


def live_board_svg(
    *, battle: LiveBattle, user: AnyUser | None = None, now: datetime | None = None
) -> str:
    """The picture of the battle's position as `user` may see it now (through the broadcast
    delay for a spectator), its last ply marked (the live board)."""
    delay = battle_watch_delay(battle=battle, user=user)
    if delay:
        live, _clocks = _delayed(battle, (now or timezone.now()) - delay)
    else:
        live = battle_live(battle=battle)
    last = live.plies[-1].to_move() if live.plies else None
    return render_svg(live.position, last=last)
