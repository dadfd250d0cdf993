"""An arbiter runs a round in the console in a real browser: pairs and publishes it, enters
results (and sees another arbiter's result arrive live), imposes a penalty, and the public
standings change."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games.models import RecordSubmission
from tests.e2e.screenshots import screenshot
from tests.games.conftest import done
from tests.games.test_signed_final import battle_make, signed_by_both
from tournaments import services
from tournaments.demo import demo_load
from tournaments.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def public_score(page, base: str, slug: str, name: str) -> str:
    page.goto(f"{base}/t/{slug}/standings/")
    row = page.locator("#standings tbody tr").filter(has_text=name)
    return row.locator("td.score").inner_text()


def test_arbiter_runs_a_round_in_the_console(live_server, browser_page):
    t, login, password, _ = demo_load()
    page, base = browser_page, live_server.url
    page.goto(f"{base}/arbiter/")
    page.fill("#id_username", login)
    page.fill("#id_password", password)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name=t.name).click()
    page.get_by_role("button", name="Pair round 5").click()
    assert page.get_by_role("heading", name=re.compile("Round 5")).is_visible()
    assert page.get_by_text("Proposed pairings").is_visible()
    page.get_by_role("button", name="Publish").click()
    page.locator("#games").wait_for()

    game1 = Game.objects.get(round__tournament=t, round__number=5, board=1)
    game2 = Game.objects.get(round__tournament=t, round__number=5, board=2)
    name = game1.first.name
    console = page.url
    before = public_score(page, base, t.slug, name)

    page.goto(console)
    row = page.locator("#game-1")
    row.locator("select[name=result]").select_option("first_win")
    row.get_by_role("button", name="Enter").click()
    page.locator("#game-1 td.result", has_text="First placer wins").wait_for()
    # Another arbiter enters board 2 elsewhere: the console shows it without a reload.
    services.game_result_set(game=game2, result=Game.Result.DRAW)
    page.locator("#game-2 td.result", has_text="Draw").wait_for(timeout=10_000)

    after_win = public_score(page, base, t.slug, name)
    assert after_win != before

    page.goto(console)
    page.select_option("#penalty-form select[name=player]", str(game1.first_id))
    page.select_option("#penalty-form select[name=game]", str(game1.pk))
    page.select_option("#penalty-form select[name=kind]", "battle_lost")
    page.fill("#penalty-form textarea[name=reason]", "used a written aid (Art. 10)")
    page.locator("#penalty-form").get_by_role("button", name="Impose").click()
    assert page.locator("#penalties").get_by_text("Battle declared lost").is_visible()
    assert page.locator("#game-1 td.result").get_by_text("[12.4d]").is_visible()
    page.set_viewport_size({"width": 1366, "height": 768})
    screenshot(page, "arbiter-console-1366")

    after_penalty = public_score(page, base, t.slug, name)
    assert after_penalty == before  # the win is taken back: a loss scores 0
    assert after_penalty != after_win


def test_a_result_against_the_signed_record_is_ruled_on_in_the_console(
    live_server, browser_page, worker
):
    """Board 1 was entered as a draw; both combatants then sign a record in which green
    captures the Goal: the console says so on the board's row, and the arbiter's ruling
    (the entered result stands, with its reason) ends it and is in the audit trail."""
    t, login, password, _ = demo_load(rounds_played=1)
    game = Game.objects.get(round__tournament=t, round__number=1, board=1)
    battle = battle_make(game, get_user_model().objects.get(username=login))
    assert done(RecordSubmission.objects.get(pk=signed_by_both(battle))).valid
    page, base = browser_page, live_server.url
    page.goto(f"{base}/arbiter/")
    page.fill("#id_username", login)
    page.fill("#id_password", password)
    page.get_by_role("button", name="Log in").click()
    assert page.locator("#record-disagreements").get_by_text("round 1, board 1").is_visible()
    page.locator("#record-disagreements a").first.click()
    warning = page.locator("#game-1 .record-disagreement")
    assert "result entered: Draw; the signed record: green captures the Goal" in (
        warning.inner_text()
    )
    page.locator("#game-1 input[name=reason]").fill("Art. 12.4: the Goal moved after the flag")
    page.locator("#game-1").get_by_role("button", name="Entered result stands").click()
    page.locator("#games").wait_for()
    assert page.locator("#game-1 .record-disagreement").count() == 0
    assert page.locator("#game-1 td.result").get_by_text("Draw").is_visible()
    page.goto(f"{base}/arbiter/t/{t.slug}/audit/")
    assert page.get_by_text("result and signed record reconciled").first.is_visible()
