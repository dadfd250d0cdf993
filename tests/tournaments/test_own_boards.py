"""The signed-in player's own board first on a round's pairings: moved as the page is served,
never into the copy the cache keeps for everyone else."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import Game
from tournaments.own_boards import own_boards_first

pytestmark = pytest.mark.django_db

ROWS = re.compile(rb'<tr id="board-(\d+)"')


@pytest.fixture
def event() -> dict[str, Any]:
    """Ann, Bob, Cid, Dax, Eve; round 1 published: Ann – Bob, Cid – Dax, Eve's bye."""
    officials = officials_make()
    t, players = event_make(officials, slug="own-first", names=("Ann", "Bob", "Cid", "Dax", "Eve"))
    a, b, c, d, e = players
    r1 = round_make(t, [(a, b), (c, d), (e, None)])
    services.game_result_set(game=r1.games.get(board=1), result=Game.Result.FIRST_WIN)
    return {"t": t, "players": players, "officials": officials}


def boards(content: bytes) -> list[int]:
    return [int(n) for n in ROWS.findall(content)]


def account(event: dict[str, Any], django_user_model: Any, index: int) -> Client:
    player = event["players"][index]
    user = django_user_model.objects.create_user(f"u-{player.name}", password="pw-12345-x")
    services.player_link_user(player=player, account=user, user=event["officials"].organizer)
    client = Client()
    client.force_login(user)
    return client


def test_a_players_own_board_comes_first_and_marked(event, django_user_model):
    path = f"/t/{event['t'].slug}/round/1/"
    visitor = Client().get(path).content
    assert boards(visitor) == [1, 2, 3]
    dax = account(event, django_user_model, 3)
    mine = dax.get(path).content
    assert boards(mine) == [2, 1, 3]
    assert b'<tr id="board-2" class="own" aria-current="true" data-own="Your game">' in mine
    assert mine.count(b'class="own"') == 1
    # the same rows, only moved
    assert mine.count(b"<tr") == visitor.count(b"<tr")


def test_the_cache_keeps_everyones_order_after_a_player_read_first(event, django_user_model):
    path = f"/t/{event['t'].slug}/round/1/"
    eve = account(event, django_user_model, 4)
    assert boards(eve.get(path).content) == [3, 1, 2]  # Eve's bye first
    for _ in range(2):  # a miss then a hit, both the visitors' order
        visitor = Client().get(path)
        assert boards(visitor.content) == [1, 2, 3]
        assert b'class="own"' not in visitor.content
    # another player's copy has their board first, not Eve's
    assert boards(account(event, django_user_model, 2).get(path).content) == [2, 1, 3]


def test_uncached_answers_put_the_own_board_first_too(event, django_user_model):
    cid = account(event, django_user_model, 2)
    response = cid.get(f"/t/{event['t'].slug}/round/1/?unknown=1")
    assert boards(response.content) == [2, 1, 3]


def test_a_user_with_no_game_in_the_round_sees_the_usual_order(event, django_user_model):
    user = django_user_model.objects.create_user("nobody-here", password="pw-12345-x")
    client = Client()
    client.force_login(user)
    content = client.get(f"/t/{event['t'].slug}/round/1/").content
    assert boards(content) == [1, 2, 3] and b'class="own"' not in content


def test_own_boards_first_moves_rows_between_the_marks_only():
    body = (
        b'<p id="board-2">x</p><tbody><!--kz:boards-->'
        b'\n<tr id="board-1"><td>a</td></tr>\n'
        b'\n<tr id="board-12"><td>l</td></tr>\n'
        b'\n<tr id="board-2"><td>b</td></tr>\n'
        b"<!--/kz:boards--></tbody>"
    )
    moved = own_boards_first(body, [2])
    assert boards(moved) == [2, 1, 12]
    assert moved.startswith(b'<p id="board-2">x</p>')
    assert own_boards_first(body, [12]).index(b"board-12") < own_boards_first(body, [12]).index(
        b'board-1"'
    )
    assert own_boards_first(body, []) == body
    assert own_boards_first(body, [7]) == body
    assert own_boards_first(b"<tbody></tbody>", [1]) == b"<tbody></tbody>"
