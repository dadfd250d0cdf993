"""Art. 12.4 d on a game still being played, through the REST API (issue 13 item 3): the battle
declared lost sets the result that counts, marked, in the standings, the crosstable (API and
JSON), the game's API representation and its page; revoked, the game is pending again."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from tests.tournaments.services.factories import Officials, event_make, officials_make, round_make
from tournaments.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def officials() -> Officials:
    return officials_make()


@pytest.fixture
def pending(officials: Officials) -> Game:
    """Ann (first) - Bob of round 1, still being played; Cid - Dax drawn."""
    t, (a, b, c, d) = event_make(officials)
    rnd = round_make(t, [(a, b), (c, d)])
    rnd.games.filter(board=2).update(result="draw")
    return rnd.games.get(board=1)


def api(user: object = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def cells(slug: str) -> dict[str, tuple[str, float | None, bool]]:
    table = api().get(f"/api/tournaments/{slug}/crosstable/").json()
    return {
        r["name"]: (r["rounds"][0]["result"], r["rounds"][0]["points"], r["rounds"][0]["penalized"])
        for r in table["rows"]
    }


def board_cell(client, slug: str, board: int) -> str:
    """The result cell of a board on the public pairings page, tags stripped."""
    page = client.get(f"/t/{slug}/round/1/").content.decode()
    row = re.search(rf'<tr id="board-{board}">(.*?)</tr>', page, re.S)
    assert row is not None, page
    cell = re.search(r'<td class="result">(.*?)</td>', row.group(1), re.S)
    assert cell is not None, row.group(1)
    return re.sub(r"<[^>]+>", "", cell.group(1)).strip()


def test_a_battle_declared_lost_decides_a_pending_game_with_its_mark(officials, pending, client):
    t = pending.round.tournament
    game_url = f"/api/games/{pending.pk}/"
    assert board_cell(client, t.slug, 1) == ""
    before = api().get(game_url).json()
    assert (before["result"], before["result_counted"], before["result_penalized"]) == (
        "",
        "",
        False,
    )
    body = {"player": pending.second_id, "game": pending.pk, "kind": "battle_lost", "reason": "x"}
    resp = api(officials.arbiter).post(f"/api/tournaments/{t.slug}/penalties/", body)
    assert resp.status_code == 201, resp.content
    penalty = resp.json()["id"]

    # the game: its own result stays unentered; the one that counts is Ann's win, marked
    shown = api().get(game_url).json()
    assert (shown["result"], shown["result_counted"], shown["result_penalized"]) == (
        "",
        "first_win",
        True,
    )
    # the standings and the crosstable count it
    standings = {
        r["name"]: r["score"] for r in api().get(f"/api/tournaments/{t.slug}/standings/").json()
    }
    assert (standings["Ann"], standings["Bob"]) == (1, 0)
    table = cells(t.slug)
    assert table["Ann"] == ("1", 1, True) and table["Bob"] == ("0", 0, True)
    assert table["Cid"][2] is False
    crosstable = client.get(f"/t/{t.slug}/crosstable.json").json()
    marked = {r["name"]: r["rounds"][0]["penalized"] for r in crosstable["rows"]}
    assert marked == {"Ann": True, "Bob": True, "Cid": False, "Dax": False}
    # the game's page and the public pairings say so
    page = client.get(f"/g/{pending.pk}/").content.decode()
    assert "Art. 12.4 d" in page and "*" in page
    assert board_cell(client, t.slug, 1) == "1* – 0*"  # the points each counts, as the crosstable
    assert "*" not in board_cell(client, t.slug, 2)

    # revoked: pending again
    body = {"penalty": penalty, "reason": "mistaken"}
    assert (
        api(officials.arbiter).post(f"/api/tournaments/{t.slug}/revocations/", body).status_code
        == 201
    )
    shown = api().get(game_url).json()
    assert (shown["result_counted"], shown["result_penalized"]) == ("", False)
    standings = {
        r["name"]: r["score"] for r in api().get(f"/api/tournaments/{t.slug}/standings/").json()
    }
    assert (standings["Ann"], standings["Bob"]) == (0, 0)
    assert cells(t.slug)["Ann"][0] == ""
    assert "Art. 12.4 d" not in client.get(f"/g/{pending.pk}/").content.decode()
    assert board_cell(client, t.slug, 1) == ""


def test_a_result_entered_after_stays_marked_by_the_penalty(officials, pending):
    t = pending.round.tournament
    body = {"player": pending.first_id, "game": pending.pk, "kind": "battle_lost", "reason": "x"}
    assert (
        api(officials.arbiter).post(f"/api/tournaments/{t.slug}/penalties/", body).status_code
        == 201
    )
    resp = api(officials.arbiter).post(f"/api/games/{pending.pk}/result/", {"result": "first_win"})
    assert resp.status_code == 200
    shown = api().get(f"/api/games/{pending.pk}/").json()
    # the board's result is on record; the penalty's loss for Ann is what counts
    assert (shown["result"], shown["result_counted"], shown["result_penalized"]) == (
        "first_win",
        "second_win",
        True,
    )
    table = cells(t.slug)
    assert table["Ann"][1:] == (0, True) and table["Bob"][1:] == (1, True)
