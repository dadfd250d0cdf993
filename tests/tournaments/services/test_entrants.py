"""Entrants, called directly: clubs, linking a player's account, reinstating a withdrawn or
expelled registration, requested byes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError

from tests.tournaments.services.factories import event_make, round_make
from tournaments import pairing_selectors, services
from tournaments.audit import audit_verify
from tournaments.models import AuditEntry, ByeRequest, Player, Registration, Tournament

pytestmark = pytest.mark.django_db


def version(t: Tournament) -> int:
    return Tournament.objects.values_list("published_version", flat=True).get(pk=t.pk)


def account(name: str):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user(name, password=f"pw-{name}-12345")


# club_create


def test_club_create_by_an_official(officials, event):
    club = services.club_create(name="Qo'noS Club", user=officials.arbiter, city="First City")
    assert (club.name, club.city) == ("Qo'noS Club", "First City") and club.pk is not None
    with pytest.raises(PermissionDenied):
        services.club_create(name="Other", user=officials.stranger)
    with pytest.raises(ValidationError) as e:
        services.club_create(name="Qo'noS Club")
    assert "name" in e.value.message_dict


# player_link_user


def test_the_organizer_links_a_player_of_their_tournament(officials, event):
    t, (ann, *_) = event
    kor = account("kor")
    for arbiter in (officials.arbiter, officials.chief):  # issue 14: not the arbiters
        with pytest.raises(PermissionDenied):
            services.player_link_user(player=ann, account=kor, user=arbiter)
    linked = services.player_link_user(player=ann, account=kor, user=officials.organizer)
    assert linked.user == kor
    assert Player.objects.get(pk=ann.pk).user == kor
    (entry,) = AuditEntry.objects.filter(tournament=t, action="player_account")
    assert (entry.actor, entry.object_type, entry.object_id) == (
        "organizer",
        "Player",
        str(ann.pk),
    )
    assert entry.before == {"account": None} and entry.after == {"account": "kor"}


def test_unlinking_is_audited_in_every_tournament_of_the_player_and_the_sites_chain(
    officials, event
):
    t, (ann, *_) = event
    other, _ = event_make(officials, slug="other-open", names=("Zed",))
    services.registration_create(tournament=other, player=ann)
    kor = account("kor")
    services.player_link_user(player=ann, account=kor)
    # Issue 22: the organizer no longer unlinks a player's account; the player (or staff) may.
    with pytest.raises(PermissionDenied, match="only staff may change the account"):
        services.player_link_user(player=ann, account=None, user=officials.organizer)
    services.player_link_user(player=ann, account=None, user=kor)
    assert Player.objects.get(pk=ann.pk).user is None
    for tournament in (t, other, None):
        entries = AuditEntry.objects.filter(tournament=tournament, action="player_account")
        assert [(e.before, e.after) for e in entries.order_by("seq")] == [
            ({"account": None}, {"account": "kor"}),
            ({"account": "kor"}, {"account": None}),
        ]
    assert audit_verify(tournament=None) == (True, 2, "")


def test_an_account_links_to_one_player_only(officials, event):
    t, (ann, bob, *_) = event
    kor = account("kor")
    services.player_link_user(player=ann, account=kor, user=officials.organizer)
    with pytest.raises(ValidationError) as e:
        services.player_link_user(player=bob, account=kor, user=officials.organizer)
    assert e.value.message_dict == {"account": ["already linked to player Ann"]}
    assert Player.objects.get(pk=bob.pk).user is None
    # Linking the same pair again is no conflict.
    assert services.player_link_user(player=ann, account=kor, user=officials.organizer).user == kor


def test_an_arbiter_of_another_event_cannot_take_a_player_over(officials, event):
    """Issue 14: register this event's player into one's own event (allowed: players are
    shared), then link them to one's own account: refused. Issue 22: the registration takes
    nothing from the organizer who manages the player."""
    t, (ann, *_) = event
    rival = account("rival")
    theirs = services.tournament_create(
        name="Rival Open", slug="rival-open", start_date=t.start_date
    )
    theirs.organizer = rival
    theirs.save()
    theirs.arbiters.add(rival)
    services.registration_create(tournament=theirs, player=ann, user=rival)
    with pytest.raises(PermissionDenied):
        services.player_link_user(player=ann, account=rival, user=rival)
    assert Player.objects.get(pk=ann.pk).user is None
    kor = account("kor")
    assert services.player_link_user(player=ann, account=kor, user=officials.organizer).user == kor


def test_a_player_may_unlink_but_not_give_away_their_account(officials, event):
    t, (ann, *_) = event
    kor = account("kor")
    services.player_link_user(player=ann, account=kor, user=officials.organizer)
    with pytest.raises(PermissionDenied, match="not give it away"):
        services.player_link_user(player=ann, account=account("kang"), user=kor)
    assert services.player_link_user(player=ann, account=None, user=kor).user is None


def test_arbiters_of_other_tournaments_may_not_link(officials, event):
    t, (ann, *_) = event
    other, _ = event_make(officials, slug="other-open", names=("Zed",))
    outsider = account("outsider")
    other.arbiters.add(outsider)
    with pytest.raises(PermissionDenied, match="only staff, or the organizer who manages"):
        services.player_link_user(player=ann, account=account("kor"), user=outsider)
    with pytest.raises(PermissionDenied):
        services.player_link_user(player=ann, account=account("kang"), user=officials.stranger)
    assert Player.objects.get(pk=ann.pk).user is None
    staff = get_user_model().objects.create_user("staff", password="pw-staff-123", is_staff=True)
    assert services.player_link_user(player=ann, account=outsider, user=staff).user == outsider


def test_a_player_registered_nowhere_is_linked_by_staff_only(officials, event):
    """Issue 22 item 1: not even the organizer who made them (no event's trail of theirs
    would show it); staff may, and the site's chain records it."""
    from django.contrib.auth.models import Permission

    maker = account("maker")
    maker.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    maker = get_user_model().objects.get(pk=maker.pk)
    loner = services.player_create(name="Loner", user=maker)
    assert loner.managed_by == maker
    kor = account("kor")
    for user in (officials.stranger, officials.arbiter, maker):
        with pytest.raises(PermissionDenied):
            services.player_link_user(player=loner, account=kor, user=user)
    staff = get_user_model().objects.create_user("staff", password="pw-staff-123", is_staff=True)
    assert services.player_link_user(player=loner, account=kor, user=staff).user == kor
    assert not AuditEntry.objects.filter(tournament__isnull=False, action="player_account")
    (entry,) = AuditEntry.objects.filter(tournament=None, action="player_account")
    assert (entry.actor, entry.object_id, entry.after) == (
        "staff",
        str(loner.pk),
        {"account": "kor"},
    )


# registration_reinstate


@pytest.mark.parametrize("expelled", [False, True])
def test_reinstating_makes_the_player_active_and_paired_again(officials, event, expelled):
    t, (a, b, c, d) = event
    round_make(t, [(a, b), (c, d)])
    reg = Registration.objects.get(tournament=t, player=d)
    services.registration_withdraw(registration=reg, expelled=expelled)
    players, _ = pairing_selectors.pairing_players(tournament=t, round_number=2)
    assert d.pk not in {p.id for p in players}
    before = version(t)
    back = services.registration_reinstate(registration=reg)
    assert (back.status, back.last_round) == ("active", None)
    reg.refresh_from_db()
    assert (reg.status, reg.last_round) == ("active", None)
    assert version(t) == before + 1
    players, _ = pairing_selectors.pairing_players(tournament=t, round_number=2)
    assert d.pk in {p.id for p in players}


# bye_request_create


def test_a_requested_bye_takes_the_player_out_of_the_pairing(officials, event):
    t, (a, b, c, d) = event
    reg = Registration.objects.get(tournament=t, player=d)
    bye = services.bye_request_create(registration=reg, round_number=1, user=officials.arbiter)
    assert (bye.registration_id, bye.round_number) == (reg.pk, 1)
    again = services.bye_request_create(registration=reg, round_number=1, user=officials.arbiter)
    assert again.pk == bye.pk and ByeRequest.objects.count() == 1
    players, requested = pairing_selectors.pairing_players(tournament=t, round_number=1)
    assert requested == [d.pk] and d.pk not in {p.id for p in players}
    rnd = services.round_pair(tournament=t)
    byes = rnd.games.filter(kind="requested_bye")
    assert [g.first_id for g in byes] == [d.pk]
    # The request was for round 1 only.
    players, requested = pairing_selectors.pairing_players(tournament=t, round_number=2)
    assert requested == [] and d.pk in {p.id for p in players}


def test_no_bye_request_for_a_paired_round_or_from_a_stranger(officials, event):
    t, (a, b, c, d) = event
    round_make(t, [(a, b), (c, d)])
    reg = Registration.objects.get(tournament=t, player=d)
    with pytest.raises(ValidationError) as e:
        services.bye_request_create(registration=reg, round_number=1, user=officials.arbiter)
    assert e.value.message_dict == {"round_number": ["round 1 is already paired"]}
    with pytest.raises(PermissionDenied):
        services.bye_request_create(registration=reg, round_number=2, user=officials.stranger)
    assert not ByeRequest.objects.exists()
