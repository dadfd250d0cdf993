"""Issue 24 in a real browser: an organizer imports a TRF file from the arbiter's pages,
previews it (the scoring warning shown apart, nothing stored), imports it on confirmation
(the file's text carried whole through the preview's form), and a refused file shows its
line; no Content-Security-Policy violation on the way."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tournaments.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
FIXTURES = Path(__file__).resolve().parents[1] / "tournaments" / "trf_fixtures"


def test_an_organizer_previews_then_imports_a_trf_file(live_server, browser_page, tmp_path):
    user = get_user_model().objects.create_user("importer", password="pw-importer-1")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    page, base = browser_page, live_server.url
    violations: list[str] = []
    page.on(
        "console",
        lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.goto(f"{base}/arbiter/")
    page.fill("#id_username", "importer")
    page.fill("#id_password", "pw-importer-1")
    page.get_by_role("button", name="Log in").click()
    page.locator("#trf-import-link").click()

    # A refused file: its line shown, nothing stored.
    text = (FIXTURES / "javafo_xxs.trf").read_text(encoding="utf-8")
    lines = text.splitlines()
    lines[9] = lines[9].replace("   3 w +", "  99 w +")
    bad = tmp_path / "bad.trf"
    bad.write_text("\r\n".join(lines), encoding="utf-8")
    page.set_input_files("#id_file", str(bad))
    page.get_by_role("button", name="Preview").click()
    assert "line 10: " in page.locator("#trf-refusal").inner_text()
    assert not Tournament.objects.exists()

    # The file as it is: previewed, nothing stored, then imported.
    page.set_input_files("#id_file", str(FIXTURES / "javafo_xxs.trf"))
    page.get_by_role("button", name="Preview").click()
    assert "scores a draw as +½" in page.locator("#trf-scoring").inner_text()
    assert page.locator("#trf-players").inner_text() == "6 (withdrawn: 1)"
    assert not Tournament.objects.exists()
    page.locator("#trf-confirm-button").click()
    page.wait_for_url("**/arbiter/t/club-championship/")
    t = Tournament.objects.get()
    assert t.organizer_id == user.pk and t.rounds.count() == 2
    assert t.registrations.count() == 6
    assert violations == []
