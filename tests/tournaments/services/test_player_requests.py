"""A player asks, on their own page, for a bye or to withdraw; an arbiter confirms. Until
then the pairing leaves the asked bye out and pairs the player; only the player asks."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from klinzha_site.errors import Conflict
from tests.tournaments.services.factories import Officials, event_make, round_make
from tournaments import audit_selectors, pairing_selectors, services
from tournaments.audit import ACTION_LABELS
from tournaments.audit_sentences import audit_sentences
from tournaments.models import AuditEntry, ByeRequest, Registration
from tournaments.services.player_requests import bye_request_ask, bye_request_unask, withdrawal_ask

pytestmark = pytest.mark.django_db


@pytest.fixture
def mine(officials: Officials):  # type: ignore[no-untyped-def]
    """Ann of a five-round Swiss, signed in with her own account; round 1 paired."""
    t, (ann, bob, cid, dax) = event_make(officials)
    account = get_user_model().objects.create_user("ann", password="pw-ann-12345")
    ann.user = account
    ann.save(update_fields=["user"])
    round_make(t, [(ann, bob), (cid, dax)])
    return t, Registration.objects.get(tournament=t, player=ann), account


def requested(t, number: int) -> list[int]:  # type: ignore[no-untyped-def]
    """The players the pairing of round `number` takes as asking for a bye."""
    return pairing_selectors.pairing_players(tournament=t, round_number=number)[1]


def test_an_asked_bye_waits_for_the_arbiter_then_counts(mine, officials):  # type: ignore[no-untyped-def]
    t, reg, account = mine
    bye = bye_request_ask(registration=reg, round_number=3, user=account)
    assert not bye.confirmed
    assert AuditEntry.objects.filter(tournament=t, action="bye_asked").count() == 1
    assert reg.player_id not in requested(t, 3)
    services.bye_request_create(registration=reg, round_number=3, user=officials.arbiter)
    assert ByeRequest.objects.get(pk=bye.pk).confirmed
    assert reg.player_id in requested(t, 3)
    # Confirmed: the arbiter's to cancel, not the player's.
    with pytest.raises(Conflict):
        bye_request_unask(registration=reg, round_number=3, user=account)


def test_the_player_takes_back_an_unconfirmed_bye(mine):  # type: ignore[no-untyped-def]
    _t, reg, account = mine
    bye_request_ask(registration=reg, round_number=4, user=account)
    assert bye_request_unask(registration=reg, round_number=4, user=account) == 1
    assert not ByeRequest.objects.filter(registration=reg).exists()


def test_a_paired_round_or_another_player_is_refused(mine, officials):  # type: ignore[no-untyped-def]
    t, reg, account = mine
    with pytest.raises(Conflict):
        bye_request_ask(registration=reg, round_number=1, user=account)
    with pytest.raises(ValidationError):
        bye_request_ask(registration=reg, round_number=9, user=account)
    bob = Registration.objects.get(tournament=t, player__name="Bob")
    for who in (account, officials.arbiter):
        with pytest.raises(PermissionDenied):
            bye_request_ask(registration=bob, round_number=3, user=who)
    with pytest.raises(PermissionDenied):
        withdrawal_ask(registration=bob, user=account)
    assert not ByeRequest.objects.exists()


def test_an_asked_withdrawal_is_confirmed_by_withdrawing(mine, officials):  # type: ignore[no-untyped-def]
    t, reg, account = mine
    asked = withdrawal_ask(registration=reg, user=account)
    assert asked.withdrawal_asked_at is not None and asked.status == Registration.Status.ACTIVE
    assert AuditEntry.objects.filter(tournament=t, action="withdrawal_asked").count() == 1
    done = services.registration_withdraw(registration=reg, user=officials.arbiter)
    assert (done.status, done.withdrawal_asked_at) == (Registration.Status.WITHDRAWN, None)
    with pytest.raises(Conflict):
        withdrawal_ask(registration=done, user=account)


def test_the_players_page_asks_and_the_arbiters_page_shows_it(mine, officials):  # type: ignore[no-untyped-def]
    t, reg, account = mine
    player = Client()
    player.force_login(account)
    page = player.get(reverse("my-games")).content.decode()
    assert 'id="my-events"' in page and reverse("my-bye", args=[t.slug]) in page
    answer = player.post(reverse("my-bye", args=[t.slug]), {"round_number": "2"})
    assert answer.status_code == 302
    assert player.post(reverse("my-withdrawal", args=[t.slug])).status_code == 302
    refused = player.post(reverse("my-bye", args=[t.slug]), {"round_number": "1"})
    assert refused.status_code == 409
    arbiter = Client()
    arbiter.force_login(officials.arbiter)
    desk = arbiter.get(reverse("arbiter:manage", args=[t.slug])).content.decode()
    assert "Confirm the bye asked for round 2" in desk
    assert "withdrawal-asked" in desk


def test_the_trail_reads_the_requests_as_sentences(mine, officials):  # type: ignore[no-untyped-def]
    t, reg, account = mine
    bye_request_ask(registration=reg, round_number=3, user=account)
    services.bye_request_create(registration=reg, round_number=3, user=officials.arbiter)
    withdrawal_ask(registration=reg, user=account)
    entries = list(
        AuditEntry.objects.filter(
            tournament=t, action__in=["bye_asked", "bye_request", "withdrawal_asked"]
        ).order_by("seq")
    )
    said = audit_sentences(
        entries=entries,
        labels=audit_selectors.audit_object_labels(entries=entries),
        action_labels=ACTION_LABELS,
    )
    assert said[0] == "ann asked for a bye for Ann in round 3"
    assert said[1] == "arbiter confirmed the bye Ann asked for in round 3"
    assert said[2].startswith("ann asked to withdraw ")
