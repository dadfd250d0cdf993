"""Every public page and the arbiter's main pages fit a 390 px phone and a 1366 px screen
without sideways page scroll; wide tables scroll inside their box with the name in view."""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games import services as game_services
from tournaments import services
from tournaments.demo import PLAYER_LOGIN, demo_load
from tournaments.models import Game, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
WIDTHS = {390: 844, 1366: 768}  # a phone (iPhone 12-15) and the commonest laptop screen
RECORD = (ROOT / "tests" / "rules" / "records" / "example1-laws-capture.kzr").read_bytes()
LONG_NAME = "Kahless the Unforgettable, Son of the House of Mogh"
LONG_CLUB = "Qo'noS First City Klin Zha Society of Warriors"
NAMES = [LONG_NAME, "Kor", "Kang", "Koloth", "Martok", "Worf", "Grilka", "Azetbur"]
NAMES += ["B'Elanna Torres", "K'Ehleyr"]
# 4 columns before the rounds, 9 rounds, the score and 6 tie-breaks: a 20-column wall chart.
TIEBREAKS = "buchholz,buchholz_cut1,median_buchholz,sonneborn_berger,wins,progressive"
RESULTS = [Game.Result.FIRST_WIN, Game.Result.SECOND_WIN, Game.Result.DRAW]


def wide_event(organizer) -> Tournament:
    """A round robin of ten, eight rounds played and the ninth under way, with a long name."""
    t = services.tournament_create(
        name="Great Hall of the High Council Klin Zha Championship 2026",
        slug="wide-event",
        start_date=date(2026, 11, 21),
        end_date=date(2026, 11, 29),
        venue="Great Hall of the High Council, First City, Qo'noS",
        time_control="20/1800:1200",
        pairing_system=Tournament.PairingSystem.ROUND_ROBIN,
        rounds_planned=9,
        tiebreaks=TIEBREAKS,
        organizer=organizer,
    )
    t.arbiters.add(organizer)
    club = services.club_create(name=LONG_CLUB)
    for i, name in enumerate(NAMES):
        player = services.player_create(name=name, club=club, rating=1900 - 37 * i)
        services.registration_create(tournament=t, player=player)
    for number in range(1, 10):
        rnd = services.round_pair(tournament=t)
        for game in rnd.games.order_by("board"):
            if number == 9 and game.board > 2:
                continue  # the round under way: results still to come
            services.game_result_set(game=game, result=RESULTS[(number + game.board) % 3])
    return t


@pytest.fixture
def site(live_server):
    demo, login, password, _ = demo_load(rounds_played=1)
    arbiter = get_user_model().objects.get(username=login)
    t = wide_event(arbiter)
    game = Game.objects.get(round__tournament=t, round__number=9, board=3)
    sub = game_services.submission_create(game=game, raw=RECORD, enqueue=False)
    game_services.submission_validate(submission_id=sub.pk)
    long_player = t.registrations.get(player__name=LONG_NAME).player_id
    services.series_create(
        name="Klingon Empire Klin Zha Grand Prix of the Season 2026",
        slug="wide-series",
        user=None,
        events=[t, demo],
        best_of=1,
        categories=[{"name": "Under 1800", "high": 1800}],
    )
    club = t.registrations.get(player__name=LONG_NAME).player.club
    public = {
        "home": "/",
        "tournament": f"/t/{t.slug}/",
        "pairings": f"/t/{t.slug}/round/9/",
        "standings": f"/t/{t.slug}/standings/",
        "standings after round 1": f"/t/{t.slug}/standings/?round=1",
        "crosstable": f"/t/{t.slug}/crosstable/",
        "player": f"/p/{long_player}/",
        "game": f"/g/{game.pk}/",
        "rating pools": "/ratings/",
        "rating list": "/ratings/laws/",
        "series": "/series/wide-series/",
        "club": f"/clubs/{club.pk}/",
        "clubs": "/clubs/",
        "all series": "/series/",
    }
    arbiter_pages = {
        "dashboard": "/arbiter/",
        "manage": f"/arbiter/t/{t.slug}/",
        "console": f"/arbiter/t/{t.slug}/round/9/",
        "audit": f"/arbiter/t/{t.slug}/audit/",
        "entrants tab": f"/arbiter/t/{t.slug}/#entrants",
        "settings tab": f"/arbiter/t/{t.slug}/#settings",
        "downloads tab": f"/arbiter/t/{t.slug}/#downloads",
        "bulk entrants": f"/arbiter/t/{t.slug}/entrants/bulk/",
        "withdraw confirm": f"/arbiter/t/{t.slug}/entrants/{long_player}/withdraw/",
        "new series": "/series/new/",
        "player edit": f"/p/{long_player}/edit/",
    }
    return live_server.url, public, arbiter_pages, (login, password)


def log_in(page, base: str, login: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", login)
    page.fill("#id_password", password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def page_width(page) -> tuple[int, int]:
    return tuple(page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]"))


# The innermost elements reaching past the window's right edge, to say what widened a page.
OVERFLOWING = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5
    && ![...e.children].some(c => c.getBoundingClientRect().right > window.innerWidth + 0.5))
  .slice(0, 5).map(e => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className
    + ' ' + Math.round(e.getBoundingClientRect().right))"""


def test_no_page_scrolls_sideways(site, browser_page, tmp_path):
    """Both widths, every page; the screenshots go to KZ_SCREENSHOTS_DIR when it is set
    (docs/screenshots/ for the README), else to a temporary folder."""
    base, public, arbiter_pages, (login, password) = site
    page = browser_page
    out = Path(os.environ.get("KZ_SCREENSHOTS_DIR") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    widths: dict[str, tuple[int, int]] = {}
    culprits: dict[str, list[str]] = {}

    def visit(name: str, path: str, width: int) -> None:
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        assert page.locator("main").count() == 1, f"{name}: no page at {path}"
        widths[f"{name}@{width}"] = page_width(page)
        if widths[f"{name}@{width}"][0] > width:
            culprits[f"{name}@{width}"] = page.evaluate(OVERFLOWING)
        page.screenshot(path=out / f"{name}-{width}.jpg", type="jpeg", quality=70)

    for width, height in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.context.clear_cookies()
        for name, path in public.items():
            visit(name, path, width)
        log_in(page, base, login, password)
        for name, path in arbiter_pages.items():
            visit(name, path, width)
    too_wide = {k: v for k, v in widths.items() if v[0] > v[1]}
    print("\npage widths (scrollWidth, innerWidth):", widths)
    assert not too_wide, f"pages wider than the window: {too_wide}, {culprits}"
    assert len(widths) == 2 * (len(public) + len(arbiter_pages))


@pytest.mark.parametrize("language", ["de", "it", "fr"])
def test_no_page_scrolls_sideways_in_other_languages(site, browser_page, language):
    """At 390 px the translated pages fit too: German's long compounds, Italian's and
    French's longer phrases in buttons, headings and table heads."""
    base, public, arbiter_pages, (login, password) = site
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    too_wide: dict[str, list[str]] = {}

    def visit(name: str, path: str) -> None:
        page.goto(f"{base}/{language}{path}")
        page.wait_for_load_state("networkidle")
        assert page.locator("main").count() == 1, f"{name}: no page at {path}"
        assert page.evaluate("document.documentElement.lang") == language, name
        scroll, inner = page_width(page)
        if scroll > inner:
            too_wide[f"{name} {scroll}"] = page.evaluate(OVERFLOWING)

    for name, path in public.items():
        visit(name, path)
    log_in(page, base, login, password)
    for name, path in arbiter_pages.items():
        visit(name, path)
    assert not too_wide, f"{language} pages wider than 390 px: {too_wide}"


def test_forms_and_proposals_fit_a_phone(site, browser_page):
    """The pages behind the main ones: logging in, a new tournament, a proposed round with
    its selects of long names, the slips, and the game page with the arbiter's forms."""
    base, public, _, (login, password) = site
    demo = Tournament.objects.exclude(slug="wide-event").get()
    services.round_pair(tournament=demo, publish=False)
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    widths = {}
    page.goto(base + "/accounts/login/")
    widths["login"] = page_width(page)
    log_in(page, base, login, password)
    for name, path in {
        "new tournament": "/arbiter/new/",
        "proposal": f"/arbiter/t/{demo.slug}/round/2/",
        "slips": public["pairings"] + "?slips=1",
        "player": public["player"],
        "game, signed in": public["game"],
    }.items():
        page.goto(base + path)
        assert page.locator("main").count() == 1, name
        widths[name] = page_width(page)
    assert page.locator("form[action$='/latecomers/']").is_visible()  # the arbiter's forms
    assert all(scroll <= inner for scroll, inner in widths.values()), widths


@pytest.mark.parametrize("table", ["standings", "crosstable"])
def test_wide_table_scrolls_in_its_box_with_the_name_in_view(site, browser_page, table):
    base, public, _, _ = site
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(base + public[table])
    if table == "standings":  # a phone shows its essential columns only until asked
        page.get_by_label("Show all columns").check()
    box = page.locator(f"#{table}").locator("xpath=..")
    overflow = box.evaluate("e => [e.scrollWidth, e.clientWidth, getComputedStyle(e).overflowX]")
    assert overflow[0] > overflow[1] and overflow[2] == "auto", overflow
    name = page.locator(f"#{table} tbody tr").first.locator("td").nth(1)
    before = name.bounding_box()
    box.evaluate("e => { e.scrollLeft = e.scrollWidth }")
    after = name.bounding_box()
    assert after["x"] == pytest.approx(before["x"], abs=1), (before, after)
    assert after["x"] >= 0 and after["x"] + after["width"] <= 390
    # the cells scrolled past the name stay beneath it: its background hides them
    background = name.evaluate("e => getComputedStyle(e).backgroundColor")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent")


def test_header_shows_the_arbiter_link_only_to_officials(site, browser_page):
    base, public, _, (login, password) = site
    user = get_user_model().objects.create_user("qeylis", password="a-player-pass-2026")
    t = Tournament.objects.get(slug="wide-event")
    player = t.registrations.get(player__name="Kor").player
    player.user = user
    player.save(update_fields=["user"])
    page = browser_page
    header = page.locator("body > header")
    page.goto(base + public["standings"])
    assert header.get_by_role("link", name="Arbiter").count() == 0
    log_in(page, base, "qeylis", "a-player-pass-2026")
    page.goto(base + public["standings"])
    assert header.get_by_role("button", name=re.compile("Log out")).is_visible()
    assert header.get_by_role("link", name="Arbiter").count() == 0
    page.context.clear_cookies()
    log_in(page, base, login, password)
    page.goto(base + public["standings"])
    header.get_by_role("link", name="Arbiter").click()
    page.wait_for_url("**/arbiter/")


def test_viewer_buttons_draw_their_icons(site, browser_page):
    """The step buttons carry inline SVG, not glyphs a font may lack (they were empty boxes)."""
    base, public, _, _ = site
    page = browser_page
    page.goto(base + public["game"])
    for button in ("#first", "#prev", "#next", "#last"):
        icon = page.locator(f"{button} svg")
        assert icon.count() == 1, button
        box = icon.bounding_box()
        assert box and box["width"] >= 10 and box["height"] >= 10, (button, box)
        assert page.locator(button).get_attribute("aria-label"), button


def test_stylesheet_and_htmx_come_from_our_static_files(site, browser_page):
    base, public, arbiter_pages, (login, password) = site
    page = browser_page
    log_in(page, base, login, password)
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(base + arbiter_pages["console"])
    page.wait_for_load_state("networkidle")
    assert all(u.startswith(base) for u in requested), requested
    assert any(re.search(r"/static/klinzha/site\.[0-9a-f.]*css", u) for u in requested)
    assert page.evaluate("typeof window.htmx") == "object"
    color = page.evaluate("getComputedStyle(document.querySelector('body > header')).borderColor")
    assert color != "rgb(0, 0, 0)"  # the stylesheet applied


def test_print_hides_the_controls_and_unclips_the_wall_chart(site, browser_page):
    base, public, _, _ = site
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(base + public["crosstable"])
    page.emulate_media(media="print")
    assert not page.locator("#account-nav").is_visible()
    assert not page.locator("#site-nav").is_visible()
    box = page.locator("#crosstable").locator("xpath=..")
    assert box.evaluate("e => getComputedStyle(e).overflowX") == "visible"
    page.goto(base + public["pairings"] + "?slips=1")
    slips = page.locator(".slip")
    assert (
        slips.count()
        == Game.objects.filter(
            round__tournament__slug="wide-event", round__number=9, kind="game"
        ).count()
    )
    assert slips.first.is_visible()
    assert slips.first.get_by_text(re.compile("Board 1")).is_visible()
    assert not page.locator("#pairings").is_visible()
    page.emulate_media(media="screen")
    assert page.locator("#pairings").is_visible()


def test_readme_shows_the_screenshots():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    named = re.findall(r"docs/screenshots/([\w-]+\.jpg)", readme)
    assert len(named) >= 8
    for name in named:
        assert (SCREENSHOTS / name).is_file(), name


def test_the_players_pages_fit_a_phone(site, browser_page):
    """Issue 15's pages: the password reset, a refusal, the demo player's own games, and the
    organizer's invitation of a player, at 390 px."""
    base, public, _, (login, password) = site
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    widths = {}

    def visit(name: str, path: str) -> None:
        page.goto(base + path)
        assert page.locator("main").count() == 1, name
        widths[name] = page_width(page)

    visit("password reset", "/accounts/password-reset/")
    visit("a used set-password link", "/accounts/reset/MQ/used-token/")
    visit("not found", "/t/no-such-event/")
    log_in(page, base, PLAYER_LOGIN[0], PLAYER_LOGIN[1])
    page.wait_for_url("**/me/games/")
    assert page.locator("#next-pairing").is_visible()
    widths["my games"] = page_width(page)
    visit("a refusal", "/arbiter/t/wide-event/")
    page.context.clear_cookies()
    log_in(page, base, login, password)
    kor = Tournament.objects.get(slug="wide-event").registrations.get(player__name="Kor")
    visit("invite", f"/accounts/invite/{kor.player_id}/")
    assert page.locator("input[name=email]").is_visible()
    assert all(scroll <= inner for scroll, inner in widths.values()), widths
