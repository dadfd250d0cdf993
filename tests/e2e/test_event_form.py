"""The arbiter creates an event through the guided form: the essentials first, the other
settings folded under Rules, Scoring, Pairing and Withdrawals with their Articles; the
tie-breaks picked in order and the variants ticked."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.e2e.screenshots import screenshot
from tests.e2e.test_accessibility import severe_violations
from tests.e2e.test_responsive import log_in, page_width
from tournaments.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "an-organizer-pass-2026"


@pytest.fixture
def base(live_server):
    get_user_model().objects.create_user("organizer", password=PASSWORD, is_staff=True)
    return live_server.url


def test_an_event_made_with_the_guided_form_and_two_groups_opened(base, browser_page):
    page = browser_page
    page.set_viewport_size({"width": 1366, "height": 768})
    log_in(page, base, "organizer", PASSWORD)
    page.goto(f"{base}/arbiter/new/")
    # the guided part in view, the groups folded
    for field in ("name", "start_date", "ruleset", "pairing_system", "rounds_planned"):
        assert page.locator(f"#id_{field}").is_visible(), field
    assert page.locator("#id_time_control").is_visible()
    for group in ("rules", "scoring", "pairing", "withdrawals"):
        assert page.locator(f"#settings-{group} > summary").is_visible(), group
    assert not page.locator("#id_bye_points").is_visible()
    page.fill("#id_name", "Guided Open")
    page.fill("#id_start_date", "2026-12-12")
    page.fill("#id_end_date", "2026-12-13")
    page.select_option("#id_ruleset", "laws")
    page.select_option("#id_pairing_system", "swiss")
    page.fill("#id_rounds_planned", "5")
    page.fill("#id_time_control", "90+30")
    page.locator("#id_time_control-preview code").get_by_text("5400+30").wait_for()
    # Scoring: the tie-breaks picked in order, each place a list by FIDE code
    page.locator("#settings-scoring > summary").click()
    assert page.locator("#id_bye_points").is_visible()
    assert "Art. 10.1" in page.locator("#setting-bye_points .article").inner_text()
    assert page.locator("#setting-tiebreaks .article").inner_text() == "FIDE C.07"
    page.select_option("#id_tiebreaks_0", "WON")
    page.select_option("#id_tiebreaks_1", "BH")
    page.select_option("#id_tiebreaks_2", "")
    # Rules: a variant ticked, not typed
    page.locator("#settings-rules > summary").click()
    page.get_by_label("Ablative (Art. 13.6)").check()
    page.fill("#id_ablation_limit", "3")
    assert page.locator("#setting-ablation_limit .article").inner_text() == "Art. 13.6"
    assert not severe_violations(page)
    page.locator("#id_name").scroll_into_view_if_needed()
    screenshot(page, "event-form-1366")
    page.get_by_role("button", name="Create").click()
    page.get_by_role("heading", name="Guided Open").wait_for()
    t = Tournament.objects.get()
    assert (t.slug, t.rounds_planned, t.time_control) == ("guided-open", 5, "5400+30")
    assert t.tiebreaks == "WON,BH" and t.variants == "ablative" and t.ablation_limit == 3
    assert t.bye_points == 1 and t.withdrawal_results == Tournament().withdrawal_results


def test_the_guided_form_alone_fits_a_phone_and_opens_the_group_with_an_error(base, browser_page):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, base, "organizer", PASSWORD)
    page.goto(f"{base}/arbiter/new/")
    scroll, inner = page_width(page)
    assert scroll <= inner
    page.fill("#id_name", "Phone Cup")
    page.fill("#id_start_date", "2026-12-12")
    page.fill("#id_time_control", "20")
    screenshot(page, "event-form-390")
    page.locator("#settings-scoring > summary").click()
    page.fill("#id_bye_points", "-3")
    page.locator("#settings-scoring > summary").click()  # folded again
    page.get_by_role("button", name="Create").click()
    page.locator("#form-errors").wait_for()
    assert not Tournament.objects.exists()
    # the group holding the error comes back open, the field in view; the others folded
    assert page.locator("#id_bye_points").is_visible()
    assert not page.locator("#id_late_entry_points").is_visible()
    assert page_width(page)[0] <= 390
    assert not severe_violations(page)
    page.fill("#id_bye_points", "")  # blank: the default
    page.get_by_role("button", name="Create").click()
    page.get_by_role("heading", name="Phone Cup").wait_for()
    assert Tournament.objects.get().bye_points == Tournament().bye_points
