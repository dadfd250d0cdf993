"""The header's links: the arbiter's pages only for those who officiate, htmx and the
stylesheet from our static files on every page."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tournaments import services

pytestmark = pytest.mark.django_db
User = get_user_model()
ARBITER_LINK = 'href="/arbiter/">Arbiter</a>'


@pytest.fixture
def event():
    t = services.tournament_create(
        name="Club Night", slug="club-night", start_date=date(2026, 11, 20)
    )
    p = services.player_create(name="Ann", rating=1800)
    services.registration_create(tournament=t, player=p)
    return t


def header(client) -> str:
    return client.get("/").content.decode()


def test_visitors_and_players_see_no_arbiter_link(client, event):
    assert ARBITER_LINK not in header(client)
    player = User.objects.create_user("ann", password="pw-ann-12345")
    reg = event.registrations.get()
    reg.player.user = player
    reg.player.save(update_fields=["user"])
    client.force_login(player)
    page = header(client)
    assert "Log out" in page and ARBITER_LINK not in page


@pytest.mark.parametrize("role", ["arbiter", "chief", "organizer", "staff"])
def test_officials_see_the_arbiter_link(client, event, role):
    user = User.objects.create_user(role, password="pw-official-1", is_staff=role == "staff")
    if role == "arbiter":
        event.arbiters.add(user)
    elif role == "chief":
        event.chief_arbiter = user
        event.save(update_fields=["chief_arbiter"])
    elif role == "organizer":
        event.organizer = user
        event.save(update_fields=["organizer"])
    client.force_login(user)
    assert ARBITER_LINK in header(client)


def test_every_page_loads_our_stylesheet_and_htmx_and_no_inline_style(client, event):
    page = header(client)
    assert '/static/klinzha/site.css"' in page
    assert '/static/django_htmx/htmx-2.min.js"' in page
    assert "<style" not in page and "//cdn" not in page and "unpkg" not in page


def test_htmx_is_loaded_once_by_the_base_template():
    """A second copy of htmx would process every hx- attribute twice (two polls, two posts)."""
    templates = Path(__file__).resolve().parents[2] / "templates"
    loading = [
        p.relative_to(templates).as_posix()
        for p in templates.rglob("*.html")
        if "htmx_script" in p.read_text(encoding="utf-8")
        or "htmx-2" in p.read_text(encoding="utf-8")
    ]
    assert loading == ["base.html"]
