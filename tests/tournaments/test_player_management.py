"""Who manages a player and who may link their account (issue 22 items 1 and 2), through
the REST API and the pages: no take-over of another organizer's player, no loss of rights
by someone else's registration; registrations and requested byes in the event's trail."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from tournaments import services
from tournaments.audit import audit_verify
from tournaments.models import AuditEntry, Player

pytestmark = pytest.mark.django_db
User = get_user_model()


def organizer_make(name: str) -> Any:
    user = User.objects.create_user(name, password=f"pw-{name}-12345")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return User.objects.get(pk=user.pk)


def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def event_api(user: Any, slug: str) -> str:
    resp = api(user).post(
        "/api/tournaments/", {"name": slug, "slug": slug, "start_date": "2026-12-01"}
    )
    assert resp.status_code == 201, resp.content
    return f"/api/tournaments/{slug}"


def test_an_organizer_cannot_take_over_another_organizers_player_with_an_account():
    """Item 1: X's organizer made Kor and linked his account; Kor has no registration yet.
    Y's organizer re-links Kor to their own account and would sign as Kor: refused."""
    x_org, y_org = organizer_make("x-org"), organizer_make("y-org")
    event_api(x_org, "x-open")
    event_api(y_org, "y-open")
    resp = api(x_org).post("/api/players/", {"name": "Kor"})
    assert resp.status_code == 201
    kor = Player.objects.get(pk=resp.json()["id"])
    account = User.objects.create_user("kor", password="pw-kor-12345")
    kor.user = account
    kor.save(update_fields=["user"])

    resp = api(y_org).post(f"/api/players/{kor.pk}/account/", {"username": "y-org"})
    assert resp.status_code == 403
    assert Player.objects.get(pk=kor.pk).user == account
    # Nor unlink him; nor may his own organizer re-link him while he has an account.
    assert api(y_org).post(f"/api/players/{kor.pk}/account/", {"username": ""}).status_code == 403
    resp = api(x_org).post(f"/api/players/{kor.pk}/account/", {"username": "x-org"})
    assert resp.status_code == 403 and "only staff" in resp.json()["detail"]
    assert Player.objects.get(pk=kor.pk).user == account
    # The player may unlink themself, and the site's chain records it.
    assert api(account).post(f"/api/players/{kor.pk}/account/", {"username": ""}).status_code
    assert Player.objects.get(pk=kor.pk).user is None
    (entry,) = AuditEntry.objects.filter(tournament=None, action="player_account")
    assert (entry.actor, entry.before) == ("kor", {"account": "kor"})
    assert entry.after == {"account": None}
    assert audit_verify(tournament=None) == (True, 1, "")
    # A player in no event: not even his organizer links him now; staff may.
    resp = api(x_org).post(f"/api/players/{kor.pk}/account/", {"username": "kor"})
    assert resp.status_code == 403
    staff = User.objects.create_user("boss", password="pw-boss-12345", is_staff=True)
    assert api(staff).post(f"/api/players/{kor.pk}/account/", {"username": "kor"}).status_code
    assert Player.objects.get(pk=kor.pk).user == account


def test_registering_a_player_into_your_event_neither_gives_nor_takes_the_right_to_link():
    """Item 2: an arbiter (not organizer) of Y registers X's player into Y; X's organizer
    still links and invites them, Y's officials do not."""
    x_org, y_org = organizer_make("x-org"), organizer_make("y-org")
    x = event_api(x_org, "x-open")
    y = event_api(y_org, "y-open")
    y_arbiter = User.objects.create_user("y-arb", password="pw-y-arb-12345")
    resp = api(y_org).post(y + "/officials/", {"arbiters": ["y-arb"]}, format="json")
    assert resp.status_code == 200, resp.content
    kor = Player.objects.get(pk=api(x_org).post("/api/players/", {"name": "Kor"}).json()["id"])
    bel = Player.objects.get(pk=api(x_org).post("/api/players/", {"name": "Bel"}).json()["id"])
    for p in (kor, bel):
        assert api(x_org).post(x + "/registrations/", {"player": p.pk}).status_code == 201
        assert api(y_arbiter).post(y + "/registrations/", {"player": p.pk}).status_code == 201

    account = User.objects.create_user("kor", password="pw-kor-12345")
    for user in (y_arbiter, y_org):
        resp = api(user).post(f"/api/players/{kor.pk}/account/", {"username": "kor"})
        assert resp.status_code == 403
    resp = api(x_org).post(f"/api/players/{kor.pk}/account/", {"username": "kor"})
    assert resp.status_code == 200, resp.content
    assert Player.objects.get(pk=kor.pk).user == account
    # the link is in both events' trails and the site's chain
    assert AuditEntry.objects.filter(action="player_account").count() == 3

    # the invitation page follows the same rule
    web = APIClient()
    web.force_login(y_org)
    assert web.post(f"/accounts/invite/{bel.pk}/", {"email": "b@example.org"}).status_code == 403
    web.force_login(x_org)
    resp = web.post(f"/accounts/invite/{bel.pk}/", {"email": "b@example.org"})
    assert resp.status_code == 302
    assert Player.objects.get(pk=bel.pk).user.email == "b@example.org"
    invited = AuditEntry.objects.get(tournament=None, action="player_invited")
    assert invited.actor == "x-org" and invited.after["player"] == "Bel"


def test_registrations_late_entries_and_byes_are_in_the_trail_and_on_the_audit_page(client):
    org = organizer_make("org")
    t = services.tournament_create(
        name="Open", slug="open", start_date=date(2026, 12, 1), organizer=org, rounds_planned=5
    )
    players = [services.player_create(name=n, user=org) for n in ("Ann", "Bob", "Cid")]
    ann, bob, cid = players
    base = "/api/tournaments/open"
    for p in (ann, bob):
        assert api(org).post(base + "/registrations/", {"player": p.pk}).status_code == 201
    assert api(org).post(base + "/bye-requests/", {"player": ann.pk, "round": 3}).status_code
    resp = api(org).post(base + "/bye-requests/cancel/", {"player": ann.pk, "round": 3})
    assert resp.status_code == 200, resp.content
    assert api(org).post(base + "/pair/", {}).status_code in (200, 201)
    assert api(org).post(base + "/registrations/", {"player": cid.pk}).status_code == 201
    entries = list(AuditEntry.objects.filter(tournament=t).order_by("seq"))
    actions = [e.action for e in entries]
    assert actions[:4] == ["registration", "registration", "bye_request", "bye_request_cancelled"]
    assert actions[-1] == "late_entry"
    assert entries[0].actor == "org" and entries[0].after["player"] == "Ann"
    assert entries[-1].after["first_round"] == 2
    assert audit_verify(tournament=t)[0]
    client.force_login(org)
    page = client.get("/arbiter/t/open/audit/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for label in ("registration", "late entry", "bye requested", "requested bye cancelled"):
        assert label in page, label
