"""Two tabs sending the same ply of an online battle at once, on PostgreSQL: the battle's
row lock lets exactly one apply it; the other is refused as stale."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.live_models import LivePly
from games.services.live_battles import LiveRefusal, live_battle_open, live_move_play
from tests.tournaments.services.factories import event_make, officials_make, round_make

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


def _send_together(battle, plies: list[str], n: int = 1) -> list[str]:
    """Each ply sent by the green player from a thread of its own at once: 'played' or the
    refusal's code."""
    barrier = threading.Barrier(len(plies))
    outcomes = [""] * len(plies)

    def tab(i: int) -> None:
        barrier.wait()
        try:
            live_move_play(battle_id=battle.pk, user=battle.green, n=n, ply=plies[i])
            outcomes[i] = "played"
        except LiveRefusal as exc:
            outcomes[i] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=tab, args=(i,)) for i in range(len(plies))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return outcomes


def test_the_same_ply_from_two_tabs_is_applied_once():
    battle = _battle()
    outcomes = _send_together(battle, ["V→I99", "V→I99"])
    assert sorted(outcomes) == ["played", "stale"]
    assert list(LivePly.objects.filter(battle=battle).values_list("n", "text")) == [(1, "V→I99")]


def test_two_different_plies_with_the_same_number_apply_one():
    battle = _battle()
    outcomes = _send_together(battle, ["V→I99", "Fe→C29", "Fl→F37"])
    assert sorted(outcomes) == ["played", "stale", "stale"]
    assert LivePly.objects.filter(battle=battle).count() == 1
