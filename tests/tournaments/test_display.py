"""The display screen (issue 26): a full-screen page that turns through the current round's
pairings by name (alphabetical, paged to fit), its results and the standings."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.display_selectors import display_slides
from tournaments.models import Game

pytestmark = pytest.mark.django_db

NAMES = ("Worf", "Ann", "martok", "Bob", "Kor", "Dax", "Gowron")


@pytest.fixture
def running():
    officials = officials_make()
    t, players = event_make(officials, slug="screen-open", names=NAMES)
    w, a, m, b, k, d, g = players
    rnd = round_make(t, [(w, a), (m, b), (k, d), (g, None)])
    game = rnd.games.get(board=1)
    services.game_result_set(game=game, result=Game.Result.FIRST_WIN, user=officials.arbiter)
    return t, rnd


def test_the_pairings_are_by_name_alphabetically_and_paged(running):
    t, _ = running
    rnd, slides = display_slides(tournament=t, per_page=5)
    assert rnd is not None and rnd.number == 1
    pairings = [s for s in slides if s.kind == "pairings"]
    assert [s.page for s in pairings] == [1, 2] and all(s.pages == 2 for s in pairings)
    names = [line.name for s in pairings for line in s.rows]
    assert names == ["Ann", "Bob", "Dax", "Gowron", "Kor", "martok", "Worf"]
    ann = pairings[0].rows[0]
    assert (ann.board, ann.placed_first, ann.opponent, ann.marks) == (1, False, "Worf", "0")
    assert [len(s.rows) for s in pairings] == [5, 2]
    kinds = [s.kind for s in slides]
    assert kinds == ["pairings", "pairings", "results", "standings", "standings"]


def test_the_page_renders_every_screen_with_one_showing(running):
    t, _ = running
    page = Client().get(f"/t/{t.slug}/display/?rows=5")
    assert page.status_code == 200
    body = page.content.decode()
    assert 'class="display"' in body
    assert body.count("data-slide") == 5
    assert len(re.findall(r"data-slide hidden", body)) == 4
    assert "klinzha/display.js" in body and f'data-live-poll="/t/{t.slug}/live/"' in body
    assert "(1/2)" in body and "(2/2)" in body
    assert body.index(">Ann<") < body.index(">Bob<") < body.index(">martok<")


def test_more_rows_fewer_screens_and_bad_rows_refused(running):
    t, _ = running
    body = Client().get(f"/t/{t.slug}/display/?rows=20").content.decode()
    assert body.count("data-slide") == 3
    assert Client().get(f"/t/{t.slug}/display/?rows=2").status_code == 400
    assert Client().get(f"/t/{t.slug}/display/?rows=x").status_code == 400


def test_an_event_not_yet_paired_shows_its_standings_only():
    officials = officials_make()
    t, _ = event_make(officials, slug="empty-screen")
    rnd, slides = display_slides(tournament=t, per_page=14)
    assert rnd is None and [s.kind for s in slides] == ["standings"]
    assert Client().get(f"/t/{t.slug}/display/").status_code == 200
