"""The channel layer's groups of the battles played online: each battle's group name, and
the fan-out of an ending decided outside a socket (the flag sweep) to whoever watches."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.services.live_battles import Ended


def battle_group(battle_id: int) -> str:
    """The channel layer group of the sockets watching battle `battle_id`."""
    return f"live-battle-{battle_id}"


def ended_message(ended: Ended) -> dict[str, object]:
    """The protocol's `ended` message."""
    return {
        "type": "ended",
        "result": ended.result,
        "termination": ended.termination,
        "record": {"id": ended.record_id},
    }


def battle_ended_fanout(*, battle_id: int, ended: Ended) -> None:
    """Tell the sockets watching the battle that it ended (the layer only fans out: the
    database already holds the ending)."""
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(
        battle_group(battle_id), {**ended_message(ended), "type": "battle.ended"}
    )
