"""Hosts (issue 22 item 6): a Host outside ALLOWED_HOSTS is a 400 on the published pages'
fast path too, and every link in every mail goes to KZ_SITE_URL, whatever Host the request
that sent it named."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import Player

pytestmark = pytest.mark.django_db
SITE = "https://kz.example.org"
URL = re.compile(r"https?://\S+")


def _warm(client: Client, path: str) -> None:
    """The page through the whole stack (stored for the fast path), then from the fast path:
    one query, the validator's."""
    assert client.get(path).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    # On PostgreSQL the prepared validator bypasses Django's cursor: nothing is logged.
    assert len(queries.captured_queries) <= 1, [q["sql"] for q in queries.captured_queries]


@pytest.mark.django_db(transaction=True)
def test_a_forged_host_is_refused_by_the_fast_path_too():
    t, (a, b) = event_make(officials_make(), slug="hosts", names=("Ann", "Bob"))
    round_make(t, [(a, b)])
    client = Client()
    for path in (f"/t/{t.slug}/standings/", f"/p/{a.pk}/", f"/api/tournaments/{t.slug}/rounds/"):
        _warm(client, path)
        forged = client.get(path, HTTP_HOST="attacker.example")
        assert forged.status_code == 400, path
        assert b"Ann" not in forged.content
        # The fast path still answers the site's own host.
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200
        assert len(queries.captured_queries) <= 1


def _links(body: str) -> list[str]:
    found = URL.findall(body)
    assert found, body
    return found


def test_an_invitation_asked_for_under_a_forged_host_links_to_the_site(
    client, settings, mailoutbox, django_capture_on_commit_callbacks
):
    """Even where ALLOWED_HOSTS lets any Host through (a proxy that checks it itself)."""
    settings.ALLOWED_HOSTS = ["*"]
    settings.KZ_SITE_URL = SITE + "/"
    officials = officials_make()
    t, (ann,) = event_make(officials, slug="invite-host", names=("Ann",))
    client.force_login(officials.organizer)
    with django_capture_on_commit_callbacks(execute=True):
        resp = client.post(
            f"/accounts/invite/{ann.pk}/",
            {"email": "ann@example.org"},
            HTTP_HOST="attacker.example",
        )
    assert resp.status_code == 302
    (mail,) = mailoutbox
    for link in _links(mail.body):
        assert link.startswith(SITE + "/accounts/reset/"), mail.body
    assert "attacker" not in mail.body


def test_a_password_reset_asked_for_under_a_forged_host_links_to_the_site(
    client, settings, mailoutbox, django_user_model
):
    settings.ALLOWED_HOSTS = ["*"]
    settings.KZ_SITE_URL = SITE
    django_user_model.objects.create_user("kor", email="kor@example.org", password="pw-kor-4567")
    resp = client.post(
        "/accounts/password-reset/",
        {"email": "kor@example.org"},
        HTTP_HOST="attacker.example",
        secure=False,
    )
    assert resp.status_code == 302
    (mail,) = mailoutbox
    for link in _links(mail.body):
        assert link.startswith(SITE + "/accounts/reset/"), mail.body
    assert "attacker" not in mail.body + mail.subject
    # The link works on the site.
    path = _links(mail.body)[0].removeprefix(SITE)
    page = client.get(path, follow=True)
    assert b"Choose your password" in page.content


def test_the_notices_link_to_the_site(settings, mailoutbox, django_capture_on_commit_callbacks):
    """A pairing, a result to confirm and a penalty: every link under KZ_SITE_URL."""
    settings.KZ_SITE_URL = SITE
    officials = officials_make()
    t, players = event_make(officials, slug="notices", names=("Ann", "Bob"))
    t.result_confirmation = True
    t.save()
    for p in players:
        p.user = type(officials.chief).objects.create_user(
            p.name.lower(), email=f"{p.name.lower()}@example.org"
        )
        p.save(update_fields=["user"])
    ids = [p.pk for p in players]
    with django_capture_on_commit_callbacks(execute=True):
        rnd = services.round_create(tournament=t, pairings=[(ids[0], ids[1])])
    with django_capture_on_commit_callbacks(execute=True):
        services.game_result_set(game=rnd.games.get(), result="first_win", user=officials.arbiter)
    with django_capture_on_commit_callbacks(execute=True):
        services.penalty_impose(
            tournament=t,
            player=Player.objects.get(pk=ids[0]),
            kind="warning",
            reason="noise",
            user=officials.chief,
        )
    subjects = " ".join(m.subject for m in mailoutbox)
    assert "is paired" in subjects and "to confirm" in subjects and "a penalty" in subjects
    for mail in mailoutbox:
        for link in _links(mail.body):
            assert link.startswith(SITE + "/"), mail.body
