"""A short event (six players, two rounds) in one real browser, as its people meet it: the
organizer creates it and registers the players one by one, links a player's account, pairs,
publishes and enters both rounds from the console, and leaves the console open while it
refreshes; the player signs in and finds their games; a visitor reads the standings. No page
answers 5xx, and no page logs an error or a refused style or script on the way."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tests.e2e.conftest import ARGS, CHROMIUM
from tests.e2e.test_csp import Watch
from tournaments import services
from tournaments.models import Game, Registration, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYERS = [("Ada Ash", 1900), ("Bo Birch", 1800), ("Cy Cedar", 1700)]
PLAYERS += [("Di Dogwood", 1600), ("Ed Elm", 1500), ("Fi Fir", 1400)]
PASSWORD = "short-event-2026"


@pytest.fixture
def chromium(monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def person(browser: Any, width: int, failures: list[str]) -> tuple[Any, Watch]:
    """A page of its own for one person, its 5xx answers collected in `failures`."""
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.on(
        "response", lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 500 else None
    )
    return page, Watch(page)


def log_in(page: Any, base: str, username: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def test_a_short_event_as_organizer_player_and_visitor(live_server, chromium):
    base, failures = live_server.url, []
    User = get_user_model()
    organizer = User.objects.create_user("orla", password=PASSWORD)
    organizer.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    User.objects.create_user("ada", password=PASSWORD)

    # The organizer creates the event.
    arbiter, watch = person(chromium, 1366, failures)
    log_in(arbiter, base, "orla", "/arbiter/")
    arbiter.get_by_role("link", name="New tournament").click()
    arbiter.fill("#id_name", "Short Cup")
    arbiter.fill("#id_start_date", "2026-12-05")
    arbiter.fill("#id_rounds_planned", "2")
    arbiter.get_by_role("button", name=re.compile("Create")).click()
    arbiter.get_by_role("heading", name="Short Cup").wait_for()
    manage = arbiter.url
    watch.check()

    # Six players registered one by one from the Entrants tab: the form is sent without a
    # reload, and the tab stays open with the list, the confirmation and an empty form.
    arbiter.locator("nav.tabnav").get_by_role("link", name=re.compile("Entrants")).click()
    for number, (name, rating) in enumerate(PLAYERS, start=1):
        arbiter.fill("#entrant-form #id_name", name)
        arbiter.fill("#entrant-form #id_rating", str(rating))
        arbiter.locator("#entrant-form").get_by_role("button", name="Register").click()
        added = arbiter.locator("#entrant-added", has_text=f"{name} registered from round 1")
        added.wait_for(state="visible", timeout=10_000)
        assert arbiter.locator("#entrants tbody tr").count() == number
        assert arbiter.locator("#entrant-form #id_name").input_value() == ""
        tabs = arbiter.locator("nav.tabnav").inner_text()
        assert f"Entrants ({number})" in tabs, tabs
    watch.check()
    t = Tournament.objects.get(slug="short-cup")
    assert Registration.objects.filter(tournament=t).count() == 6

    # Ada's account linked to her player.
    form = arbiter.locator("form[action$='/accounts/']")
    # The menus tell namesakes apart: "Ada Ash (#id, club, federation)".
    ada = Registration.objects.get(tournament=t, player__name="Ada Ash").player
    form.locator("select[name=player]").select_option(value=str(ada.pk))
    label = form.locator("select[name=player] option:checked").inner_text()
    assert label.startswith(f"Ada Ash (#{ada.pk}"), label
    form.locator("input[name=account]").fill("ada")
    form.get_by_role("button", name="Save account").click()
    arbiter.get_by_text("account of Ada Ash saved").wait_for()

    # Two rounds paired, published and entered from the console's grid.
    for number in (1, 2):
        arbiter.goto(manage)
        arbiter.get_by_role("button", name=f"Pair round {number}").click()
        arbiter.get_by_role("button", name="Publish").click()
        arbiter.locator("#results-grid").wait_for(state="attached")
        arbiter.locator("input.rescode").first.click()
        for typed in ("1", "=", "0"):
            arbiter.keyboard.type(typed)
        arbiter.keyboard.press("Enter")
        arbiter.get_by_text(f"round {number}: 3 results saved").wait_for()
        watch.check()
    games = Game.objects.filter(round__tournament=t)
    assert games.count() == 6 and not games.filter(result="").exists()

    # The console left open asks the event's version every 5 s and fetches its games again
    # once a change bumps it, without a refused style, also where the browser left style
    # attributes on the grid's fields (as its autofill does; here through the CSSOM, which
    # the policy allows): the swap carries none over.
    arbiter.evaluate(
        "document.querySelectorAll('#games input').forEach("
        "i => { i.style.color = 'red'; i.style.color = ''; })"
    )
    with arbiter.expect_response(lambda r: r.url.endswith("/live/")):
        pass
    changed = games.filter(round__number=2).order_by("board").first()
    assert changed is not None
    services.game_result_set(game=changed, result=Game.Result.DRAW, user=organizer)
    with arbiter.expect_response(lambda r: r.url.endswith("/round/2/"), timeout=15_000):
        pass
    arbiter.wait_for_timeout(300)  # the swap follows the answer
    watch.check()

    # Ada signs in: "My games" lists both her games, each with its opponent.
    ada, ada_watch = person(chromium, 390, failures)
    log_in(ada, base, "ada", "/me/games/")
    assert ada.url.endswith("/me/games/")
    listed = ada.locator("main").inner_text()
    for game in games.filter(first__name="Ada Ash") | games.filter(second__name="Ada Ash"):
        opponent = game.second if game.first.name == "Ada Ash" else game.first
        assert opponent is not None and opponent.name in listed, listed
    ada_watch.check()

    # A visitor reads the standings: six rows, by score.
    visitor, visitor_watch = person(chromium, 1366, failures)
    visitor.goto(f"{base}/t/short-cup/standings/")
    rows = visitor.locator("table").first.locator("tbody tr")
    assert rows.count() == 6
    visitor_watch.check()
    assert failures == []
