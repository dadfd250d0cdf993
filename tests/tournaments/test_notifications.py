"""Players' notifications by mail (issue 15): a published pairing, a result to confirm, a
penalty; sent once committed, and a mail server that fails never fails the write."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.mail.backends.base import BaseEmailBackend

from tournaments import services
from tournaments.models import Game, Penalty, Round
from tournaments.services.accounts import player_invite

pytestmark = pytest.mark.django_db
User = get_user_model()


class FailingBackend(BaseEmailBackend):
    """A mail server that is down."""

    def send_messages(self, email_messages):  # type: ignore[no-untyped-def]
        raise ConnectionRefusedError("the mail server is down")


@pytest.fixture
def event():
    chief = User.objects.create_user("chief", email="chief@example.org")
    arbiter = User.objects.create_user("arb", email="arb@example.org")
    t = services.tournament_create(
        name="Club Night", slug="club-night", start_date=date(2026, 11, 20)
    )
    t.chief_arbiter = chief
    t.save()
    t.arbiters.add(arbiter)
    players = []
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        p = services.player_create(name=name, rating=2000 - i)
        services.registration_create(tournament=t, player=p)
        players.append(p)
    for p in players[:3]:  # Dee has no account
        p.user = User.objects.create_user(p.name.lower(), email=f"{p.name.lower()}@example.org")
        p.save(update_fields=["user"])
    return t, players, chief, arbiter


def draft_round(t, players):
    ids = [p.pk for p in players]
    return services.round_create(
        tournament=t, pairings=[(ids[0], ids[1]), (ids[2], ids[3])], status="draft"
    )


def test_a_published_pairing_reaches_each_combatant_with_an_account(
    event, mailoutbox, django_capture_on_commit_callbacks
):
    t, players, _, _ = event
    rnd = draft_round(t, players)
    assert mailoutbox == []  # a proposal is no one's business yet
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round=rnd)
    by_to = {m.to[0]: m for m in mailoutbox}
    assert set(by_to) == {"ann@example.org", "bob@example.org", "cid@example.org"}
    ann = by_to["ann@example.org"]
    assert "round 1" in ann.subject and "Club Night" in ann.subject
    assert "you place first against Bob" in ann.body
    assert "you place second against Ann" in by_to["bob@example.org"].body
    game = rnd.games.get(board=1)
    assert f"/g/{game.pk}/" in ann.body and "/me/games/" in ann.body


def test_a_round_stored_published_notifies_too(
    event, mailoutbox, django_capture_on_commit_callbacks
):
    t, players, _, _ = event
    ids = [p.pk for p in players]
    with django_capture_on_commit_callbacks(execute=True):
        services.round_create(tournament=t, pairings=[(ids[0], ids[1]), (ids[2], None)])
    by_to = {m.to[0]: m for m in mailoutbox}
    assert set(by_to) == {"ann@example.org", "bob@example.org", "cid@example.org"}
    assert "bye" in by_to["cid@example.org"].body.lower()


def test_nothing_is_sent_before_the_commit(event, mailoutbox, django_capture_on_commit_callbacks):
    t, players, _, _ = event
    rnd = draft_round(t, players)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.round_publish(round=rnd)
    assert mailoutbox == [] and callbacks


def test_a_result_to_confirm(event, mailoutbox, django_capture_on_commit_callbacks):
    t, players, chief, arbiter = event
    t.result_confirmation = True
    t.save(update_fields=["result_confirmation"])
    rnd = draft_round(t, players)
    services.round_publish(round=rnd)
    game = rnd.games.get(board=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_result_set(game=game, result=Game.Result.FIRST_WIN, user=arbiter)
    to = sorted(m.to[0] for m in mailoutbox)
    # The combatants check it; the chief arbiter confirms it; not who entered it.
    assert to == ["ann@example.org", "bob@example.org", "chief@example.org"]
    assert all("a result to confirm" in m.subject for m in mailoutbox)
    assert "First placer wins" in mailoutbox[0].body
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.game_result_countersign(game=game, user=chief)
    assert mailoutbox == []


def test_a_result_that_needs_no_confirmation_sends_nothing(
    event, mailoutbox, django_capture_on_commit_callbacks
):
    t, players, _, arbiter = event
    rnd = draft_round(t, players)
    services.round_publish(round=rnd)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_result_set(game=rnd.games.get(board=1), result="draw", user=arbiter)
    assert mailoutbox == []


def test_a_penalty_reaches_the_penalized_player(
    event, mailoutbox, django_capture_on_commit_callbacks
):
    t, players, _, arbiter = event
    with django_capture_on_commit_callbacks(execute=True):
        services.penalty_impose(
            tournament=t, player=players[1], kind="warning", reason="talking", user=arbiter
        )
    assert [m.to for m in mailoutbox] == [["bob@example.org"]]
    assert "Art." in mailoutbox[0].subject and "talking" in mailoutbox[0].body
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):  # Dee has no account
        services.penalty_impose(
            tournament=t, player=players[3], kind="warning", reason="late", user=arbiter
        )
    assert mailoutbox == []


def test_a_failing_mail_server_never_fails_the_write(
    event, settings, mailoutbox, django_capture_on_commit_callbacks, caplog
):
    settings.EMAIL_BACKEND = f"{__name__}.FailingBackend"
    t, players, _, arbiter = event
    rnd = draft_round(t, players)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round=rnd)
        services.penalty_impose(
            tournament=t, player=players[0], kind="warning", reason="noise", user=arbiter
        )
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
    assert Penalty.objects.filter(player=players[0]).exists()
    assert "could not be sent" in caplog.text and "mail server is down" in caplog.text


def test_a_failing_mail_server_keeps_the_invitation(
    event, settings, django_capture_on_commit_callbacks, caplog
):
    settings.EMAIL_BACKEND = f"{__name__}.FailingBackend"
    _, players, _, _ = event
    staff = User.objects.create_user("boss", is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        made = player_invite(player=players[3], email="dee@example.org", user=staff)
    players[3].refresh_from_db()
    assert players[3].user == made.account and "/accounts/reset/" in made.link
    assert "could not be sent" in caplog.text


def test_mails_are_written_in_each_players_language(
    event, mailoutbox, django_capture_on_commit_callbacks, client
):
    """Ann logs in from the Italian pages: her pairing comes in Italian, Bob's stays in the
    site's default English."""
    t, players, _, _ = event
    ann = players[0].user
    ann.set_password("pw-ann-1234")
    ann.save()
    response = client.post("/it/accounts/login/", {"username": "ann", "password": "pw-ann-1234"})
    assert response.status_code == 302
    players[0].refresh_from_db()
    assert players[0].language == "it"
    rnd = draft_round(t, players)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round=rnd)
    by_to = {m.to[0]: m for m in mailoutbox}
    italian, english = by_to["ann@example.org"], by_to["bob@example.org"]
    assert "turno 1" in italian.subject.lower() and "Bob" in italian.body
    assert "you place" not in italian.body and "round 1" not in italian.subject
    assert "you place second against Ann" in english.body


def test_a_penalty_and_a_result_to_confirm_in_the_players_language(
    event, mailoutbox, django_capture_on_commit_callbacks
):
    t, players, chief, arbiter = event
    services.player_language_set(player=players[1], language="de-AT")
    assert players[1].language == "de"
    with django_capture_on_commit_callbacks(execute=True):
        services.penalty_impose(
            tournament=t, player=players[1], kind="warning", reason="talking", user=arbiter
        )
    (mail,) = mailoutbox
    assert "Art." in mail.subject and "talking" in mail.body
    assert "imposed a penalty" not in mail.body and "Schiedsrichter" in mail.body


def test_an_invitation_is_written_in_the_arbiters_language(
    event, mailoutbox, django_capture_on_commit_callbacks
):
    t, players, chief, _ = event
    chief.is_staff = True
    chief.save()
    from django.utils import translation

    with translation.override("fr"), django_capture_on_commit_callbacks(execute=True):
        invitation = player_invite(player=players[3], email="dee@example.org", user=chief)
    players[3].refresh_from_db()
    assert players[3].language == "fr"
    (mail,) = mailoutbox
    assert "An account was made" not in mail.body and invitation.link in mail.body
    assert "/fr/accounts/reset/" in invitation.link
