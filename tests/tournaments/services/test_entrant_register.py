"""entrant_register, called directly: a known player or a new one made for the event,
registered in one transaction, so that a refused registration leaves no new player."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from klinzha_site.errors import Conflict
from tests.tournaments.services.factories import event_make, round_make
from tournaments import services
from tournaments.models import AuditEntry, Player, Registration

pytestmark = pytest.mark.django_db


def test_a_new_player_is_made_for_the_event_and_registered(officials, event):
    t, _ = event
    club = services.club_create(name="House of Martok")
    reg = services.entrant_register(
        tournament=t, player=None, name="Kang", club=club, rating=1850, user=officials.arbiter
    )
    kang = Player.objects.get(name="Kang")
    assert reg.player == kang and (kang.club, kang.rating) == (club, 1850)
    assert kang.managed_by == officials.organizer  # made for the event: its organizer's
    assert (reg.first_round, reg.start_rank, reg.rating) == (1, 3, 1850)
    assert AuditEntry.objects.filter(tournament=t, action="registration").count() == 5


def test_a_new_player_without_a_rating_has_none(officials, event):
    t, _ = event
    reg = services.entrant_register(tournament=t, player=None, name="Koloth", user=officials.chief)
    assert reg.player.rating == 0 and reg.start_rank == 5


def test_a_known_player_is_registered_and_no_player_is_made(officials, event):
    t, _ = event
    known = services.player_create(name="Kor", rating=1700)
    before = Player.objects.count()
    reg = services.entrant_register(
        tournament=t, player=known, name="ignored", user=officials.arbiter
    )
    assert reg.player == known and Player.objects.count() == before


def test_a_refused_registration_leaves_no_new_player(officials):
    t, (ann, bob, cid, dax) = event_make(officials, slug="rr", pairing_system="round_robin")
    round_make(t, [(ann, bob), (cid, dax)])
    with pytest.raises(Conflict):
        services.entrant_register(tournament=t, player=None, name="Late", user=officials.arbiter)
    assert not Player.objects.filter(name="Late").exists()
    with pytest.raises(ValidationError, match="already registered"):
        services.entrant_register(tournament=t, player=ann, user=officials.arbiter)
    assert Registration.objects.filter(tournament=t).count() == 4


def test_a_stranger_registers_nobody(officials, event):
    t, _ = event
    with pytest.raises(PermissionDenied):
        services.entrant_register(tournament=t, player=None, name="Gowron", user=officials.stranger)
    assert not Player.objects.filter(name="Gowron").exists()
