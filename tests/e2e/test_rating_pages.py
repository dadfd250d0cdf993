"""A walk of a pool's rating list and a player's rating history in a real browser, at 390 and
1366 px and in the four languages: the page never scrolls sideways, the table's rank, name and
rating are in view, the history's plot is drawn and labelled, and axe finds nothing serious."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.e2e.test_accessibility import severe_violations
from tournaments import services
from tournaments.models import Game, Player, RatingPeriod, Tournament
from tournaments.services.ratings import rating_period_close

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {390: 844, 1366: 768}
NAMES = ["Kahless the Unforgettable, Son of the House of Mogh", "Kor", "Kang", "Koloth"]
NAMES += ["Martok", "Worf"]


def _month_start(months_back: int) -> dt.datetime:
    """10 o'clock UTC on the first day of the month `months_back` months before this one."""
    today = dt.datetime.now(dt.UTC)
    index = today.year * 12 + today.month - 1 - months_back
    return dt.datetime(index // 12, index % 12 + 1, 1, 10, tzinfo=dt.UTC)


# One round a month, ending with this month's: the two months before are closed by hand, and
# this month's period (not yet over, so no sweep closes it) is the estimate.
ROUND_DAYS = [_month_start(2), _month_start(1), _month_start(0)]
LAST_CLOSED = f"{ROUND_DAYS[1]:%Y-%m}"


def rated_event(players: list[Player]) -> Tournament:
    t = services.tournament_create(
        name="Autumn Open", slug="autumn-open", start_date=ROUND_DAYS[0].date(), rounds_planned=3
    )
    for p in players:
        services.registration_create(tournament=t, player=p)
    for day in ROUND_DAYS:
        rnd = services.round_pair(tournament=t)
        services.round_schedule(round=rnd, starts_at=day)
        for game in rnd.games.order_by("board"):
            result = Game.Result.FIRST_WIN if game.board % 2 else Game.Result.DRAW
            services.game_result_set(game=game, result=result)
    return t


@pytest.fixture
def rated_site(live_server):  # type: ignore[no-untyped-def]
    club = services.club_create(name="Qo'noS First City Klin Zha Society of Warriors")
    players = [
        services.player_create(name=n, club=club, federation="KLI", rating=1900 - 60 * i)
        for i, n in enumerate(NAMES)
    ]
    rated_event(players)
    rating_period_close(pool="laws", label=LAST_CLOSED, user=None)  # the month before's first
    assert RatingPeriod.objects.filter(pool="laws").exclude(closed_at=None).count() == 2
    return live_server.url, players[0]


def overflow(page) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    return tuple(page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]"))


def in_view(page, locator, width: int) -> bool:  # type: ignore[no-untyped-def]
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + min(box["width"], 40) <= width


def walk(page, base: str, prefix: str, player: Player, width: int) -> None:  # type: ignore[no-untyped-def]
    """The rating list, then the first player's page with their history."""
    page.set_viewport_size({"width": width, "height": WIDTHS[width]})
    page.goto(f"{base}{prefix}/ratings/laws/")
    page.wait_for_load_state("networkidle")
    scroll, inner = overflow(page)
    assert scroll <= inner, f"{prefix or 'en'} rating list scrolls sideways at {width}"
    # The header leads to the ratings, the series and the clubs on every page.
    assert page.locator("#site-nav a").count() == 3
    assert page.locator("#site-nav a").first.get_attribute("href") == f"{prefix}/ratings/"
    rows = page.locator("#rating-list tbody tr")
    assert rows.count() == len(NAMES)
    # Scrolled to its end in its box, the rank, name and rating columns stay readable.
    page.locator(".tablewrap").first.evaluate("b => b.scrollLeft = b.scrollWidth")
    first = rows.first.locator("td")
    assert first.nth(0).inner_text() == "1"
    assert in_view(page, first.nth(1), width), "the name column left the screen"
    page.locator(".tablewrap").first.evaluate("b => b.scrollLeft = 0")
    assert in_view(page, first.nth(4), width) or width < 1366
    assert first.nth(4).inner_text().strip().rstrip("?").isdigit()
    assert not severe_violations(page), severe_violations(page)
    page.locator("#rating-list a", has_text=player.name).click()
    page.wait_for_load_state("networkidle")
    assert page.url.endswith(f"{prefix}/p/{player.pk}/")
    scroll, inner = overflow(page)
    assert scroll <= inner, f"{prefix or 'en'} player page scrolls sideways at {width}"
    plot = page.locator("#rating-laws svg.rating-plot")
    assert plot.is_visible()
    label = plot.get_attribute("aria-label")
    assert plot.get_attribute("role") == "img" and label
    box = plot.bounding_box()
    assert box["width"] > 200 and box["x"] >= 0 and box["x"] + box["width"] <= width
    points = plot.locator("polyline").get_attribute("points").split()
    assert len(points) >= 2  # two closed periods at least
    periods = page.locator("#rating-laws table.rating-periods tbody tr")
    assert periods.count() == 2
    assert not severe_violations(page), severe_violations(page)
    return label


def test_the_rating_list_and_history_fit_a_laptop(rated_site, browser_page):  # type: ignore[no-untyped-def]
    base, player = rated_site
    label = walk(browser_page, base, "", player, 1366)
    assert label == "Rating after each period"
    assert browser_page.locator("#rating-laws table.rating-periods tbody tr").first.locator(
        "td"
    ).first.inner_text() in (f"{ROUND_DAYS[0]:%Y-%m}", LAST_CLOSED)


@pytest.mark.parametrize("language", ["en", "it", "fr", "de"])
def test_the_rating_list_and_history_fit_a_phone_in_four_languages(  # type: ignore[no-untyped-def]
    rated_site, browser_page, language
):
    base, player = rated_site
    prefix = "" if language == "en" else f"/{language}"
    label = walk(browser_page, base, prefix, player, 390)
    assert browser_page.evaluate("document.documentElement.lang") == language
    if language != "en":
        assert label != "Rating after each period", f"the plot's label is not in {language}"
