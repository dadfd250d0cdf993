"""Event day in a browser (issue 26): a visitor's standings follow a result by themselves, the
display screen turns through its screens, an entrant checks in by their private link with no
account; axe finds nothing serious on the new pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.e2e.screenshots import screenshot
from tests.e2e.test_accessibility import severe_violations
from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.check_in_selectors import check_in_token
from tournaments.models import CheckIn, Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def running():
    officials = officials_make()
    t, players = event_make(officials, slug="live-e2e", names=("Worf", "Ann", "Kor", "Dax"))
    w, a, k, d = players
    rnd = round_make(t, [(w, a), (k, d)])
    return t, rnd, officials


def test_the_standings_follow_a_result_without_a_reload(live_server, browser_page, running):
    t, rnd, officials = running
    page = browser_page
    page.clock.install()
    page.goto(f"{live_server.url}/t/{t.slug}/standings/")
    first_row = page.locator("#standings tbody tr").nth(0).locator("td").nth(1)
    assert first_row.inner_text() == "Worf"  # start rank 1, nobody has scored
    marker = page.evaluate("() => { window.kzSamePage = true; return true; }")
    assert marker
    # "Show all columns" ticked: a view's switch, not typing; it neither stops the swap nor
    # is lost by it.
    page.evaluate("() => { document.querySelector('#standings-all').checked = true; }")
    game = rnd.games.get(board=2)
    services.game_result_set(game=game, result=Game.Result.SECOND_WIN, user=officials.arbiter)
    page.clock.run_for(16_000)
    page.wait_for_function(
        "() => document.querySelector('#standings tbody tr td:nth-child(2)').innerText === 'Dax'"
    )
    assert page.evaluate("() => window.kzSamePage === true")  # swapped, not reloaded
    assert page.evaluate("() => document.querySelector('#standings-all').checked")
    assert severe_violations(page) == []


def test_the_display_screen_turns_through_its_screens(live_server, browser_page, running):
    t, _, _ = running
    page = browser_page
    page.clock.install()
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{live_server.url}/t/{t.slug}/display/?rows=5")
    slides = page.locator("[data-slide]")
    assert slides.count() == 3  # pairings by name, results, standings
    assert page.locator("header").is_hidden()
    visible = [slides.nth(i).is_visible() for i in range(3)]
    assert visible == [True, False, False]
    names = page.locator(".slide-pairings tbody th").all_inner_texts()
    assert names == sorted(names, key=str.casefold) == ["Ann", "Dax", "Kor", "Worf"]
    assert severe_violations(page) == []
    screenshot(page, "display-screen-1366")
    page.clock.run_for(12_500)
    assert [slides.nth(i).is_visible() for i in range(3)] == [False, True, False]
    screenshot(page, "display-screen-results-1366")
    page.clock.run_for(25_000)
    assert [slides.nth(i).is_visible() for i in range(3)] == [True, False, False]


def test_an_entrant_checks_in_by_their_link_on_a_phone(live_server, browser_page):
    officials = officials_make()
    t, players = event_make(officials, slug="check-e2e")
    now = timezone.now()
    services.check_in_window_set(
        tournament=t,
        round_number=1,
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(hours=1),
        user=officials.arbiter,
    )
    reg = t.registrations.get(player=players[1])
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/check-in/{check_in_token(registration=reg)}/")
    assert players[1].name in page.locator("h2").inner_text()
    assert severe_violations(page) == []
    page.get_by_role("button", name="Check in").click()
    assert page.locator("#checked-in").is_visible()
    assert CheckIn.objects.get(registration=reg).via == CheckIn.Via.LINK


def test_the_display_screen_pages_to_fit_the_screen(live_server, browser_page):
    officials = officials_make()
    names = tuple(f"Player {chr(65 + i)}{chr(65 + j)}" for i in range(2) for j in range(10))
    t, players = event_make(officials, slug="fit-e2e", names=names)
    round_make(t, [(players[i], players[i + 1]) for i in range(0, len(players), 2)])
    page = browser_page
    for height in (768, 1080):
        page.set_viewport_size({"width": 1366, "height": height})
        page.goto(f"{live_server.url}/t/{t.slug}/display/")
        page.wait_for_url("**/display/?rows=*")
        rows = int(page.url.rsplit("=", 1)[1])
        body = page.locator("[data-slide]").nth(0).locator("tbody")
        assert body.locator("tr").count() == rows
        bottom = page.evaluate(
            "() => document.querySelector('[data-slide] tbody').getBoundingClientRect().bottom"
        )
        assert bottom <= height  # the first screen fits, no scrolling
        if height == 768:
            small = rows
    assert rows > small  # a taller screen holds more rows
