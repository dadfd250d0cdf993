"""A visitor opens the demo event's standings and crosstable in a real browser."""

from __future__ import annotations

import re

import pytest

from tournaments.demo import demo_load
from tournaments.selectors import standings_compute

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_standings_and_crosstable_as_a_visitor_sees_them(live_server, browser_page):
    tournament, _, _, _ = demo_load()
    expected = standings_compute(tournament=tournament)
    page = browser_page
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name=tournament.name).click()
    page.get_by_role("link", name="Standings", exact=True).click()
    rows = page.locator("#standings tbody tr")
    assert rows.count() == len(expected) == 10
    first = rows.nth(0).locator("td")
    assert first.nth(0).inner_text() == "1"
    assert first.nth(1).inner_text() == expected[0].entrant.name
    last_score = rows.nth(9).locator("td.score").inner_text()
    assert last_score.startswith("-") or last_score in ("0", "½")
    headers = page.locator("#standings thead th").all_inner_texts()
    assert "BH" in headers and "SSB" in headers  # by FIDE code, the legend names them

    page.goto(f"{live_server.url}/t/{tournament.slug}/crosstable/")
    heads = page.locator("#crosstable thead th").all_inner_texts()
    assert heads[4:8] == ["1", "2", "3", "4"]
    cells = page.locator("#crosstable tbody tr").nth(0).locator("td").all_inner_texts()
    assert cells[1] == expected[0].entrant.name
    # each round cell reads like "3f1": opponent's rank, placed first/second, result; a
    # battle's rating change under it (~ an estimate: no period closed yet)
    assert all(c.split("\n")[0][-1] in "10=+-BH" for c in cells[4:8] if c)
    changes = [c.split("\n")[1] for c in cells[4:8] if "\n" in c]
    assert changes and all(re.fullmatch(r"~[+-]\d+\.\d", c) for c in changes), cells
    page.set_viewport_size({"width": 380, "height": 700})  # a phone
    assert page.locator("#crosstable").is_visible()
