"""Event day from a player's phone (issue 26): signed in at 390 px, the player checks in from
"My games", asks for a bye in a later round from "My events" and sees it asked; the arbiter, in
a second browser at 1366 px, confirms it on the desk; the player's page then shows it
confirmed. axe finds nothing serious on the player's pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.e2e.screenshots import screenshot
from tests.e2e.test_accessibility import severe_violations
from tests.e2e.test_journey import chromium, log_in  # noqa: F401  (the shared browser)
from tests.tournaments.services.factories import event_make, officials_make
from tournaments import services
from tournaments.models import ByeRequest, CheckIn

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1366, "height": 768}
PASSWORD = "Qapla'-player-2026!"


@pytest.fixture
def event_day():
    """Four entrants, round 1 not paired yet, its check-in open; Ann has an account."""
    officials = officials_make()
    t, players = event_make(officials, slug="event-day-e2e")
    now = timezone.now()
    services.check_in_window_set(
        tournament=t,
        round_number=1,
        opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(hours=1),
        user=officials.arbiter,
    )
    account = get_user_model().objects.create_user("ann", password=PASSWORD)
    services.player_link_user(player=players[0], account=account, user=officials.organizer)
    return t, players[0], officials


def test_a_player_checks_in_and_asks_for_a_bye_the_arbiter_confirms(
    live_server,
    chromium,  # noqa: F811
    event_day,
):
    t, ann, officials = event_day
    base = live_server.url
    player = chromium.new_context(viewport=PHONE).new_page()
    log_in(player, base, "ann", PASSWORD, "/me/games/")
    player.goto(f"{base}/me/games/")
    check_ins = player.locator("#check-ins")
    assert "check in before" in check_ins.inner_text()
    assert severe_violations(player) == []

    check_ins.get_by_role("link", name=t.name).click()
    player.wait_for_url(f"**/t/{t.slug}/check-in/")
    assert "Ann" in player.locator("h2").inner_text()
    assert severe_violations(player) == []
    player.get_by_role("button", name="Check in").click()
    assert player.locator("#checked-in").is_visible()
    check_in = CheckIn.objects.get(registration__player=ann, round_number=1)
    assert check_in.present

    player.goto(f"{base}/me/games/")
    assert "you are checked in" in player.locator("#check-ins").inner_text()
    mine = player.locator("#my-events")
    mine.get_by_label("Ask for a bye in round").select_option("3")
    mine.get_by_role("button", name="Ask", exact=True).click()
    player.wait_for_url("**/me/games/#my-events")
    asked = player.locator("#my-events").get_by_text("bye in round 3 asked, not yet confirmed")
    assert asked.is_visible()
    assert not ByeRequest.objects.get(registration__player=ann, round_number=3).confirmed
    assert severe_violations(player) == []
    screenshot(player, "my-games-bye-asked-390")

    desk = chromium.new_context(viewport=DESK).new_page()
    log_in(desk, base, "arbiter", "pw-arbiter-12345", f"/arbiter/t/{t.slug}/")
    desk.goto(f"{base}/arbiter/t/{t.slug}/#entrants")
    row = desk.locator("tr", has_text=ann.name)
    confirm = row.get_by_role("button", name="Confirm the bye asked for round 3")
    assert confirm.is_visible()
    screenshot(desk, "desk-bye-asked-1366")
    confirm.click()
    desk.wait_for_load_state()
    assert row.get_by_role("button", name="Confirm the bye asked for round 3").count() == 0
    assert "bye requested for round 3" in desk.locator("tr", has_text=ann.name).inner_text()

    player.reload()
    events = player.locator("#my-events")
    assert events.get_by_text("bye in round 3, confirmed").is_visible()
    assert events.get_by_text("not yet confirmed").count() == 0
    assert ByeRequest.objects.get(registration__player=ann, round_number=3).confirmed
    assert severe_violations(player) == []
    screenshot(player, "my-games-bye-confirmed-390")
