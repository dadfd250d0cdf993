"""The socket of a battle played online, `/ws/games/{id}/`, through
`klinzha_site.asgi:application` with Channels' WebsocketCommunicator: the state on connect,
a move to everyone watching, refusals with the validator's words, stale numbers, ping, sync,
draws and resignation, and who may act."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games.live_models import LiveBattle
from games.services.live_battles import live_battle_open
from klinzha_site.asgi import application
from rules.validate import validate_text
from tests.tournaments.services.factories import event_make, officials_make, round_make

# The consumer reaches the database from other threads: committed data, not a test's
# transaction.
pytestmark = pytest.mark.django_db(transaction=True)

User = get_user_model()
# Seconds a message may take: the services write to the database, the layer may be Redis,
# and the machine is shared.
WAIT = 10


@pytest.fixture
def battle():
    """Ann (green, first placer) and Bob of a published round, 30 minutes each."""
    officials = officials_make()
    t, players = event_make(officials, time_control="1800")
    for p in players:
        p.user = User.objects.create_user(p.name.lower(), password=f"pw-{p.name}-online")
        p.save(update_fields=["user"])
    game = round_make(t, [(players[0], players[1]), (players[2], players[3])]).games.get(board=1)
    battle = live_battle_open(game=game)
    # The players' tokens, made here: the async test bodies cannot query.
    battle.green.token = Token.objects.create(user=battle.green).key
    battle.gold.token = Token.objects.create(user=battle.gold).key
    return battle


def _socket(battle, user=None, headers=None):
    path = f"/ws/games/{battle.game_id}/"
    if user is not None:
        path += f"?token={user.token}"
    return WebsocketCommunicator(application, path, headers=headers or [])


def run(coroutine_function):
    """Run an async test body to its end."""
    return async_to_sync(coroutine_function)()


async def _connected(communicator):
    connected, _ = await communicator.connect(WAIT)
    assert connected
    return await communicator.receive_json_from(WAIT)


def test_the_state_on_connect(battle):
    async def body():
        green = _socket(battle, battle.green)
        state = await _connected(green)
        assert set(state) == {
            "type",
            "plies",
            "clocks",
            "turn",
            "phase",
            "legal",
            "status",
            "result",
        }
        assert (state["type"], state["plies"], state["turn"]) == ("state", [], "green")
        assert (state["phase"], state["status"], state["result"]) == ("placement", "waiting", "*")
        assert state["legal"] and "V→I99" in state["legal"]
        assert state["clocks"]["gold"] == 1_800_000
        assert 1_790_000 < state["clocks"]["green"] <= 1_800_000
        spectator = _socket(battle)
        watched = await _connected(spectator)
        assert watched["legal"] == []
        await green.disconnect()
        await spectator.disconnect()

    run(body)


def test_a_move_goes_to_everyone_with_legal_plies_to_the_players_only(battle):
    async def body():
        green, gold, spectator = (
            _socket(battle, battle.green),
            _socket(battle, battle.gold),
            _socket(battle),
        )
        for s in (green, gold, spectator):
            await _connected(s)
        await green.send_json_to({"type": "move", "n": 1, "ply": "V→I99"})
        for s in (green, gold):
            moved = await s.receive_json_from(WAIT)
            assert (moved["type"], moved["n"], moved["ply"]) == ("moved", 1, "V→I99")
            assert moved["legal"] and "V→I99" not in moved["legal"]
            assert set(moved["clocks"]) == {"green", "gold"}
        seen = await spectator.receive_json_from(WAIT)
        assert seen["type"] == "moved" and "legal" not in seen
        for s in (green, gold, spectator):
            await s.disconnect()

    run(body)


def test_an_illegal_ply_is_refused_with_its_ply_article_and_message(battle):
    async def body():
        green = _socket(battle, battle.green)
        await _connected(green)
        await green.send_json_to({"type": "move", "n": 1, "ply": "V→I99"})
        await green.receive_json_from(WAIT)
        await green.send_json_to({"type": "move", "n": 2, "ply": "Fl→I99"})
        refused = await green.receive_json_from(WAIT)
        expected = validate_text("V→I99\nFl→I99\n").error
        assert refused == {
            "type": "refused",
            "n": 2,
            "ply": "Fl→I99",
            "error": {"ply": 2, "article": expected.article, "message": str(expected.reason)},
        }
        assert await green.receive_nothing()
        await green.disconnect()

    run(body)


def test_a_stale_or_repeated_number_is_refused_with_code_stale(battle):
    async def body():
        green = _socket(battle, battle.green)
        await _connected(green)
        await green.send_json_to({"type": "move", "n": 1, "ply": "V→I99"})
        await green.receive_json_from(WAIT)
        await green.send_json_to({"type": "move", "n": 1, "ply": "V→I99"})
        refused = await green.receive_json_from(WAIT)
        assert (refused["type"], refused["code"], refused["n"]) == ("refused", "stale", 1)
        assert refused["error"]["article"] is None
        await green.disconnect()

    run(body)
    assert LiveBattle.objects.get(pk=battle.pk).plies.count() == 1


def test_ping_pong_and_sync(battle):
    async def body():
        gold = _socket(battle, battle.gold)
        await _connected(gold)
        await gold.send_json_to({"type": "ping", "t": 1234})
        pong = await gold.receive_json_from(WAIT)
        assert (pong["type"], pong["t"]) == ("pong", 1234)
        assert isinstance(pong["server"], int)
        await gold.send_json_to({"type": "sync"})
        state = await gold.receive_json_from(WAIT)
        assert state["type"] == "state" and state["legal"] == []
        await gold.disconnect()

    run(body)


def test_a_watcher_cannot_move_and_nonsense_is_refused(battle):
    async def body():
        spectator = _socket(battle)
        await _connected(spectator)
        await spectator.send_json_to({"type": "move", "n": 1, "ply": "V→I99"})
        assert (await spectator.receive_json_from(WAIT))["code"] == "not_player"
        await spectator.send_json_to({"type": "dance"})
        assert (await spectator.receive_json_from(WAIT))["code"] == "bad_message"
        await spectator.send_json_to({"type": "move", "n": "1", "ply": "V→I99"})
        assert (await spectator.receive_json_from(WAIT))["code"] == "bad_message"
        await spectator.send_json_to({"type": "spindle", "choice": "first"})
        assert (await spectator.receive_json_from(WAIT))["code"] == "not_online"
        await spectator.disconnect()

    run(body)


def test_draw_offer_acceptance_ends_the_battle_for_everyone(battle):
    async def body():
        green, gold = _socket(battle, battle.green), _socket(battle, battle.gold)
        await _connected(green)
        await _connected(gold)
        await green.send_json_to({"type": "draw", "offer": True})
        for s in (green, gold):
            assert await s.receive_json_from(WAIT) == {"type": "draw", "offered_by": "green"}
        await gold.send_json_to({"type": "draw", "offer": True})
        for s in (green, gold):
            ended = await s.receive_json_from(WAIT)
            assert (ended["type"], ended["result"], ended["termination"]) == (
                "ended",
                "draw",
                "agreement",
            )
            assert isinstance(ended["record"]["id"], int)
        await green.disconnect()
        await gold.disconnect()

    run(body)


def test_resignation_ends_the_battle(battle):
    async def body():
        green = _socket(battle, battle.green)
        await _connected(green)
        await green.send_json_to({"type": "resign"})
        ended = await green.receive_json_from(WAIT)
        assert (ended["type"], ended["result"], ended["termination"]) == (
            "ended",
            "gold",
            "resignation",
        )
        await green.disconnect()

    run(body)


def test_a_fallen_flag_falls_once_by_the_sockets_timer_or_sync(battle):
    LiveBattle.objects.filter(pk=battle.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=1801)
    )

    async def body():
        gold = _socket(battle, battle.gold)
        state = await _connected(gold)
        assert state["clocks"]["green"] == 0
        await gold.send_json_to({"type": "sync"})
        got = [await gold.receive_json_from(WAIT), await gold.receive_json_from(WAIT)]
        ended = [m for m in got if m["type"] == "ended"]
        assert len(ended) == 1
        assert (ended[0]["result"], ended[0]["termination"]) == ("gold", "time")
        state = next(m for m in got if m["type"] == "state")
        assert state["result"] in ("*", "gold")
        assert await gold.receive_nothing()
        await gold.disconnect()

    run(body)
    assert LiveBattle.objects.get(pk=battle.pk).status == LiveBattle.Status.OVER


def _session_headers(user, origin):
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return [(b"cookie", cookie), (b"origin", origin)]


def test_the_session_authenticates_a_socket_from_the_sites_own_origin(battle):
    own_headers = _session_headers(battle.green, b"http://localhost")
    foreign_headers = _session_headers(battle.green, b"https://evil.example")

    async def body():
        own = _socket(battle, headers=own_headers)
        assert (await _connected(own))["legal"]
        foreign = _socket(battle, headers=foreign_headers)
        assert (await _connected(foreign))["legal"] == []
        await own.disconnect()
        await foreign.disconnect()

    run(body)


def test_a_game_not_played_online_closes_the_socket(battle):
    async def body():
        communicator = WebsocketCommunicator(application, f"/ws/games/{battle.game_id + 99}/")
        connected, code = await communicator.connect(WAIT)
        assert not connected and code == 4404

    run(body)
