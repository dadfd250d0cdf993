"""Issue 15 item 9, the whole journey in one real browser run.

An arbiter creates an event on the web, imports its entrants, invites a player, pairs and runs
three rounds (a draw, a bye and a forfeit among them) and downloads the exports; the invited
player sets a password from the email, logs in, sees the next game, submits its record and signs
it; the arbiter takes the result from the signed record. Every page is seen as each user sees it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core import mail
from django.db.models import Q

from games.models import RecordSignature
from tests.e2e.conftest import ARGS, CHROMIUM
from tournaments.models import Game, Registration, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RECORDS = Path(__file__).resolve().parents[1] / "rules" / "records"
ENTRANTS = """Anna Bell, 1850, Rook Club
Ben Carr, 1720
Cora Dax, 1690, Rook Club
Dov Eld, 1600
Eva Fenn, 1540
"""
INVITED = "Eva Fenn"
PASSWORD = "Qapla'-battle-2026!"


@pytest.fixture
def chromium(monkeypatch):
    """One Chromium with a page per user: the arbiter, the player and a visitor."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def arbiter_user(db):
    """An organizer who is not staff: what an arbiter given the right to create events is."""
    user = get_user_model().objects.create_user(username="tarra", password="arbiter-pass-2026")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def log_in(page, base: str, username: str, password: str, next_path: str = "/") -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def tab(page, name: str) -> None:
    page.locator("nav.tabnav").get_by_role("link", name=re.compile(name)).click()


def pair_and_publish(page, number: int) -> None:
    page.get_by_role("button", name=f"Pair round {number}").click()
    page.get_by_role("button", name="Publish").click()
    page.locator("#results-grid").wait_for(state="attached")


def record_for(game: Game) -> str:
    """The example battle, its tags naming this game's combatants (green placed first)."""
    text = (RECORDS / "example1-laws-capture.kzr").read_text(encoding="utf-8")
    text = text.replace('[Green "Kor"]', f'[Green "{game.first.name}"]')
    return text.replace('[Gold "Kang"]', f'[Gold "{game.second.name}"]')


def no_sideways_scroll(page) -> None:
    width, window = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= window, (page.url, width, window)


def test_an_event_from_creation_to_export(live_server, chromium, arbiter_user, worker, settings):
    base = live_server.url
    # Mail links go to the site's own address, never to the Host a request named: here the
    # site is the test server.
    settings.KZ_SITE_URL = base
    arbiter = chromium.new_context(viewport={"width": 1366, "height": 768}).new_page()

    # The arbiter creates the event: the slug comes from the name, errors come all at once.
    log_in(arbiter, base, arbiter_user.username, "arbiter-pass-2026", "/arbiter/")
    arbiter.get_by_role("link", name="New tournament").click()
    arbiter.fill("#id_name", "Journey Open")
    arbiter.fill("#id_start_date", "2026-12-05")
    arbiter.fill("#id_end_date", "2026-12-01")
    arbiter.locator("#settings-scoring > summary").click()  # folded on a new event
    arbiter.fill("#id_bye_points", "-3")
    arbiter.fill("#id_time_control", "90 banana")
    arbiter.get_by_role("button", name=re.compile("Create")).click()
    errors = arbiter.locator(".errorlist")
    assert errors.count() >= 3, arbiter.content()
    assert not Tournament.objects.exists()
    arbiter.fill("#id_end_date", "2026-12-07")
    arbiter.fill("#id_bye_points", "1")
    arbiter.fill("#id_time_control", "20/30, 20")
    arbiter.fill("#id_rounds_planned", "3")
    arbiter.get_by_role("button", name=re.compile("Create")).click()
    arbiter.get_by_role("heading", name="Journey Open").wait_for()
    t = Tournament.objects.get()
    assert t.slug == "journey-open" and t.rounds_planned == 3
    manage = arbiter.url

    # Entrants in bulk: preview, then register them all.
    tab(arbiter, "Entrants")
    arbiter.locator("#bulk-link").click()
    arbiter.fill("#id_text", ENTRANTS)
    arbiter.get_by_role("button", name="Preview").click()
    arbiter.locator("#bulk-register").click()
    arbiter.goto(manage)
    assert Registration.objects.filter(tournament=t).count() == 5
    tab(arbiter, "Entrants")
    entrants = arbiter.locator("#entrants tbody tr")
    assert entrants.count() == 5
    assert entrants.first.inner_text().startswith("1")  # start ranks by rating

    # The arbiter invites one player; the link to choose a password goes by email.
    entrants.filter(has_text=INVITED).get_by_role("link", name="invite").click()
    arbiter.fill("#id_email", "eva@example.org")
    arbiter.get_by_role("button", name="Invite").click()
    arbiter.wait_for_load_state()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["eva@example.org"]
    link = re.search(r"https?://\S+", mail.outbox[0].body).group(0)

    # Round 1: five players, so a bye; a draw and a forfeit from the keyboard, one Enter.
    arbiter.goto(manage)
    pair_and_publish(arbiter, 1)
    games = list(Game.objects.filter(round__tournament=t, round__number=1).order_by("board"))
    played = [g for g in games if g.kind == Game.Kind.GAME]
    assert len(played) == 2 and any(g.kind == Game.Kind.BYE for g in games)
    arbiter.locator(f"#result-{played[0].board}").click()
    arbiter.keyboard.type("=")
    arbiter.keyboard.type("+")
    arbiter.keyboard.press("Enter")
    arbiter.get_by_text("2 results saved").wait_for()
    results = {g.board: g.result for g in Game.objects.filter(pk__in=[g.pk for g in played])}
    assert [results[g.board] for g in played] == ["draw", "first_forfeit_win"]

    # Rounds 2 and 3 from the console's own "pair next round".
    pair_and_publish(arbiter, 2)
    played = list(
        Game.objects.filter(round__tournament=t, round__number=2, kind=Game.Kind.GAME).order_by(
            "board"
        )
    )
    arbiter.locator(f"#result-{played[0].board}").click()
    arbiter.keyboard.type("1")
    arbiter.keyboard.type("0")
    arbiter.keyboard.press("Enter")
    arbiter.get_by_text("2 results saved").wait_for()

    pair_and_publish(arbiter, 3)
    eva = Registration.objects.get(tournament=t, player__name=INVITED).player
    game = (
        Game.objects.filter(round__tournament=t, round__number=3, kind=Game.Kind.GAME)
        .filter(Q(first=eva) | Q(second=eva))
        .first()
    )

    # The player: chooses a password from the email's link, logs in, sees the next game.
    player = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    player.goto(link)
    player.locator("input[name=new_password1]").fill(PASSWORD)
    player.locator("input[name=new_password2]").fill(PASSWORD)
    player.locator("form").get_by_role("button").last.click()
    player.wait_for_load_state()
    username = eva.user.username if eva.user_id else None
    assert username, "the invitation links an account to the player"
    log_in(player, base, username, PASSWORD, "/me/games/")
    player.goto(f"{base}/me/games/")
    no_sideways_scroll(player)
    nxt = player.locator("#next-pairing")
    assert "round 3" in nxt.inner_text()
    assert game is not None, "five entrants, Swiss: the lowest-rated has had the bye already"
    opponent = game.second if game.first_id == eva.pk else game.first
    assert opponent.name in nxt.inner_text()

    # … opens it, submits the record and signs it.
    nxt.get_by_role("link", name=re.compile("round 3")).click()
    player.fill("textarea[name=text]", record_for(game))
    player.click("form[action$='/submit/'] button[type=submit]")
    player.wait_for_selector("text=Valid: 31 plies.", timeout=60_000)
    no_sideways_scroll(player)
    player.click("#sign")
    player.wait_for_selector("#sign-status[data-result]", timeout=30_000)
    assert player.locator("#sign-status").get_attribute("data-result") == "signed"
    assert RecordSignature.objects.filter(submission__game=game, signer=eva.user).exists()
    # A combatant sees no arbiter's control on the game page.
    for control in ("#confirm", "#latecomers", "form[action$='/clock/']"):
        assert player.locator(control).count() == 0, control

    # The arbiter takes the result from the record and enters the other board.
    arbiter.goto(f"{base}/arbiter/t/{t.slug}/round/3/")
    row = arbiter.locator(f"#game-{game.board}")
    take = row.get_by_role("button", name="Result from the record")
    take.click()
    take.wait_for(state="detached")
    game.refresh_from_db()
    assert game.result == Game.Result.FIRST_WIN  # green, placed first, captures
    other = (
        Game.objects.filter(round__tournament=t, round__number=3, kind=Game.Kind.GAME)
        .exclude(pk=game.pk)
        .get()
    )
    arbiter.locator(f"#result-{other.board}").click()
    arbiter.keyboard.type("0")
    arbiter.keyboard.press("Enter")
    arbiter.get_by_text("1 result saved").wait_for()

    # Exports: TRF and CSV downloads carry the three rounds, the draw, the bye and the forfeit.
    arbiter.goto(manage)
    tab(arbiter, "Downloads")
    with arbiter.expect_download() as got:
        arbiter.locator("#download-links").get_by_role(
            "link", name=re.compile(r"^TRF \(FIDE")
        ).click()
    trf = Path(got.value.path()).read_text(encoding="utf-8")
    players = [line for line in trf.splitlines() if line.startswith("001")]
    assert len(players) == 5
    games_of = " | ".join(line[91:] for line in players)
    assert len(re.findall(r"\d+ [wb] =", games_of)) == 2, games_of  # the draw, both sides
    # The forfeit, both sides with their scheduled placement (FIDE's checker reads no other).
    assert len(re.findall(r"\d+ [wb] [+-]", games_of)) == 2, games_of
    assert len(re.findall(r"0000 - U", games_of)) == 3, games_of  # a bye each round
    with arbiter.expect_download() as got:
        arbiter.locator("#download-links").get_by_role("link", name="Crosstable, CSV").click()
    csv_text = Path(got.value.path()).read_text(encoding="utf-8")
    assert all(name.split(",")[0] in csv_text for name in ENTRANTS.strip().splitlines())

    # The public sees the final standings, with the invited player among them.
    visitor = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    visitor.goto(f"{base}/t/{t.slug}/standings/")
    assert visitor.locator("#standings tbody tr").count() == 5
    no_sideways_scroll(visitor)
