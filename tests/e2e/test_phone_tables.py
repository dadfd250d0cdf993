"""At 390 px the public pairings are cards (board, both names, the result; the signed-in
player's own game first) and the standings show rank, name, score and the first tie-break
without sideways scroll, the other columns on demand."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.e2e.screenshots import screenshot
from tests.e2e.test_accessibility import severe_violations
from tests.e2e.test_responsive import log_in, page_width, wide_event
from tournaments import services
from tournaments.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PASSWORD = "a-player-pass-2026"


@pytest.fixture
def event(live_server):
    """The ten-player round robin of the responsive tests, round 9 under way (boards 1 and 2
    decided); the second placer of board 4 has an account."""
    arbiter = get_user_model().objects.create_user(
        "arbiter-phone", password=PASSWORD, is_staff=True
    )
    t = wide_event(arbiter)
    game = Game.objects.select_related("second").get(round__tournament=t, round__number=9, board=4)
    user = get_user_model().objects.create_user("player-phone", password=PASSWORD)
    services.player_link_user(player=game.second, account=user, user=arbiter)
    return live_server.url, t, game


def inside(box, width: int = PHONE["width"]) -> bool:
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


def test_pairings_are_cards_with_names_and_result_in_view(event, browser_page):
    base, t, _ = event
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/t/{t.slug}/round/9/")
    scroll, inner = page_width(page)
    assert scroll <= inner, (scroll, inner)
    assert not page.locator("#pairings thead").is_visible()
    cards = page.locator("#pairings tbody tr")
    assert cards.count() == 5
    for i in range(cards.count()):
        card = cards.nth(i)
        cells = card.locator("td")
        for n in (0, 2, 5, 7):  # board, first placer, result, second placer
            assert inside(cells.nth(n).bounding_box()), (i, n, cells.nth(n).inner_text())
        for n in (1, 3, 4, 6, 8, 9):  # start numbers, ratings, points before the round
            assert not cells.nth(n).is_visible()
    first = cards.nth(0).locator("td")
    assert first.nth(5).inner_text().strip() in ("1 – 0", "0 – 1", "-½ – -½")
    # both names on one card, the result beside them, the board above
    board, one, result, two = (first.nth(n).bounding_box() for n in (0, 2, 5, 7))
    assert board["y"] < one["y"] < two["y"] and result["x"] > one["x"] + one["width"] - 1
    assert "Board" in first.nth(0).evaluate("e => getComputedStyle(e, '::before').content")
    screenshot(page, "pairings-cards-390")


def test_the_signed_in_players_game_comes_first(event, browser_page):
    base, t, game = event
    page = browser_page
    page.set_viewport_size(PHONE)
    log_in(page, base, "player-phone", PASSWORD)
    page.goto(f"{base}/t/{t.slug}/round/9/")
    first = page.locator("#pairings tbody tr").first
    assert first.get_attribute("id") == f"board-{game.board}"
    assert first.get_attribute("class") == "own"
    assert game.second.name in first.inner_text()
    assert "Your game" in first.evaluate("e => getComputedStyle(e, '::before').content")
    screenshot(page, "pairings-signed-in-390")
    assert not severe_violations(page)
    assert inside(first.bounding_box()) and first.bounding_box()["y"] < 844
    # a visitor, after the player, has the boards in their order
    page.context.clear_cookies()
    page.goto(f"{base}/t/{t.slug}/round/9/")
    assert page.locator("#pairings tbody tr").first.get_attribute("id") == "board-1"
    assert page.locator("#pairings tr.own").count() == 0


def test_standings_show_rank_name_score_and_first_tiebreak_the_rest_on_demand(event, browser_page):
    base, t, _ = event
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/t/{t.slug}/standings/")
    scroll, inner = page_width(page)
    assert scroll <= inner, (scroll, inner)
    box = page.locator("#standings").locator("xpath=..")
    assert box.evaluate("e => e.scrollWidth <= e.clientWidth"), "the standings scroll sideways"
    heads = page.locator("#standings thead th")
    shown = [heads.nth(i).inner_text() for i in range(heads.count()) if heads.nth(i).is_visible()]
    assert shown == ["#", "Name", "Score", "BH"], shown
    for i in range(3):
        cells = page.locator("#standings tbody tr").nth(i).locator("td")
        for n in (0, 1, 5, 6):  # rank, name, score, the first tie-break
            assert inside(cells.nth(n).bounding_box()), (i, n)
            assert cells.nth(n).inner_text().strip()
        assert not cells.nth(2).is_visible()  # the club
    screenshot(page, "standings-phone-390")
    page.get_by_label("Show all columns").check()
    club = page.locator("#standings tbody tr").first.locator("td").nth(2)
    assert club.is_visible() and page.locator("#standings thead th").nth(7).is_visible()
    assert box.evaluate("e => e.scrollWidth > e.clientWidth")  # now the box scrolls
    assert page_width(page)[0] <= 390


def test_a_wide_screen_keeps_the_tables(event, browser_page):
    base, t, _ = event
    page = browser_page
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{base}/t/{t.slug}/round/9/")
    assert page.locator("#pairings thead").is_visible()
    assert (
        page.locator("#pairings tbody tr").first.evaluate("e => getComputedStyle(e).display")
        == "table-row"
    )
    page.goto(f"{base}/t/{t.slug}/standings/")
    assert not page.get_by_label("Show all columns").is_visible()
    assert page.locator("#standings tbody tr").first.locator("td").nth(2).is_visible()
