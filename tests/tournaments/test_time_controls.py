"""Issue 26 item 1: time controls written as people write them in the arbiter's form ("90+30"
is 90 minutes plus 30 seconds a move), stored and served in the record format (seconds),
printed in words on every page, with a display field beside the API's."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.utils import translation
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Tournament
from tournaments.time_controls import (
    PRESETS,
    time_control_parse_written,
    time_control_words,
    time_control_written,
)

User = get_user_model()


@pytest.mark.parametrize(
    ("written", "stored"),
    [
        ("90+30", "5400+30"),
        ("90 + 30", "5400+30"),
        ("40/120, 30", "40/7200:1800"),
        ("40/120: 30", "40/7200:1800"),
        ("20/30, 20", "20/1800:1200"),
        ("20", "1200"),
        ("1h30+30", "5400+30"),
        ("90'+30\"", "5400+30"),
        ("5400s+30", "5400+30"),
        ("40/90+30, 30+30", "40/5400+30:1800+30"),
        ("", ""),
    ],
)
def test_the_usual_written_forms_are_read_in_minutes(written, stored):
    assert time_control_parse_written(written) == stored


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ("20/1800:1200", "1800s"),  # the record format pasted: said, not read as 30 hours
        ("banana", r"90\+30"),
        ("0", "no time"),
        ("40/", "cannot read"),
    ],
)
def test_what_cannot_be_read_is_refused_in_words(bad, says):
    with pytest.raises(ValueError, match=says):
        time_control_parse_written(bad)


def test_a_stored_value_is_written_back_the_way_it_reads():
    for preset in PRESETS:
        assert time_control_parse_written(time_control_written(preset.value)) == preset.value
    assert time_control_written("20/1800:1200") == "20/30, 20"
    assert time_control_written("5400+30") == "90+30"


def test_words_in_the_active_language():
    assert time_control_words("20/1800:1200") == ("20 moves in 30 min, then all moves in 20 min")
    assert time_control_words("5400+30") == "all moves in 90 min + 30 s a move"
    assert time_control_words("") == ""
    with translation.override("it"):
        assert "20/1800" not in time_control_words("20/1800:1200")


@pytest.fixture
def organizer(db):
    user = User.objects.create_user("org", password="pw-organizer-1")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


FORM = {
    "name": "Autumn Open",
    "slug": "autumn",
    "start_date": "2026-11-28",
    "ruleset": "laws",
    "pairing_system": "swiss",
    "rounds_planned": 5,
    "forfeit_win_points": "1",
    "forfeit_loss_points": "0",
    "bye_points": "1",
    "requested_bye_points": "0",
    "tiebreaks": "buchholz,wins",
    "placement_order": "balanced",
    "accelerated_rounds": 0,
}


def test_the_form_reads_90_plus_30_as_minutes_and_stores_seconds(client, organizer):
    client.force_login(organizer)
    page = client.get("/arbiter/new/").content.decode()
    assert 'list="id_time_control-presets"' in page and 'value="90+30"' in page
    assert 'hx-get="/arbiter/time-control/"' in page and "<script>" not in page
    resp = client.post("/arbiter/new/", {**FORM, "time_control": "90+30"})
    assert resp.status_code == 302, resp.content.decode()[:3000]
    t = Tournament.objects.get(slug="autumn")
    assert t.time_control == "5400+30"
    # The settings form shows it written back as typed, and saving it written another way
    # does not change it (the trail's settings entry does not name it).
    page = client.get(f"/arbiter/t/{t.slug}/").content.decode()
    assert 'name="time_control" value="90+30"' in page
    assert "all moves in 90 min + 30 s a move" in page
    client.post(f"/arbiter/t/{t.slug}/settings/", {**FORM, "time_control": "90 + 30"})
    assert not any("time_control" in (e.after or {}) for e in t.audit.all())
    client.post(f"/arbiter/t/{t.slug}/settings/", {**FORM, "time_control": "40/120, 30"})
    t.refresh_from_db()
    assert t.time_control == "40/7200:1800"


def test_the_form_refuses_the_record_format_with_a_hint(client, organizer):
    client.force_login(organizer)
    resp = client.post("/arbiter/new/", {**FORM, "time_control": "20/1800:1200"})
    assert resp.status_code == 400 and "1800s" in resp.content.decode()
    assert not Tournament.objects.exists()


def test_the_preview_reads_as_it_will_be_stored(client, organizer):
    client.force_login(organizer)
    resp = client.get("/arbiter/time-control/", {"time_control": "40/120, 30"})
    body = resp.content.decode()
    assert resp.status_code == 200
    assert "40 moves in 120 min, then all moves in 30 min" in body and "40/7200:1800" in body
    bad = client.get("/arbiter/time-control/", {"time_control": "x", "id": "<b>"})
    assert 'class="bad"' in bad.content.decode() and "<b>" not in bad.content.decode()


@pytest.mark.django_db
def test_the_public_page_and_the_api_print_it_in_words(client):
    t = services.tournament_create(
        name="Coppa", slug="coppa", start_date=date(2026, 11, 20), time_control="20/1800:1200"
    )
    page = client.get(f"/t/{t.slug}/").content.decode()
    assert "20 moves in 30 min, then all moves in 20 min" in page and "20/1800:1200" not in page
    body = APIClient().get(f"/api/tournaments/{t.slug}/").json()
    assert body["time_control"] == "20/1800:1200"
    assert body["time_control_display"] == "20 moves in 30 min, then all moves in 20 min"
