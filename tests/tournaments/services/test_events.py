"""Tournaments' officials and settings, called directly: officials_set (the organizer's),
and what tournament_update writes to the audit trail."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tournaments import services
from tournaments.models import AuditEntry, Tournament
from tournaments.roles import user_can_arbitrate

pytestmark = pytest.mark.django_db


def officials_entries(t: Tournament) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(tournament=t, action="officials").order_by("seq"))


def test_the_organizer_names_the_chief_arbiter_and_the_arbiters(officials, event):
    t, _ = event
    got = services.officials_set(
        tournament=t,
        user=officials.organizer,
        chief_arbiter=officials.arbiter,
        arbiters=[officials.arbiter2, officials.stranger],
    )
    t.refresh_from_db()
    assert got.pk == t.pk and got.chief_arbiter == officials.arbiter
    assert t.chief_arbiter == officials.arbiter
    assert set(t.arbiters.all()) == {officials.arbiter2, officials.stranger}
    assert user_can_arbitrate(user=officials.stranger, tournament=t)
    (entry,) = officials_entries(t)
    assert entry.actor == "organizer" and entry.object_type == "Tournament"
    assert entry.before == {"chief_arbiter": "chief", "arbiters": ["arbiter", "arbiter2"]}
    assert entry.after == {"chief_arbiter": "arbiter", "arbiters": ["arbiter2", "stranger"]}


def test_setting_the_same_officials_again_writes_no_audit_entry(officials, event):
    t, _ = event
    services.officials_set(
        tournament=t,
        user=officials.organizer,
        chief_arbiter=officials.chief,
        arbiters=[officials.arbiter2, officials.arbiter],  # order does not matter
    )
    assert officials_entries(t) == []


def test_clearing_the_officials_takes_their_rights(officials, event):
    t, _ = event
    services.officials_set(tournament=t, user=officials.organizer)
    t.refresh_from_db()
    assert t.chief_arbiter is None and not t.arbiters.exists()
    assert not user_can_arbitrate(user=officials.arbiter, tournament=t)
    assert not user_can_arbitrate(user=officials.chief, tournament=t)
    assert officials_entries(t)[0].after == {"chief_arbiter": None, "arbiters": []}


@pytest.mark.parametrize("who", ["chief", "arbiter", "stranger"])
def test_only_the_organizer_sets_officials(officials, event, who):
    t, _ = event
    with pytest.raises(PermissionDenied, match="only this tournament's organizer may do that"):
        services.officials_set(
            tournament=t, user=getattr(officials, who), chief_arbiter=officials.stranger
        )
    t.refresh_from_db()
    assert t.chief_arbiter == officials.chief
    assert set(t.arbiters.all()) == {officials.arbiter, officials.arbiter2}
    assert officials_entries(t) == []


def test_the_system_may_set_officials(officials, event):
    t, _ = event
    services.officials_set(tournament=t, user=None, chief_arbiter=officials.stranger)
    t.refresh_from_db()
    assert t.chief_arbiter == officials.stranger
    assert officials_entries(t)[0].actor == ""


def test_tournament_update_audits_the_change_and_bumps_the_standings(officials, event):
    t, _ = event
    t.refresh_from_db()
    version = t.published_version
    got = services.tournament_update(tournament=t, user=officials.chief, venue="Hall B")
    assert got.venue == "Hall B" and got.published_version == version + 1
    entry = AuditEntry.objects.get(tournament=t, action="settings")
    assert entry.before == {"venue": ""} and entry.after == {"venue": "Hall B"}
    with pytest.raises(ValidationError) as e:
        services.tournament_update(tournament=t, user=officials.chief, organizer=None)
    assert e.value.message_dict == {"organizer": ["not a setting that can be changed"]}
