"""Players' accounts (issue 15): an official invites a player by email, the player sets a
password from the link and logs in; forgotten passwords through Django's reset; the demo's
printed login works where it points."""

from __future__ import annotations

import io
import re
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command

from tournaments import services
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db
User = get_user_model()
LINK = re.compile(r"https?://[^/\s]+(/\S*/accounts/reset/\S+/|/accounts/reset/\S+/)")


@pytest.fixture
def event():
    organizer = User.objects.create_user("org", password="pw-org-12345")
    organizer.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    t = services.tournament_create(
        name="Club Night", slug="club-night", start_date=date(2026, 11, 20), organizer=organizer
    )
    p = services.player_create(name="Ann Smith", rating=1800, user=organizer)
    services.registration_create(tournament=t, player=p)
    return t, p, organizer


def invite(client, player, email="ann@example.org"):
    return client.post(f"/accounts/invite/{player.pk}/", {"email": email})


def login(client, username, password):
    return client.post("/accounts/login/", {"username": username, "password": password})


def link_in(message) -> str:
    found = LINK.search(message.body)
    assert found, message.body
    return found.group(1)


def test_the_organizer_invites_and_the_player_sets_a_password_and_logs_in(
    client, event, mailoutbox, django_capture_on_commit_callbacks
):
    t, player, organizer = event
    client.force_login(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        resp = invite(client, player)
    assert resp.status_code == 302
    player.refresh_from_db()
    account = player.user
    assert account is not None and account.email == "ann@example.org"
    assert not account.has_usable_password()
    assert AuditEntry.objects.filter(tournament=t, action="player_account").exists()
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["ann@example.org"]
    assert account.get_username() in mailoutbox[0].body
    path = link_in(mailoutbox[0])

    client.logout()
    page = client.get(path, follow=True)
    assert page.status_code == 200 and b"Choose your password" in page.content
    set_url = page.redirect_chain[-1][0] if page.redirect_chain else path
    done = client.post(
        set_url,
        {"new_password1": "klin-zha-warrior-77", "new_password2": "klin-zha-warrior-77"},
    )
    assert done.status_code == 302
    # The link works once.
    again = client.get(path, follow=True)
    assert b"does not work any more" in again.content

    resp = login(client, account.get_username(), "klin-zha-warrior-77")
    assert resp.status_code == 302
    mine = client.get("/me/games/")
    assert mine.status_code == 200
    body = mine.content.decode()
    assert "Ann Smith" in body and 'href="/me/games/">My games</a>' in body


@pytest.mark.parametrize("who", ["arbiter", "chief", "other-organizer", "nobody"])
def test_others_may_not_invite(client, event, who):
    t, player, _ = event
    user = User.objects.create_user(who, password="pw-someone-1")
    if who == "arbiter":
        t.arbiters.add(user)
    elif who == "chief":
        t.chief_arbiter = user
        t.save(update_fields=["chief_arbiter"])
    elif who == "other-organizer":
        user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    resp = invite(client, player)
    assert resp.status_code == 403
    assert b"<header>" in resp.content and b'id="back"' in resp.content
    assert client.get(f"/accounts/invite/{player.pk}/").status_code == 403
    player.refresh_from_db()
    assert player.user_id is None and not User.objects.filter(email="ann@example.org").exists()


def test_a_visitor_is_sent_to_the_login(client, event):
    _, player, _ = event
    resp = invite(client, player)
    assert resp.status_code == 302 and "/accounts/login/" in resp["Location"]


def test_staff_invite_a_player_of_no_event(client, mailoutbox):
    staff = User.objects.create_user("boss", password="pw-boss-12345", is_staff=True)
    player = services.player_create(name="Loner")
    client.force_login(staff)
    assert invite(client, player, "loner@example.org").status_code == 302
    player.refresh_from_db()
    assert player.user is not None and player.user.email == "loner@example.org"


def test_a_player_with_an_account_is_refused_409(client, event):
    _, player, organizer = event
    player.user = User.objects.create_user("ann", email="a@example.org")
    player.save(update_fields=["user"])
    client.force_login(organizer)
    resp = invite(client, player, "other@example.org")
    assert resp.status_code == 409
    assert b"has an account already" in resp.content
    player.refresh_from_db()
    assert player.user.get_username() == "ann"


@pytest.mark.parametrize("email", ["", "   ", "not-an-address"])
def test_an_email_is_required(client, event, email):
    _, player, organizer = event
    client.force_login(organizer)
    resp = invite(client, player, email)
    assert resp.status_code == 400
    assert b'id="invite-error"' in resp.content
    player.refresh_from_db()
    assert player.user_id is None


def test_an_email_of_another_account_is_refused(client, event):
    _, player, organizer = event
    User.objects.create_user("someone", email="ann@example.org")
    client.force_login(organizer)
    assert invite(client, player).status_code == 400
    player.refresh_from_db()
    assert player.user_id is None


def test_the_username_is_made_unique(client, event):
    _, player, organizer = event
    User.objects.create_user("ann-smith")
    client.force_login(organizer)
    assert invite(client, player).status_code == 302
    player.refresh_from_db()
    assert player.user.get_username() == "ann-smith-2"


def test_a_login_without_next_lands_players_on_their_games_and_officials_on_arbiter(client, event):
    t, player, organizer = event
    player.user = User.objects.create_user("ann", password="pw-ann-123456")
    player.save(update_fields=["user"])
    resp = login(client, "ann", "pw-ann-123456")
    assert client.get(resp["Location"])["Location"] == "/me/games/"
    client.logout()
    organizer.set_password("pw-org-12345")
    organizer.save()
    resp = login(client, "org", "pw-org-12345")
    assert client.get(resp["Location"])["Location"] == "/arbiter/"


def test_password_reset_through_djangos_views(client, mailoutbox):
    user = User.objects.create_user("kor", email="kor@example.org", password="old-pass-4567")
    page = client.get("/accounts/login/")
    assert b'href="/accounts/password-reset/"' in page.content
    resp = client.post("/accounts/password-reset/", {"email": "kor@example.org"})
    assert resp.status_code == 302
    assert client.get(resp["Location"]).status_code == 200
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["kor@example.org"]
    page = client.get(link_in(mailoutbox[0]), follow=True)
    assert b"Choose your password" in page.content and b"<header>" in page.content
    set_url = page.redirect_chain[-1][0]
    resp = client.post(
        set_url, {"new_password1": "new-pass-klinzha-9", "new_password2": "new-pass-klinzha-9"}
    )
    assert resp.status_code == 302
    user.refresh_from_db()
    assert user.check_password("new-pass-klinzha-9")
    # An unknown address is told the same and gets no mail (no account is revealed).
    client.post("/accounts/password-reset/", {"email": "nobody@example.org"})
    assert len(mailoutbox) == 1


def test_the_demo_prints_logins_that_work_where_they_point(client):
    out = io.StringIO()
    call_command("kz", "demo", stdout=out)
    text = out.getvalue()
    logins = re.findall(r"login: (\S+) / (\S+)\s+\((http://127\.0\.0\.1:8000)(\S+)\)", text)
    assert len(logins) >= 2, text
    for username, password, _, where in logins:
        client.logout()
        page = client.get(where)
        assert page.status_code == 302 and "/accounts/login/" in page["Location"]
        resp = client.post(
            page["Location"].split("?")[0] + "?" + page["Location"].split("?")[1],
            {"username": username, "password": password, "next": where},
        )
        assert resp.status_code == 302 and resp["Location"] == where, text
        shown = client.get(where)
        assert shown.status_code == 200, (username, where)
        if where == "/arbiter/":
            assert b"Klinzhai Open 2026" in shown.content
        else:
            assert b"Next pairing" in shown.content or b"All my games" in shown.content


def test_the_organizers_entrants_list_links_the_invitation(client, event):
    t, player, organizer = event
    client.force_login(organizer)
    page = client.get(f"/arbiter/t/{t.slug}/").content.decode()
    assert f'href="/accounts/invite/{player.pk}/"' in page
    arbiter = User.objects.create_user("arb")
    t.arbiters.add(arbiter)
    client.force_login(arbiter)
    assert "/accounts/invite/" not in client.get(f"/arbiter/t/{t.slug}/").content.decode()


def test_a_lost_invitation_is_asked_for_again_by_forgotten_password(
    client, event, mailoutbox, django_capture_on_commit_callbacks
):
    _, player, organizer = event
    client.force_login(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        invite(client, player)
    client.logout()
    mailoutbox.clear()
    client.post("/accounts/password-reset/", {"email": "ann@example.org"})
    assert [m.to for m in mailoutbox] == [["ann@example.org"]]
    page = client.get(link_in(mailoutbox[0]), follow=True)
    assert b"Choose your password" in page.content
    # An account disabled on purpose (no password, no player) is not reached.
    User.objects.create_user("svc", email="svc@example.org")  # no password: unusable
    mailoutbox.clear()
    client.post("/accounts/password-reset/", {"email": "svc@example.org"})
    assert mailoutbox == []
