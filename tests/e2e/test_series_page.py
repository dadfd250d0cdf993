"""A walk of a series page in a real browser, at 390 and 1366 px and in the four languages:
its standings table scrolls in its box with the names in view, the page never scrolls
sideways, its events link to their pages and those pages back to it; the CSV and JSON links
answer."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Game, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {390: 844, 1366: 768}
NAMES = ["Kahless the Unforgettable, Son of the House of Mogh", "Kor", "Kang", "Koloth"]
NAMES += ["Martok", "Worf"]


def played_event(slug: str, start: date, players: list, organizer) -> Tournament:  # type: ignore[no-untyped-def]
    t = services.tournament_create(
        name=f"Grand Prix Leg {slug[-1]}", slug=slug, start_date=start, organizer=organizer,
        rounds_planned=2,
    )  # fmt: skip
    for p in players:
        services.registration_create(tournament=t, player=p)
    for _ in range(2):
        rnd = services.round_pair(tournament=t)
        for game in rnd.games.order_by("board"):
            result = Game.Result.FIRST_WIN if game.board % 2 else Game.Result.DRAW
            services.game_result_set(game=game, result=result)
    return t


@pytest.fixture
def series_site(live_server):  # type: ignore[no-untyped-def]
    organizer = get_user_model().objects.create_user(
        "gp-org", password="pw-gp-org-1", is_staff=True
    )
    club = services.club_create(name="Qo'noS First City Klin Zha Society of Warriors")
    players = [
        services.player_create(name=n, club=club, rating=1900 - 60 * i) for i, n in enumerate(NAMES)
    ]
    events = [
        played_event(f"gp-leg-{i}", date(2026, 3 * i, 1), players, organizer) for i in (1, 2, 3)
    ]
    services.series_create(
        name="Klin Zha Grand Prix 2026",
        slug="gp-2026",
        user=None,
        events=events,
        best_of=2,
        categories=[
            {"name": "U1800", "high": 1800},
            {"name": "Juniors", "players": [players[1].pk]},
        ],
    )
    return live_server.url, events


def overflow(page) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    return tuple(page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]"))


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_the_series_page_fits_and_leads_to_its_events(series_site, browser_page, width):  # type: ignore[no-untyped-def]
    base, events = series_site
    page = browser_page
    page.set_viewport_size({"width": width, "height": WIDTHS[width]})
    page.goto(f"{base}/series/gp-2026/")
    page.wait_for_load_state("networkidle")
    assert page.locator("h1").inner_text() == "Klin Zha Grand Prix 2026"
    scroll, inner = overflow(page)
    assert scroll <= inner, f"the page scrolls sideways at {width}: {scroll} > {inner}"
    table = page.locator("#series-standings")
    assert table.locator("tbody tr").count() == len(NAMES)
    # The name column stays in view when the table is scrolled in its box.
    box = page.locator(".tablewrap").first
    box.evaluate("b => b.scrollLeft = b.scrollWidth")
    name_cell = table.locator("tbody tr").first.locator("td").nth(1)
    assert name_cell.bounding_box()["x"] >= 0
    assert name_cell.bounding_box()["x"] < width
    # A table per category, each ranked from 1.
    assert page.locator("h2", has_text="U1800").count() == 1
    assert page.locator("h2", has_text="Juniors").count() == 1
    # Its events, in date order, link to their pages; each names the series back.
    links = page.locator("#series-events a")
    assert links.count() == 3
    links.nth(1).click()
    page.wait_for_load_state("networkidle")
    assert page.url.endswith(f"/t/{events[1].slug}/")
    page.locator("#event-series a", has_text="Klin Zha Grand Prix 2026").click()
    page.wait_for_load_state("networkidle")
    assert page.url.endswith("/series/gp-2026/")
    body = page.request.get(f"{base}/series/gp-2026.json").json()
    assert [e["slug"] for e in body["events"]] == [e.slug for e in events]
    assert len(body["standings"]) == len(NAMES)
    csv = page.request.get(f"{base}/series/gp-2026.csv").text()
    assert csv.splitlines()[0].startswith("rank,name,club,total")


@pytest.mark.parametrize("language", ["de", "it", "fr"])
def test_the_series_page_fits_a_phone_in_other_languages(series_site, browser_page, language):  # type: ignore[no-untyped-def]
    base, _ = series_site
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/{language}/series/gp-2026/")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("document.documentElement.lang") == language
    assert page.locator("#series-standings tbody tr").count() == len(NAMES)
    scroll, inner = overflow(page)
    assert scroll <= inner, f"{language}: {scroll} > {inner}"
