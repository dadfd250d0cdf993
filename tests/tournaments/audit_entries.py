"""Audit entries as the code before issue 22 wrote them (hash version 1, no chain bound), for
the tests showing that such entries keep verifying: on today's model and in a migration's
historical state alike."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import timezone

from tournaments.audit import GENESIS, entry_hash


def audit_entry_v1_append(*, entries: Any, tournament: Any, n: int, actor: str = "arbiter") -> Any:
    """An entry appended to `tournament`'s chain (action "result", after {"n": n}) hashed as
    version 1 hashed it; `entries` is the AuditEntry model, today's or a historical one."""
    last = entries.objects.filter(tournament=tournament).order_by("-seq").first()
    seq, prev = (last.seq + 1, last.hash) if last else (1, GENESIS)
    now = timezone.now()
    fields = {
        "seq": seq,
        "actor": actor,
        "action": "result",
        "object_type": "",
        "object_id": "",
        "after": {"n": n},
    }
    digest = entry_hash(
        prev_hash=prev,
        before=None,
        created_at=now.isoformat(),
        key=settings.KZ_AUDIT_KEY.encode(),
        **fields,
    )
    return entries.objects.create(
        tournament=tournament,
        created_at=now,
        prev_hash=prev,
        hash=digest,
        key_id=settings.KZ_AUDIT_KEY_ID,
        **fields,
    )
