"""A knockout's bracket in Chromium: the stages one under the other on a 390 px phone with no
sideways scroll, side by side on a laptop and when printed, with no serious accessibility
violation."""

from __future__ import annotations

from datetime import date

import pytest

from tests.e2e.screenshots import screenshot
from tests.e2e.test_accessibility import severe_violations
from tournaments import services
from tournaments.models import Game, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Kahless the Unforgettable, Son of the House of Mogh",
    "Kor",
    "Kang",
    "Koloth",
    "Martok",
    "Worf",
    "Grilka",
]


@pytest.fixture
def bracket_url(live_server) -> str:
    t = services.tournament_create(
        name="Knockout of the High Council",
        slug="ko-council",
        start_date=date(2026, 11, 21),
        pairing_system=Tournament.PairingSystem.KNOCKOUT,
        rounds_planned=5,
    )
    for i, name in enumerate(NAMES):
        services.registration_create(
            tournament=t, player=services.player_create(name=name, rating=1900 - 40 * i)
        )
    r1 = services.round_pair(tournament=t)
    for game in r1.games.filter(kind=Game.Kind.GAME):
        services.game_result_set(game=game, result=Game.Result.FIRST_WIN)
    services.round_pair(tournament=t)
    return f"{live_server.url}/t/{t.slug}/bracket/"


def stage_boxes(page) -> list[dict]:
    return page.evaluate(
        "[...document.querySelectorAll('.bracket-stage')].map(s => s.getBoundingClientRect())"
        ".map(r => ({x: r.x, y: r.y, w: r.width}))"
    )


def test_the_bracket_on_a_phone_a_laptop_and_paper(bracket_url, browser_page):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.goto(bracket_url).status == 200
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, (scroll, inner)
    boxes = stage_boxes(page)
    assert len(boxes) == 3  # quarter-finals, semi-finals, final
    assert all(b["y"] < c["y"] for b, c in zip(boxes, boxes[1:], strict=False))  # stacked
    assert all(b["x"] + b["w"] <= 390 for b in boxes)
    assert page.get_by_role("heading", name="Final", exact=True).is_visible()
    assert page.get_by_text(NAMES[0]).first.is_visible()
    assert severe_violations(page) == []
    screenshot(page, "bracket-390")
    page.set_viewport_size({"width": 1366, "height": 768})
    boxes = stage_boxes(page)
    screenshot(page, "bracket-1366")
    assert all(b["x"] < c["x"] for b, c in zip(boxes, boxes[1:], strict=False))  # side by side
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(media="print")
    boxes = stage_boxes(page)
    assert all(b["x"] < c["x"] for b, c in zip(boxes, boxes[1:], strict=False))
    hidden = page.evaluate("getComputedStyle(document.querySelector('body > header nav')).display")
    assert hidden == "none"
