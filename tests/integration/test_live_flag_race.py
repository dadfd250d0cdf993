"""A late ply and the flag sweep (and two sweeps) racing on PostgreSQL: the battle's row
lock lets exactly one of them end the battle; one record, one result."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.live_models import LiveBattle, LivePly
from games.models import RecordSubmission
from games.services.live_battles import (
    LiveRefusal,
    live_battle_open,
    live_flags_sweep,
    live_move_play,
)
from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments.models import Game

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _battle():
    officials = officials_make()
    t, players = event_make(officials, time_control="1800")
    User = get_user_model()
    for p in players:
        p.user = User.objects.create_user(p.name.lower(), password=f"pw-{p.name}-online")
        p.save(update_fields=["user"])
    game = round_make(t, [(players[0], players[1]), (players[2], players[3])]).games.get(board=1)
    return live_battle_open(game=game)


def _together(*calls) -> list[object]:
    """Each call from a thread of its own at once: its answer, or the refusal's code."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            outcomes[i] = calls[i]()
        except LiveRefusal as exc:
            outcomes[i] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return outcomes


def _ended_once(battle) -> None:
    battle.refresh_from_db()
    assert (battle.status, battle.result, battle.termination) == ("over", "gold", "time")
    assert RecordSubmission.objects.filter(game_id=battle.game_id).count() == 1
    assert Game.objects.get(pk=battle.game_id).result == Game.Result.SECOND_WIN
    assert not LivePly.objects.filter(battle=battle).exists()


def test_a_late_ply_racing_the_sweep_ends_the_battle_once():
    battle = _battle()
    late = battle.turn_started_at + timedelta(seconds=1900)
    move, swept = _together(
        lambda: live_move_play(battle_id=battle.pk, user=battle.green, n=1, ply="V→I99", now=late),
        lambda: live_flags_sweep(now=late),
    )
    # The ply ended it (its flag had fallen), or the sweep did and the ply found it over.
    by_move = not isinstance(move, str) and move.ended is not None
    by_sweep = [battle_id for battle_id, _e in swept] == [battle.pk]
    assert by_move != by_sweep, (move, swept)
    if by_sweep:
        assert move == "over"
    _ended_once(battle)


def test_two_sweeps_at_once_end_the_battle_once():
    battle = _battle()
    late = battle.turn_started_at + timedelta(hours=1)
    first, second = _together(
        lambda: live_flags_sweep(now=late), lambda: live_flags_sweep(now=late)
    )
    assert sorted([len(first), len(second)]) == [0, 1]
    _ended_once(battle)
    assert LiveBattle.objects.get(pk=battle.pk).ended_at is not None
