"""The arbiter's TRF import page (/arbiter/import/trf/): offered where events are created,
a preview that stores nothing (the scoring warning first and apart), a confirmation that
imports with the arbiter as organizer, a refused file shown with its line, nothing stored."""

from __future__ import annotations

import io
import re
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Game, Player, Registration, Round, Tournament
from tournaments.trf import read_trf
from tournaments.trf_export import tournament_trf

pytestmark = pytest.mark.django_db
User = get_user_model()
URL = "/arbiter/import/trf/"
FIXTURES = Path(__file__).parent / "trf_fixtures"
JAVAFO = (FIXTURES / "javafo_xxs.trf").read_text(encoding="utf-8")
SCORING = "this file scores a draw as +½ (XXS, line 6)"


def stored() -> tuple[int, int, int, int, int]:
    return (
        Tournament.objects.count(),
        Player.objects.count(),
        Registration.objects.count(),
        Round.objects.count(),
        Game.objects.count(),
    )


def upload(text: str) -> io.BytesIO:
    f = io.BytesIO(text.replace("\n", "\r\n").encode("utf-8"))  # as a Windows program saves
    f.name = "event.trf"
    return f


@pytest.fixture
def organizer():  # type: ignore[no-untyped-def]
    user = User.objects.create_user("org", password="pw-organizer-1")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.fixture
def client_in(organizer) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(organizer)
    return client


def hidden_text(html: str) -> str:
    """The file's text the preview carries to the confirmation, as a browser would send it."""
    found = re.search(r'<input type="hidden" name="text" value="([^"]*)">', html)
    assert found, "the preview carries no text"
    return (
        found.group(1)
        .replace("&#x27;", "'")
        .replace("&quot;", '"')
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
    )


def test_the_dashboard_offers_the_import_beside_a_new_tournament(client_in):
    html = client_in.get(reverse("arbiter:dashboard")).content.decode()
    assert 'id="trf-import-link"' in html and f'href="{URL}"' in html
    page = client_in.get(URL)
    assert page.status_code == 200 and 'type="file" name="file"' in page.content.decode()


def test_the_preview_stores_nothing_and_puts_the_scoring_warning_first(client_in):
    before = stored()
    resp = client_in.post(URL, {"file": upload(JAVAFO), "preview": "1"})
    assert resp.status_code == 200
    html = resp.content.decode()
    assert stored() == before
    scoring = re.search(r'<p class="warn" role="alert" id="trf-scoring">(.*?)</p>', html, re.S)
    assert scoring and SCORING in scoring.group(1), html
    assert '<td id="trf-players">6 (withdrawn: 1)</td>' in html
    assert '<td id="trf-rounds">2 played of 4</td>' in html
    assert '<td id="trf-games">6</td>' in html and '<td id="trf-byes">0</td>' in html
    assert 'id="trf-confirm-button"' in html
    # The scoring warning is shown once, apart, not again among the others.
    assert html.count(SCORING) == 1


def test_confirming_imports_with_the_arbiter_as_organizer(client_in, organizer):
    preview = client_in.post(URL, {"file": upload(JAVAFO), "preview": "1"})
    text = hidden_text(preview.content.decode())
    assert text == JAVAFO  # the line breaks as read, the text whole
    resp = client_in.post(URL, {"text": text, "confirm": "1"})
    t = Tournament.objects.get()
    assert resp.status_code == 302 and resp["Location"] == reverse("arbiter:manage", args=[t.slug])
    assert t.organizer == organizer and t.registrations.count() == 6 and t.rounds.count() == 2
    shown = [str(m) for m in get_messages(resp.wsgi_request)]
    assert any(SCORING in m for m in shown), shown


def test_a_refused_file_shows_its_line_and_stores_nothing(client_in):
    lines = JAVAFO.splitlines()
    lines[9] = lines[9].replace("   3 w +", "  99 w +")
    before = stored()
    for body in (
        {"file": upload("\n".join(lines)), "preview": "1"},
        {"text": "\n".join(lines), "confirm": "1"},
    ):
        resp = client_in.post(URL, body)
        assert resp.status_code == 400
        html = resp.content.decode()
        refusal = re.search(
            r'<p class="bad" role="alert" id="trf-refusal" data-line="10">(.*?)</p>', html, re.S
        )
        assert refusal and "line 10: " in refusal.group(1), html
        assert 'id="trf-confirm-button"' not in html
    assert stored() == before


def test_nothing_sent_is_refused_with_a_reason(client_in):
    resp = client_in.post(URL, {"preview": "1"})
    assert resp.status_code == 400 and "choose a TRF file to upload" in resp.content.decode()


@pytest.mark.parametrize(("who", "expected"), [("plain", 403), ("staff", 200)])
def test_who_may_open_the_page(who, expected):
    user = User.objects.create_user(who, password="pw-user-1234", is_staff=who == "staff")
    client = Client()
    assert client.get(URL).status_code == 302  # to the login
    client.force_login(user)
    assert client.get(URL).status_code == expected
    before = stored()
    resp = client.post(URL, {"text": JAVAFO, "confirm": "1"})
    assert resp.status_code == (403 if expected == 403 else 302)
    if expected == 403:
        assert stored() == before


def test_the_dashboards_trf_label_names_the_dialect_written(client_in, organizer):
    """An event made here exports TRF16; one imported from a TRF-2025 file, TRF-2025."""
    made = services.tournament_create(
        name="Made Here", slug="made-here", start_date=date(2026, 11, 1), organizer=organizer
    )
    services.registration_create(tournament=made, player=services.player_create(name="Ann"))
    text = (FIXTURES / "trf2025.trf").read_text(encoding="utf-8")
    client_in.post(URL, {"text": text, "confirm": "1"})
    imported = Tournament.objects.exclude(pk=made.pk).get()
    for t, dialect in ((made, "TRF16"), (imported, "TRF-2025")):
        html = client_in.get(reverse("arbiter:manage", args=[t.slug])).content.decode()
        assert f"download>TRF (FIDE {dialect})</a>" in html
        assert f"TRF (FIDE {'TRF-2025' if dialect == 'TRF16' else 'TRF16'})" not in html
        assert read_trf(tournament_trf(tournament=t)).dialect == dialect
