"""Every page works under the Content-Security-Policy (issue 22 item 8): the public pages, the
arbiter's console (its live refresh too), the game page (the board viewer, the signature
check in verify.js) and the API docs, with no violation reported and no console error."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.signing import generate_key, sign_record
from tests.games.conftest import CAPTURE, done
from tournaments import services as tournament_services
from tournaments.demo import PLAYER_LOGIN, demo_load
from tournaments.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
User = get_user_model()

# Counted by the page itself: the browser's own report of every refused script, style,
# worker, image or eval.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " "
    + e.sourceFile + ":" + e.lineNumber);
});
"""


# The one refusal that is the policy at work, not a page broken by it: Redoc's footer asks
# Redocly's CDN for its logo (an <img> it removes when refused), and the docs load nothing
# from another site.
EXPECTED = ("https://cdn.redoc.ly/redoc/logo-mini.svg",)


class Watch:
    """The console's errors and the page's CSP violations, page by page."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.add_init_script(WATCH)
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"{self.page.url}: {message.text}")

    def check(self) -> None:
        found = self.page.evaluate("window.__violations || []")
        found = [v for v in found if not any(url in v for url in EXPECTED)]
        errors = [e for e in self.errors if not any(url in e for url in EXPECTED)]
        assert found == [] and errors == [], (self.page.url, found, errors)
        self.errors.clear()


def test_every_page_works_under_the_policy(live_server, browser_page, worker):
    tournament, login, password, _ = demo_load(rounds_played=1)
    game = Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME).first()
    assert game is not None and game.second is not None
    sub = done(services.submission_create(game=game, raw=CAPTURE, user=None))
    for player, name in ((game.first, "green-player"), (game.second, "gold-player")):
        if player.user is None:
            player.user = User.objects.create_user(name, password=f"pw-{name}-123")
            player.save()
        pem, pub = generate_key()
        services.signing_key_register(user=player.user, public_key=pub)
        services.signature_add(
            submission=sub,
            user=player.user,
            public_key=pub,
            signature=sign_record(sub.text, pem).signature,
        )
    page, base = browser_page, live_server.url
    watch = Watch(page)
    slug = tournament.slug

    for path in (
        "/",
        f"/t/{slug}/",
        f"/t/{slug}/standings/",
        f"/t/{slug}/crosstable/",
        f"/t/{slug}/round/1/",
        f"/p/{game.first_id}/",
        "/it/",
        "/accounts/password-reset/",
    ):
        response = page.goto(base + path)
        assert response is not None and response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        watch.check()

    # The game page: the board's SVG styled by site.css (its own <style> dropped), the
    # signatures checked in the browser.
    page.goto(f"{base}/g/{game.pk}/")
    page.wait_for_selector("#signatures[data-checked='2']", timeout=30_000)
    page.wait_for_selector("#board svg .sq")
    stroke = page.evaluate("getComputedStyle(document.querySelector('#board svg .sq')).stroke")
    assert stroke == "rgb(85, 85, 85)"
    colour = page.evaluate(
        "getComputedStyle(document.querySelector('.sig-check[data-verified=valid]')).color"
    )
    assert colour == "rgb(0, 128, 0)"
    page.locator("#prev").click()
    # (Playwright's wait_for_function evaluates a string, which the policy refuses.)
    page.locator("#moves li.current").wait_for()
    watch.check()

    # The API docs: Swagger UI and Redoc draw the schema.
    page.goto(f"{base}/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title", timeout=30_000)
    page.wait_for_selector(".opblock", timeout=30_000)
    watch.check()
    page.goto(f"{base}/api/redoc/")
    page.wait_for_selector(".api-content h2", timeout=30_000)
    search = page.locator("[role=search] input")
    if search.count():
        search.fill("standings")
        page.wait_for_timeout(1_000)
    watch.check()

    # The arbiter's console: log in, open the round, see a result arrive by the live refresh.
    page.goto(f"{base}/arbiter/")
    page.fill("#id_username", login)
    page.fill("#id_password", password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/arbiter/")
    watch.check()
    page.goto(f"{base}/arbiter/t/{slug}/")
    watch.check()
    page.goto(f"{base}/arbiter/t/{slug}/round/1/")
    page.locator("#games").wait_for()
    other = Game.objects.filter(round=game.round, kind=Game.Kind.GAME).exclude(pk=game.pk).first()
    assert other is not None
    result, label = (
        (Game.Result.FIRST_WIN, "First placer wins")
        if other.result == Game.Result.DRAW
        else (Game.Result.DRAW, "Draw")
    )
    page.locator("h1").first.click()  # out of the grid: the refresh runs
    tournament_services.game_result_set(game=other, result=result)
    page.locator(f"#game-{other.board} td.result", has_text=label).wait_for(timeout=15_000)
    watch.check()

    # A player's own page.
    page.context.clear_cookies()
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", PLAYER_LOGIN[0])
    page.fill("#id_password", PLAYER_LOGIN[1])
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/me/games/")
    watch.check()
