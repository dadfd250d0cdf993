"""The flag sweep: a live battle whose side to act ran out of time with no socket there to
ask is ended by the beat's sweep (record written, result on the game), once; one whose
flag has not fallen is left alone; a late ply and the sweep end it once between them."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model

from games.live_fanout import battle_group
from games.live_models import LiveBattle
from games.models import RecordSubmission
from games.services.live_battles import live_battle_open, live_flags_sweep, live_move_play
from games.tasks import live_flags_sweep_task
from rules.record import read_record
from tests.tournaments.services.factories import event_make, round_make
from tournaments.models import Game

User = get_user_model()


def _battles(officials, time_control="1800"):
    """The two battles of round 1 (Ann-Bob, Cid-Dan), each player with an account."""
    t, players = event_make(officials, time_control=time_control)
    for p in players:
        p.user = User.objects.create_user(p.name.lower(), password=f"pw-{p.name}-online")
        p.save(update_fields=["user"])
    rnd = round_make(t, [(players[0], players[1]), (players[2], players[3])])
    return [live_battle_open(game=g) for g in rnd.games.order_by("board")]


@pytest.mark.django_db
def test_the_sweep_ends_a_battle_past_its_flag_and_leaves_the_other(officials):
    flagged, running = _battles(officials)
    start = flagged.turn_started_at
    # The second battle's first placer started ten minutes later: 20 minutes left.
    LiveBattle.objects.filter(pk=running.pk).update(turn_started_at=start + timedelta(minutes=10))

    ended = live_flags_sweep(now=start + timedelta(seconds=1801))

    assert [(battle_id, e.result, e.termination) for battle_id, e in ended] == [
        (flagged.pk, "gold", "time")
    ]
    flagged.refresh_from_db()
    assert (flagged.status, flagged.result, flagged.termination) == ("over", "gold", "time")
    record = RecordSubmission.objects.get(pk=flagged.record_id)
    assert record.source == RecordSubmission.Source.ONLINE
    assert read_record(record.text).tags["Flag"] == "green"
    game = Game.objects.get(pk=flagged.game_id)
    assert game.result == Game.Result.SECOND_WIN and game.result_confirmed_at is not None

    running.refresh_from_db()
    assert (running.status, running.result, running.record_id) == ("waiting", "*", None)
    assert Game.objects.get(pk=running.game_id).result == ""


@pytest.mark.django_db
def test_a_second_sweep_leaves_an_ended_battle_alone(officials):
    flagged, _running = _battles(officials)
    late = flagged.turn_started_at + timedelta(hours=2)
    assert len(live_flags_sweep(now=late)) == 2
    assert live_flags_sweep(now=late + timedelta(minutes=1)) == []
    assert RecordSubmission.objects.count() == 2


@pytest.mark.django_db
def test_a_battle_without_a_clock_is_never_swept(officials):
    battle, _other = _battles(officials, time_control="")
    assert live_flags_sweep(now=battle.turn_started_at + timedelta(days=30)) == []
    assert LiveBattle.objects.get(pk=battle.pk).status == "waiting"


@pytest.mark.django_db
def test_a_late_ply_and_the_sweep_end_the_battle_once(officials):
    battle, _other = _battles(officials)
    late = battle.turn_started_at + timedelta(seconds=1900)
    played = live_move_play(battle_id=battle.pk, user=battle.green, n=1, ply="V→I99", now=late)
    assert not played.played and played.ended.termination == "time"
    swept = live_flags_sweep(now=late)
    assert battle.pk not in [battle_id for battle_id, _e in swept]
    assert RecordSubmission.objects.filter(game_id=battle.game_id).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_task_tells_the_sockets_watching(officials):
    flagged, running = _battles(officials)
    LiveBattle.objects.filter(pk=flagged.pk).update(
        turn_started_at=flagged.turn_started_at - timedelta(hours=1)
    )

    async def watch_and_sweep():
        # One event loop for the whole exchange: the Redis layer's channels live in the loop
        # that made them.
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(battle_group(flagged.pk), channel)
        swept = await sync_to_async(live_flags_sweep_task)()
        return swept, await asyncio.wait_for(layer.receive(channel), 10)

    swept, message = async_to_sync(watch_and_sweep)()

    assert swept == 1
    assert message["type"] == "battle.ended"
    assert (message["result"], message["termination"]) == ("gold", "time")
    assert message["record"] == {"id": LiveBattle.objects.get(pk=flagged.pk).record_id}
    assert LiveBattle.objects.get(pk=running.pk).status == "waiting"
