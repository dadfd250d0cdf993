"""The audit trail, called directly: entries appended with their sequence, actor, object and
JSON values, each chained to the one before by its hash; the hash itself; a removed entry
found by the verification."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import AnonymousUser

from tests.tournaments.services.factories import event_make, officials_make
from tournaments.audit import (
    GENESIS,
    Action,
    audit_append,
    audit_keys,
    audit_verify,
    chain_scope,
    entry_hash,
)
from tournaments.models import AuditEntry, Tournament

HASH_FIELDS = {
    "prev_hash": GENESIS,
    "seq": 1,
    "actor": "arbiter",
    "action": "result",
    "object_type": "Game",
    "object_id": "7",
    "before": {"result": ""},
    "after": {"result": "draw"},
    "created_at": "2026-11-22T10:00:00+00:00",
}


@pytest.fixture
def ctx(db):  # type: ignore[no-untyped-def]
    officials = officials_make()
    t, _ = event_make(officials, names=())  # no registrations: their entries come first
    return t, officials


def recomputed(e: AuditEntry) -> str:
    return entry_hash(
        prev_hash=e.prev_hash,
        seq=e.seq,
        actor=e.actor,
        action=e.action,
        object_type=e.object_type,
        object_id=e.object_id,
        before=e.before,
        after=e.after,
        created_at=e.created_at.isoformat(),
        key=audit_keys()[e.key_id],
        version=e.hash_version,
        scope=chain_scope(e.tournament),
    )


def test_entry_hash_is_a_stable_sha256_of_every_field():
    digest = entry_hash(**HASH_FIELDS)
    assert len(digest) == 64 and int(digest, 16) >= 0
    assert entry_hash(**HASH_FIELDS) == digest
    # Key order inside the values does not matter; every field does.
    assert entry_hash(**{**HASH_FIELDS, "after": {"result": "draw"}}) == digest
    changed = {
        "prev_hash": "1" * 64,
        "seq": 2,
        "actor": "chief",
        "action": "penalty",
        "object_type": "Round",
        "object_id": "8",
        "before": None,
        "after": {"result": "first_win"},
        "created_at": "2026-11-22T10:00:01+00:00",
    }
    for field, value in changed.items():
        assert entry_hash(**{**HASH_FIELDS, field: value}) != digest, field


def test_entries_are_chained_in_sequence(ctx):
    t, officials = ctx
    first = audit_append(
        tournament=t,
        user=officials.arbiter,
        action=Action.SETTINGS,
        obj=t,
        before={"venue": ""},
        after={"venue": "Hall"},
    )
    second = audit_append(tournament=t, user=None, action=Action.RESULT, after={"x": 1})
    assert (first.seq, first.prev_hash) == (1, GENESIS)
    assert (second.seq, second.prev_hash) == (2, first.hash)
    assert first.hash == recomputed(AuditEntry.objects.get(pk=first.pk))
    assert second.hash == recomputed(AuditEntry.objects.get(pk=second.pk))
    assert first.hash != second.hash
    assert audit_verify(tournament=t) == (True, 2, "")


def test_an_entry_names_its_actor_object_and_action(ctx):
    t, officials = ctx
    e = audit_append(
        tournament=t, user=officials.chief, action=Action.OFFICIALS, obj=t, after={"a": 1}
    )
    assert (e.actor, e.action, e.object_type, e.object_id) == (
        "chief",
        "officials",
        "Tournament",
        str(t.pk),
    )
    anonymous = audit_append(tournament=t, user=AnonymousUser(), action=Action.TIMEOUT)
    assert (anonymous.actor, anonymous.action, anonymous.object_type, anonymous.object_id) == (
        "",
        "game.timeout",
        "",
        "",
    )
    named = audit_append(tournament=t, user=None, action=Action.RESULT, object_type="Import")
    assert named.object_type == "Import"
    assert (named.before, named.after) == (None, None)


def test_values_are_stored_as_json(ctx):
    t, officials = ctx
    e = audit_append(
        tournament=t,
        user=officials.arbiter,
        action=Action.SETTINGS,
        before={"start_date": date(2026, 11, 1), "pairs": ((1, 2), (3, None))},
        after=["a", 1.5],
    )
    stored = AuditEntry.objects.get(pk=e.pk)
    assert stored.before == {"start_date": "2026-11-01", "pairs": [[1, 2], [3, None]]}
    assert stored.after == ["a", 1.5]
    assert stored.hash == recomputed(stored)


def test_each_tournament_has_its_own_chain(ctx):
    t, officials = ctx
    other = Tournament.objects.create(name="Other", slug="other", start_date=date(2026, 1, 1))
    audit_append(tournament=t, user=None, action=Action.RESULT)
    audit_append(tournament=t, user=None, action=Action.RESULT)
    e = audit_append(tournament=other, user=None, action=Action.RESULT)
    assert (e.seq, e.prev_hash) == (1, GENESIS)
    assert audit_verify(tournament=other) == (True, 1, "")


def test_a_removed_entry_is_found(ctx):
    t, officials = ctx
    for n in range(3):
        audit_append(tournament=t, user=officials.arbiter, action=Action.RESULT, after={"n": n})
    # The model refuses to delete; a raw query does not.
    AuditEntry.objects.filter(tournament=t, seq=2).delete()
    assert audit_verify(tournament=t) == (False, 2, "entry 2 is missing (found 3)")
