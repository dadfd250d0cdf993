"""Issue 15 item 2 in a real browser: an arbiter enters a whole round's results from the
keyboard in the console's grid (1, =, 0 and a forfeit, one Enter), and a typo is refused
beside its board with nothing saved."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.demo import demo_load
from tournaments.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_round_entered_by_keyboard(live_server, browser_page):
    t, login, password, _ = demo_load()
    rnd = services.round_pair(tournament=t)  # the next round, published
    games = list(rnd.games.filter(kind=Game.Kind.GAME).order_by("board"))
    assert len(games) >= 4
    page, base = browser_page, live_server.url
    page.goto(f"{base}/arbiter/t/{t.slug}/round/{rnd.number}/")
    page.fill("#id_username", login)
    page.fill("#id_password", password)
    page.get_by_role("button", name="Log in").click()
    page.locator("#results-grid").wait_for(state="attached")
    first = page.locator(f"#result-{games[0].board}")
    assert first.input_value() == ""  # blank: nothing preset

    # A typo first: refused beside its board, the others not saved, what was typed kept.
    first.click()
    page.keyboard.type("1")  # moves on to the next board by itself
    page.keyboard.type("x")
    page.keyboard.press("Enter")
    page.locator(f"#result-{games[1].board}-error").wait_for()
    assert page.locator(f"#result-{games[0].board}").input_value() == "1"
    assert not Game.objects.filter(round=rnd).exclude(result="").exists()

    # Then the round: 1, =, 0, + typed one after another, Enter saves them all.
    box = page.locator(f"#result-{games[1].board}")
    box.click()
    box.fill("")
    page.keyboard.type("=")
    page.keyboard.type("0")
    page.keyboard.type("+")
    page.keyboard.press("Enter")
    page.get_by_text("4 results saved").wait_for()
    results = {g.board: g.result for g in Game.objects.filter(round=rnd)}
    assert [results[g.board] for g in games[:4]] == [
        "first_win",
        "draw",
        "second_win",
        "first_forfeit_win",
    ]
