"""An arbiter submits a record in the browser, waits for the verdict, steps through the
viewer with the keyboard and buttons, and signs the record with WebCrypto."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import RecordSignature
from tournaments.demo import demo_load
from tournaments.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
RECORD = (
    Path(__file__).resolve().parents[1] / "rules" / "records" / "example1-laws-capture.kzr"
).read_text(encoding="utf-8")


def test_submit_view_and_sign(live_server, browser_page, worker):
    tournament, login, password, _ = demo_load(rounds_played=1)
    game = Game.objects.filter(round__tournament=tournament).first()
    page = browser_page
    page.goto(f"{live_server.url}/admin/login/?next=/g/{game.pk}/")
    page.fill("#id_username", login)
    page.fill("#id_password", password)
    page.click("input[type=submit]")
    page.wait_for_url(f"**/g/{game.pk}/")
    page.fill("textarea[name=text]", RECORD)
    page.click("form[action$='/submit/'] button[type=submit]")
    page.wait_for_selector("text=Valid: 31 plies.", timeout=60_000)
    assert page.locator("text=The moves decide: capture, green wins.").count() == 1

    label = page.locator("#ply-label")
    expect(page.locator("#ply-label")).to_have_text("31 / 31")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#ply-label")).to_have_text("30 / 31")
    page.click("#first")
    expect(page.locator("#ply-label")).to_have_text("0 / 31")
    assert page.locator("#board svg polygon.sq").count() == 81
    assert page.locator("#board svg g.piece").count() == 0
    page.keyboard.press("End")
    expect(page.locator("#ply-label")).to_have_text("31 / 31")
    assert page.locator("#board svg g.piece").count() > 0
    assert label.inner_text() == "31 / 31"

    page.click("#sign")
    page.wait_for_selector("#sign-status[data-result]", timeout=30_000)
    assert page.locator("#sign-status").get_attribute("data-result") == "signed", page.locator(
        "#sign-status"
    ).inner_text()
    sig = RecordSignature.objects.get(submission__game=game)
    assert sig.role == "arbiter" and sig.signer == get_user_model().objects.get(username=login)
