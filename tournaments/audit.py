"""The audit trail: append an entry chained by hash, and verify a tournament's chain."""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.models import AuditEntry, Tournament

GENESIS = "0" * 64


class Action(StrEnum):
    """The action names written into the trail. They are hashed into the chain, so each keeps
    the spelling it was first written with (two styles, kept for the chains that exist)."""

    SETTINGS = "settings"
    OFFICIALS = "officials"
    PLAYER_ACCOUNT = "player_account"
    WITHDRAWAL = "withdrawal"
    START_RANKS = "start_ranks"
    ROUND_PAIRED = "round_paired"
    ROUND_PUBLISHED = "round_published"
    ROUND_DISCARDED = "round_discarded"
    ROUND_UNPUBLISHED = "round_unpublished"
    ROUND_SCHEDULED = "round_scheduled"
    PAIRINGS_EDITED = "pairings_edited"
    RESULT = "result"
    RESULT_CONFIRMED = "result_confirmed"
    PENALTY = "penalty"
    PENALTY_REVOKED = "penalty_revoked"
    RECORD_SUBMITTED = "record_submitted"
    RECORD_SIGNED = "record_signed"
    IRREGULARITY = "irregularity"
    TIMEOUT = "game.timeout"
    SPINDLE_CHOICE = "game.spindle_choice"


def entry_hash(
    *,
    prev_hash: str,
    seq: int,
    actor: str,
    action: str,
    object_type: str,
    object_id: str,
    before: Any,
    after: Any,
    created_at: str,
) -> str:
    body = json.dumps(
        [prev_hash, seq, actor, action, object_type, object_id, before, after, created_at],
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


@transaction.atomic
def audit_append(
    *,
    tournament: Tournament,
    user: Any,
    action: Action,
    obj: Any = None,
    object_type: str = "",
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """Log a change; entries of a tournament are serialised by locking its row."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    last = AuditEntry.objects.filter(tournament=tournament).order_by("-seq").first()
    seq = last.seq + 1 if last else 1
    prev = last.hash if last else GENESIS
    actor = getattr(user, "username", "") if getattr(user, "is_authenticated", False) else ""
    otype = object_type or (type(obj).__name__ if obj is not None else "")
    oid = str(getattr(obj, "pk", "") or "")
    now = timezone.now()
    before_j = json.loads(json.dumps(before, default=str)) if before is not None else None
    after_j = json.loads(json.dumps(after, default=str)) if after is not None else None
    digest = entry_hash(
        prev_hash=prev,
        seq=seq,
        actor=actor,
        action=str(action),
        object_type=otype,
        object_id=oid,
        before=before_j,
        after=after_j,
        created_at=now.isoformat(),
    )
    entry = AuditEntry(
        tournament=tournament,
        seq=seq,
        actor=actor,
        action=str(action),
        object_type=otype,
        object_id=oid,
        before=before_j,
        after=after_j,
        created_at=now,
        prev_hash=prev,
        hash=digest,
    )
    entry.save()
    return entry


def audit_verify(*, tournament: Tournament) -> tuple[bool, int, str]:
    """(intact, entries checked, what is wrong) for a tournament's chain."""
    prev = GENESIS
    expected_seq = 1
    count = 0
    for e in AuditEntry.objects.filter(tournament=tournament).order_by("seq").iterator():
        count += 1
        if e.seq != expected_seq:
            return False, count, f"entry {expected_seq} is missing (found {e.seq})"
        if e.prev_hash != prev:
            return False, count, f"entry {e.seq} does not follow entry {e.seq - 1}"
        digest = entry_hash(
            prev_hash=e.prev_hash,
            seq=e.seq,
            actor=e.actor,
            action=e.action,
            object_type=e.object_type,
            object_id=e.object_id,
            before=e.before,
            after=e.after,
            created_at=e.created_at.isoformat(),
        )
        if digest != e.hash:
            return False, count, f"entry {e.seq} was changed after it was written"
        prev = e.hash
        expected_seq += 1
    return True, count, ""
