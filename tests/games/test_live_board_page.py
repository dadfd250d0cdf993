"""The game page of a battle played online is its live board: the socket and the side for
each player, read-only for spectators, nothing for a game played over the board; the
position's picture follows the plies with the last one marked."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.live_models import LiveBattle
from games.services.live_battles import live_move_play
from tests.games.test_live_rounds import _online, _publish
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle():
    officials, t, players = _online()
    rnd = _publish(officials, t, players)
    return LiveBattle.objects.select_related("game").get(game__round=rnd, game__board=1)


def _page(battle, user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    resp = client.get(reverse("games:detail", args=[battle.game_id]))
    assert resp.status_code == 200
    return resp.content.decode()


def test_each_player_gets_the_board_of_their_colour(battle):
    for user, colour in ((battle.green, "green"), (battle.gold, "gold")):
        page = _page(battle, user)
        assert f'data-side="{colour}"' in page
        assert f'data-socket="/ws/games/{battle.game_id}/"' in page
        assert 'id="live-resign"' in page and "games/live.js" in page


def test_spectators_see_the_board_read_only(battle):
    page = _page(battle)
    assert 'id="live"' in page and 'data-side=""' in page
    assert 'id="live-resign"' not in page and 'id="live-pieces"' not in page


def test_a_game_over_the_board_has_no_live_board():
    officials, t, players = _online(Tournament.Play.OVER_THE_BOARD)
    rnd = _publish(officials, t, players)
    game = rnd.games.get(board=1)
    page = Client().get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'id="live"' not in page
    assert Client().get(reverse("games:live-board", args=[game.pk])).status_code == 404


def test_the_picture_follows_the_plies_and_marks_the_last(battle):
    url = reverse("games:live-board", args=[battle.game_id])
    before = Client().get(url)
    assert before.status_code == 200 and before["Content-Type"] == "image/svg+xml"
    assert 'class="last"' not in before.content.decode()
    live_move_play(battle_id=battle.pk, user=battle.green, n=1, ply="V→I99")
    after = Client().get(url + "?n=1").content.decode()
    assert 'class="last"' in after
    assert re.search(r'id="sq-I99"', after)
    assert after != before.content.decode()


def test_the_page_allows_the_socket_to_its_own_origin(battle):
    resp = Client().get(reverse("games:detail", args=[battle.game_id]))
    assert "connect-src 'self' ws://testserver" in resp["Content-Security-Policy"]
