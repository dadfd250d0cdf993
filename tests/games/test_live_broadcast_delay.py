"""The event's broadcast delay: while a battle is under way its spectators see only the
plies older than the delay (the socket's state and moved messages, the game page's board),
its players and the event's officials see it live, and everyone gets the whole record once
it ends."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import live_selectors
from games.live_models import LiveBattle
from games.services.live_battles import live_battle_open, live_move_play
from klinzha_site.asgi import application
from rules.live import LiveBattle as Battle
from rules.svg import render_svg
from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

User = get_user_model()
WAIT = 10


def _token(user) -> str:
    return Token.objects.get_or_create(user=user)[0].key


@pytest.fixture
def battle():
    """Ann (green) and Bob of a published round, 15 minutes' broadcast delay: one ply 20
    minutes ago, one a minute ago; the tokens of the players and the chief arbiter."""
    officials = officials_make()
    t, players = event_make(officials, time_control="3600", broadcast_delay_minutes=15)
    for p in players:
        p.user = User.objects.create_user(p.name.lower(), password=f"pw-{p.name}-online")
        p.save(update_fields=["user"])
    game = round_make(t, [(players[0], players[1]), (players[2], players[3])]).games.get(board=1)
    battle = live_battle_open(game=game)
    start = battle.turn_started_at - timedelta(minutes=30)
    LiveBattle.objects.filter(pk=battle.pk).update(turn_started_at=start)
    live = Battle.replay(battle.tags, [])
    turns = []
    for ago in (20, 1):
        ply = live.legal()[0]
        user = battle.green if live.turn == "green" else battle.gold
        live_move_play(
            battle_id=battle.pk,
            user=user,
            n=live.next_n,
            ply=ply,
            now=start + timedelta(minutes=30 - ago),
        )
        live.play(ply)
        turns.append(live.turn)
    battle.texts = list(live.texts)
    battle.next_ply = live.legal()[0]
    battle.mover = live.turn
    battle.turn_after_one = turns[0]
    battle.tokens = {
        "green": _token(battle.green),
        "gold": _token(battle.gold),
        "chief": _token(officials.chief),
    }
    return battle


def _socket(battle, who=None):
    path = f"/ws/games/{battle.game_id}/"
    if who is not None:
        path += f"?token={battle.tokens[who]}"
    return WebsocketCommunicator(application, path)


async def _connected(communicator):
    connected, _ = await communicator.connect(WAIT)
    assert connected
    return await communicator.receive_json_from(WAIT)


def test_spectators_see_the_plies_older_than_the_delay_players_and_officials_all(battle):
    async def body():
        spectator, green, chief = (
            _socket(battle),
            _socket(battle, battle.mover),
            _socket(battle, "chief"),
        )
        watched = await _connected(spectator)
        assert watched["plies"] == battle.texts[:1]
        assert (watched["delay"], watched["result"], watched["legal"]) == (900, "*", [])
        assert watched["turn"] == battle.turn_after_one
        for s in (green, chief):
            state = await _connected(s)
            assert state["plies"] == battle.texts and "delay" not in state
        await green.send_json_to({"type": "move", "n": 3, "ply": battle.next_ply})
        for s in (green, chief):
            moved = await s.receive_json_from(WAIT)
            assert (moved["type"], moved["n"]) == ("moved", 3)
        assert await spectator.receive_nothing(1)
        await spectator.send_json_to({"type": "sync"})
        again = await spectator.receive_json_from(WAIT)
        assert again["plies"] == battle.texts[:1]

        await green.send_json_to({"type": "resign"})
        whole = await spectator.receive_json_from(WAIT)
        assert whole["type"] == "state" and len(whole["plies"]) == 3
        loser = battle.mover
        assert (
            whole["phase"] == "over"
            and whole["result"] == ("gold" if loser == "green" else "green")
            and "delay" not in whole
        )
        ended = await spectator.receive_json_from(WAIT)
        assert (ended["type"], ended["termination"]) == ("ended", "resignation")
        assert await spectator.receive_nothing(0.5)
        for s in (spectator, green, chief):
            await s.disconnect()

    async_to_sync(body)()


def test_a_held_back_move_reaches_the_spectator_after_the_delay(battle, monkeypatch):
    real = live_selectors.battle_watch_delay

    def short(**kwargs):
        # The event's rule (who is delayed), a second instead of 15 minutes.
        return timedelta(seconds=1) if real(**kwargs) else timedelta(0)

    monkeypatch.setattr(live_selectors, "battle_watch_delay", short)

    async def body():
        spectator, green = _socket(battle), _socket(battle, battle.mover)
        assert (await _connected(spectator))["delay"] == 1
        await _connected(green)
        loop = asyncio.get_running_loop()
        sent = loop.time()
        await green.send_json_to({"type": "move", "n": 3, "ply": battle.next_ply})
        await green.receive_json_from(WAIT)
        moved = await spectator.receive_json_from(WAIT)
        assert (moved["type"], moved["n"], moved["ply"]) == ("moved", 3, battle.next_ply)
        assert "legal" not in moved
        assert loop.time() - sent >= 0.9
        await spectator.send_json_to({"type": "sync"})
        assert len((await spectator.receive_json_from(WAIT))["plies"]) == 3
        for s in (spectator, green):
            await s.disconnect()

    async_to_sync(body)()


def test_no_delay_is_live_for_everyone(battle):
    Tournament.objects.update(broadcast_delay_minutes=0)

    async def body():
        spectator = _socket(battle)
        state = await _connected(spectator)
        assert state["plies"] == battle.texts and "delay" not in state
        await spectator.disconnect()

    async_to_sync(body)()


def test_the_game_page_holds_the_last_plies_back_from_visitors(battle):
    board = reverse("games:live-board", args=[battle.game_id])
    visitor = Client()
    page = visitor.get(reverse("games:detail", args=[battle.game_id])).content.decode()
    assert "Broadcast 15 minutes late" in page
    player = Client()
    player.force_login(battle.gold)
    assert (
        "Broadcast"
        not in player.get(reverse("games:detail", args=[battle.game_id])).content.decode()
    )

    seen = visitor.get(board).content.decode()
    live = player.get(board).content.decode()
    assert seen != live
    for texts, picture in ((battle.texts[:1], seen), (battle.texts, live)):
        position = Battle.replay(battle.tags, texts)
        assert picture == render_svg(position.position, last=position.plies[-1].to_move())


def test_the_delay_is_read_and_changed_through_the_api_and_the_form(battle):
    chief = Token.objects.get(key=battle.tokens["chief"]).user
    api = APIClient()
    api.force_authenticate(chief)
    url = f"/api/tournaments/{battle.game.round.tournament.slug}/"
    assert api.get(url).json()["broadcast_delay_minutes"] == 15
    resp = api.patch(url, {"broadcast_delay_minutes": 0}, format="json")
    assert resp.status_code == 200, resp.json()
    assert Tournament.objects.get().broadcast_delay_minutes == 0
    for bad in (-1, 1441, "soon"):
        assert api.patch(url, {"broadcast_delay_minutes": bad}, format="json").status_code == 400
    assert Tournament.objects.get().broadcast_delay_minutes == 0

    page = Client()
    page.force_login(Tournament.objects.get().organizer)
    form = page.get(
        reverse("arbiter:manage", args=[Tournament.objects.get().slug])
    ).content.decode()
    rules = form[form.index('id="settings-rules"') : form.index('id="settings-scoring"')]
    assert 'name="broadcast_delay_minutes"' in rules
