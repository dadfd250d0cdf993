"""Issue 26 item 7: the wall chart (the crosstable printed) is one landscape page up to 40
players, title, table and legend together, and pages cleanly beyond: Chromium prints it to
PDF and the pages are counted."""

from __future__ import annotations

import re
from datetime import date

import pytest

from tests.e2e.screenshots import screenshot
from tournaments import services
from tournaments.models import Game
from tournaments.services.results import ResultRow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROUNDS = 9
# A4 landscape in points, as @page wall sets it.
LANDSCAPE = (842, 595)
# The same sheet in CSS pixels (96 a inch): the screenshot of the print view.
A4_LANDSCAPE_PX = {"width": 1123, "height": 794}


def event_make(players: int, slug: str):
    """A Swiss of `players` with ROUNDS rounds all played (the circle method: no rematch)."""
    t = services.tournament_create(
        name=f"Wall chart {players}",
        slug=slug,
        start_date=date(2026, 11, 20),
        rounds_planned=ROUNDS,
    )
    ids = []
    for i in range(players):
        p = services.player_create(name=f"Player Number {i + 1:03d}", rating=2000 - i)
        services.registration_create(tournament=t, player=p)
        ids.append(p.pk)
    ring = ids[1:]
    for _ in range(ROUNDS):
        order = [ids[0], *ring]
        half = len(order) // 2
        pairs = [(order[i], order[-1 - i]) for i in range(half)]
        rnd = services.round_create(tournament=t, pairings=pairs)
        rows = [
            ResultRow(
                key=g.board,
                board=g.board,
                result=Game.Result.FIRST_WIN if g.board % 3 else Game.Result.DRAW,
            )
            for g in rnd.games.filter(kind=Game.Kind.GAME)
        ]
        services.round_results_enter(round=rnd, rows=rows, label="board", named=False)
        ring = ring[-1:] + ring[:-1]
    return t


def pdf_pages(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's size (the MediaBox's width and height), in order."""
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    return [(float(w), float(h)) for w, h in boxes]


def printed(page, url: str) -> list[tuple[float, float]]:
    page.goto(url)
    page.emulate_media(media="print")
    return pdf_pages(page.pdf(prefer_css_page_size=True, print_background=True))


def landscape(size: tuple[float, float]) -> bool:
    return abs(size[0] - LANDSCAPE[0]) < 2 and abs(size[1] - LANDSCAPE[1]) < 2


def test_forty_players_print_on_one_landscape_page(live_server, browser_page):
    t = event_make(40, "wall-40")
    pages = printed(browser_page, f"{live_server.url}/t/{t.slug}/crosstable/")
    assert len(pages) == 1 and landscape(pages[0]), pages
    browser_page.set_viewport_size(A4_LANDSCAPE_PX)  # the print rules on an A4 sheet's shape
    screenshot(browser_page, "wall-chart-print-landscape")


def test_more_players_page_cleanly_in_landscape_with_the_header_on_each(live_server, browser_page):
    t = event_make(100, "wall-100")
    url = f"{live_server.url}/t/{t.slug}/crosstable/"
    pages = printed(browser_page, url)
    assert 2 <= len(pages) <= 3 and all(landscape(p) for p in pages), pages
    # No row split between pages and the header row repeated: what the print rules say.
    rules = browser_page.evaluate(
        """() => {
        const head = getComputedStyle(document.querySelector('#crosstable thead'));
        const row = getComputedStyle(document.querySelector('#crosstable tbody tr'));
        return [head.display, row.breakInside];
        }"""
    )
    assert rules == ["table-header-group", "avoid"]
