"""Two browsers play a battle online by clicks against the ASGI server as deployed (the
Procfile's uvicorn line), a third watches: the setup warrior by warrior, then moves, each
ply seen by the other player and the spectator; then a resignation ends it with the record
signed by the site."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.live_models import LiveBattle
from games.models import RecordSignature
from tests.e2e.conftest import ARGS, CHROMIUM
from tests.games.test_live_rounds import _online, _publish
from tests.workers import asgi_server_argv, free_port, http_wait, service

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
User = get_user_model()
# Milliseconds a ply may take to come round: the move, its answer, the state, the picture.
WAIT = 20_000
# Battle plies played after the setup (each side moves twice).
BATTLE_PLIES = 4


def _session_cookie(user: Any, url: str) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


def _plies(page: Any) -> int:
    return page.locator("#live-moves li").count()


def _wait_plies(page: Any, n: int) -> None:
    page.wait_for_function(
        "n => document.querySelectorAll('#live-moves li').length >= n", arg=n, timeout=WAIT
    )


def _ready_to_play(page: Any, n: int) -> None:
    """Wait until the page has drawn the position after `n` plies and marks its choices."""
    _wait_plies(page, n)
    page.wait_for_selector("#live-board .live-from, #live-pieces button", timeout=WAIT)


def _click_square(page: Any, marked: str) -> None:
    """Click the first square marked `marked` where a visitor would: on what is drawn on
    top of it (the warrior standing there, when one does, drawn after the squares)."""
    name = page.locator(f"#live-board {marked}").first.get_attribute("data-square")
    page.locator(f'#live-board [data-square="{name}"]').last.click()


def _click_a_ply(page: Any) -> None:
    """One ply by clicks: a warrior to place (its button) or on the board, then the first
    destination the board marks (and the first ply offered if the click leads to several)."""
    pieces = page.locator("#live-pieces button")
    if pieces.count():
        pieces.first.click()
    else:
        _click_square(page, ".live-from")
    page.wait_for_selector("#live-board .live-to", timeout=WAIT)
    _click_square(page, ".live-to")
    choice = page.locator("#live-choice button")
    if choice.count():
        choice.first.click()


def _keys_a_ply(page: Any) -> None:
    """One setup ply by keyboard only: a warrior's button, then its first square, each
    focused and pressed with Enter."""
    page.locator("#live-pieces button").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#live-board .live-to", timeout=WAIT)
    page.locator("#live-board .live-to").first.focus()
    page.keyboard.press("Enter")


def test_two_browsers_play_by_clicks_and_a_spectator_watches(monkeypatch):
    # Playwright's sync API runs an event loop in this thread; the Django calls around it
    # are plain synchronous ones (as tests/e2e/conftest.py's browser_page says).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    officials, t, players = _online()
    rnd = _publish(officials, t, players)
    battle = LiveBattle.objects.select_related("green", "gold").get(game__round=rnd, game__board=1)
    port = free_port(8790, 8799)
    base = f"http://127.0.0.1:{port}"
    from playwright.sync_api import sync_playwright

    with service("asgi", asgi_server_argv(port)), sync_playwright() as pw:
        http_wait(f"{base}/")
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            pages = {}
            for name, user in (("green", battle.green), ("gold", battle.gold), ("watch", None)):
                # The green player on a phone's width: the board shrinks to it.
                width = 390 if name == "green" else 1366
                context = browser.new_context(viewport={"width": width, "height": 844})
                if user is not None:
                    context.add_cookies([_session_cookie(user, base)])
                page = context.new_page()
                page.goto(f"{base}/g/{battle.game_id}/")
                page.wait_for_selector("#live-board [data-square]", timeout=WAIT)
                pages[name] = page
            watcher = pages["watch"]
            assert watcher.locator("#live-resign").count() == 0
            box = pages["green"].locator("#live-board svg").bounding_box()
            assert box is not None and box["width"] <= 390

            played = 0
            while not _over(battle) and _battle_plies(battle) < BATTLE_PLIES:
                assert battle.plies.count() == played
                mover = pages[_mover(pages, played)]
                _ready_to_play(mover, played)
                # The side to act's clock runs, for everyone watching.
                assert watcher.locator(".live-clock.running").count() == 1
                if played == 0:
                    _keys_a_ply(mover)
                else:
                    _click_a_ply(mover)
                played += 1
                for page in pages.values():
                    _wait_plies(page, played)
                # The spectator sees every ply, marks no square and may choose none.
                assert watcher.locator("#live-board .live-from, #live-board .live-to").count() == 0
                battle.refresh_from_db()
            assert played > 20  # the whole setup (ten warriors a side), then the battle
            assert watcher.locator("#live-board .last").count() >= 1
            assert _plies(watcher) == played
            if not _over(battle):
                # The clocks tick for the side to act; gold resigns.
                assert pages["green"].locator(".live-clock.running").count() == 1
                pages["gold"].once("dialog", lambda d: d.accept())
                pages["gold"].click("#live-resign")
            for page in pages.values():
                page.wait_for_function(
                    "() => document.getElementById('live-status').textContent.includes("
                    "'The battle is over')",
                    timeout=WAIT,
                )
        finally:
            browser.close()
    battle.refresh_from_db()
    assert battle.status == "over" and battle.result in ("green", "gold")
    assert battle.game.result != ""  # the result entered on the tournament's game
    assert RecordSignature.objects.filter(submission=battle.record, role="site").exists()


def _over(battle: LiveBattle) -> bool:
    battle.refresh_from_db()
    return battle.status == LiveBattle.Status.OVER


def _mover(pages: dict[str, Any], played: int) -> str:
    """Whose turn it is, as the pages say: the page that offers a choice."""
    for _ in range(200):
        for name in ("green", "gold"):
            page = pages[name]
            if _plies(page) >= played and (
                page.locator("#live-board .live-from, #live-pieces button").count()
            ):
                return name
        pages["green"].wait_for_timeout(100)
    said = {name: page.locator("#live-status").inner_text() for name, page in pages.items()}
    raise AssertionError(f"no player may act after {played} plies: {said}")


def _battle_plies(battle: LiveBattle) -> int:
    """The plies played since the setup: those with the move's `@`."""
    return battle.plies.filter(text__contains="@").count()
