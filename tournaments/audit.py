"""The audit trail: append an entry chained by a keyed hash, publish the chain's head, verify."""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from klinzha_site.user_types import AnyUser
from tournaments.models import AuditEntry, SiteAudit, Tournament

GENESIS = "0" * 64
# The hash new entries are written with: version 2 binds the chain (entry_hash's scope).
HASH_VERSION = 2


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
    RECORD_REQUEUED = "record_requeued"
    IRREGULARITY = "irregularity"
    TIMEOUT = "game.timeout"
    SPINDLE_CHOICE = "game.spindle_choice"
    CLOCK_ADJUSTMENT = "game.clock_adjustment"
    CLOCK_ADJUSTMENT_REVOKED = "game.clock_adjustment_revoked"
    PLAYER_INVITED = "player_invited"
    REGISTRATION = "registration"
    LATE_ENTRY = "late_entry"
    BYE_REQUEST = "bye_request"
    BYE_REQUEST_CANCELLED = "bye_request_cancelled"
    RESULT_DISAGREEMENT_RULED = "game.result_disagreement_ruled"
    RATING_PERIOD_CLOSED = "rating.period_closed"
    RATING_PERIOD_RERATED = "rating.period_rerated"
    SERIES_CREATED = "series.created"
    SERIES_EVENT_INVITED = "series.event_invited"
    SERIES_EVENT_ACCEPTED = "series.event_accepted"
    SERIES_EVENT_DECLINED = "series.event_declined"
    SERIES_EVENT_REMOVED = "series.event_removed"
    CLUB_OFFICIALS = "club.officials"
    CHECK_IN_WINDOW = "check_in.window"
    CHECK_IN = "check_in"
    CHECK_IN_CLOSED = "check_in.closed"
    PLAYERS_MERGED = "players_merged"
    BYE_ASKED = "bye_asked"
    WITHDRAWAL_ASKED = "withdrawal_asked"


# How the arbiter's page names each action, in the reader's language (the trail itself, the
# API and `kz audit` keep the codes).
ACTION_LABELS: dict[str, Any] = {
    Action.SETTINGS: gettext_lazy("settings changed"),
    Action.OFFICIALS: gettext_lazy("officials changed"),
    Action.PLAYER_ACCOUNT: gettext_lazy("player's account"),
    Action.WITHDRAWAL: gettext_lazy("withdrawal"),
    Action.START_RANKS: gettext_lazy("start ranks"),
    Action.ROUND_PAIRED: gettext_lazy("round paired"),
    Action.ROUND_PUBLISHED: gettext_lazy("round published"),
    Action.ROUND_DISCARDED: gettext_lazy("round discarded"),
    Action.ROUND_UNPUBLISHED: gettext_lazy("round taken back"),
    Action.ROUND_SCHEDULED: gettext_lazy("round scheduled"),
    Action.PAIRINGS_EDITED: gettext_lazy("pairings edited"),
    Action.RESULT: gettext_lazy("result"),
    Action.RESULT_CONFIRMED: gettext_lazy("result confirmed"),
    Action.PENALTY: gettext_lazy("penalty"),
    Action.PENALTY_REVOKED: gettext_lazy("penalty revoked"),
    Action.RECORD_SUBMITTED: gettext_lazy("record submitted"),
    Action.RECORD_SIGNED: gettext_lazy("record signed"),
    Action.RECORD_REQUEUED: gettext_lazy("record queued again"),
    Action.IRREGULARITY: gettext_lazy("irregularity"),
    Action.TIMEOUT: gettext_lazy("time-out"),
    Action.SPINDLE_CHOICE: gettext_lazy("spindle choice"),
    Action.CLOCK_ADJUSTMENT: gettext_lazy("clock adjustment"),
    Action.CLOCK_ADJUSTMENT_REVOKED: gettext_lazy("clock adjustment revoked"),
    Action.PLAYER_INVITED: gettext_lazy("player invited"),
    Action.REGISTRATION: gettext_lazy("registration"),
    Action.LATE_ENTRY: gettext_lazy("late entry"),
    Action.BYE_REQUEST: gettext_lazy("bye requested"),
    Action.BYE_REQUEST_CANCELLED: gettext_lazy("requested bye cancelled"),
    Action.RESULT_DISAGREEMENT_RULED: gettext_lazy("result and signed record reconciled"),
    Action.RATING_PERIOD_CLOSED: gettext_lazy("rating period closed"),
    Action.RATING_PERIOD_RERATED: gettext_lazy("rating period rated again"),
    Action.SERIES_CREATED: gettext_lazy("series made"),
    Action.SERIES_EVENT_INVITED: gettext_lazy("invited into a series"),
    Action.SERIES_EVENT_ACCEPTED: gettext_lazy("counts in a series"),
    Action.SERIES_EVENT_DECLINED: gettext_lazy("invitation into a series declined"),
    Action.SERIES_EVENT_REMOVED: gettext_lazy("removed from a series"),
    Action.CLUB_OFFICIALS: gettext_lazy("club officials changed"),
    Action.CHECK_IN_WINDOW: gettext_lazy("check-in window set"),
    Action.CHECK_IN: gettext_lazy("check-in"),
    Action.CHECK_IN_CLOSED: gettext_lazy("check-in closed"),
    Action.PLAYERS_MERGED: gettext_lazy("players merged"),
    Action.BYE_ASKED: gettext_lazy("bye asked by the player"),
    Action.WITHDRAWAL_ASKED: gettext_lazy("withdrawal asked by the player"),
}


def audit_keys() -> dict[str, bytes]:
    """Every key the trail knows, by id: the current one (KZ_AUDIT_KEY, named KZ_AUDIT_KEY_ID)
    and the retired ones (KZ_AUDIT_RETIRED_KEYS) that older entries were written with."""
    keys = {str(k): str(v).encode("utf-8") for k, v in settings.KZ_AUDIT_RETIRED_KEYS.items()}
    keys[settings.KZ_AUDIT_KEY_ID] = settings.KZ_AUDIT_KEY.encode("utf-8")
    return keys


def audit_key_current() -> tuple[str, bytes]:
    """The id and secret new entries are hashed with; never the site's SECRET_KEY."""
    key = settings.KZ_AUDIT_KEY
    if not key or key == settings.SECRET_KEY:
        raise ImproperlyConfigured("KZ_AUDIT_KEY must be set, and differ from SECRET_KEY")
    return settings.KZ_AUDIT_KEY_ID, key.encode("utf-8")


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
    key: bytes | None = None,
    version: int = 1,
    scope: Any = None,
) -> str:
    """HMAC-SHA256 under `key` of an entry's fields; without a key the plain SHA-256 the
    chains were written with before keyed hashes (kept to carry them over). Version 2 also
    covers the version and the chain's `scope` (chain_scope): an entry moved to another
    chain no longer verifies. Version 1 is the body entries were written with before."""
    fields = [prev_hash, seq, actor, action, object_type, object_id, before, after, created_at]
    if version >= 2:
        fields += [version, scope]
    body = json.dumps(
        fields,
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        default=str,
    ).encode("utf-8")
    if key is None:
        return hashlib.sha256(body).hexdigest()
    return hmac.new(key, body, hashlib.sha256).hexdigest()


def chain_scope(tournament: Tournament | None) -> list[Any]:
    """What a version 2 hash binds: the tournament's id and slug (the name its published
    head is checked under), or the site's chain."""
    if tournament is None:
        return ["site"]
    return ["tournament", tournament.pk, tournament.slug]


def stored_entry_hash(
    e: AuditEntry, *, prev_hash: str, key: bytes | None, scope: Any = None
) -> str:
    """The hash of a stored entry's fields, following `prev_hash`, in the chain `scope`
    (by default the one the entry is stored in)."""
    if scope is None and e.hash_version >= 2:
        scope = chain_scope(e.tournament)
    return entry_hash(
        prev_hash=prev_hash,
        seq=e.seq,
        actor=e.actor,
        action=e.action,
        object_type=e.object_type,
        object_id=e.object_id,
        before=e.before,
        after=e.after,
        created_at=e.created_at.isoformat(),
        key=key,
        version=e.hash_version,
        scope=scope,
    )


@dataclass(frozen=True)
class AuditItem:
    """One entry to append: what audit_append takes, for audit_append_many."""

    action: Action
    obj: Any = None
    object_type: str = ""
    before: Any = None
    after: Any = None


@transaction.atomic
def audit_append(
    *,
    tournament: Tournament,
    user: AnyUser | None,
    action: Action,
    obj: Any = None,
    object_type: str = "",
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """Log a change; entries of a tournament are serialised by locking its row."""
    item = AuditItem(action=action, obj=obj, object_type=object_type, before=before, after=after)
    return audit_append_many(tournament=tournament, user=user, items=[item])[0]


@transaction.atomic
def audit_append_many(
    *, tournament: Tournament, user: AnyUser | None, items: list[AuditItem]
) -> list[AuditEntry]:
    """Log several changes by one actor at once (a bulk upload's records): one lock, one
    read of the head, one insert."""
    # The tournament's row first, as every service locks it (FOR NO KEY UPDATE, as
    # tournaments.services.common.tournament_lock does: this module sits below the services).
    Tournament.objects.select_for_update(no_key=True).filter(pk=tournament.pk).first()
    return _append_locked(tournament=tournament, user=user, items=items)


@transaction.atomic
def audit_site_append(
    *,
    user: AnyUser | None,
    action: Action,
    obj: Any = None,
    object_type: str = "",
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """Log a change that belongs to no tournament (a player's account, an invitation) in
    the site's own chain. Its one row is locked last, after any tournament and player."""
    SiteAudit.objects.get_or_create(pk=1)
    SiteAudit.objects.select_for_update().get(pk=1)
    item = AuditItem(action=action, obj=obj, object_type=object_type, before=before, after=after)
    return _append_locked(tournament=None, user=user, items=[item])[0]


def _append_locked(
    *, tournament: Tournament | None, user: AnyUser | None, items: list[AuditItem]
) -> list[AuditEntry]:
    """Append to the chain of `tournament` (None: the site's), whose lock the caller holds."""
    key_id, key = audit_key_current()
    scope = chain_scope(tournament)
    last = AuditEntry.objects.filter(tournament=tournament).order_by("-seq").first()
    seq = last.seq if last else 0
    prev = last.hash if last else GENESIS
    actor = getattr(user, "username", "") if getattr(user, "is_authenticated", False) else ""
    now = timezone.now()
    entries = []
    for item in items:
        seq += 1
        obj = item.obj
        otype = item.object_type or (type(obj).__name__ if obj is not None else "")
        oid = str(getattr(obj, "pk", "") or "")
        before, after = _as_json(item.before), _as_json(item.after)
        digest = entry_hash(
            prev_hash=prev,
            seq=seq,
            actor=actor,
            action=str(item.action),
            object_type=otype,
            object_id=oid,
            before=before,
            after=after,
            created_at=now.isoformat(),
            key=key,
            version=HASH_VERSION,
            scope=scope,
        )
        entries.append(
            AuditEntry(
                tournament=tournament,
                seq=seq,
                actor=actor,
                action=str(item.action),
                object_type=otype,
                object_id=oid,
                before=before,
                after=after,
                created_at=now,
                prev_hash=prev,
                hash=digest,
                key_id=key_id,
                hash_version=HASH_VERSION,
            )
        )
        prev = digest
    return AuditEntry.objects.bulk_create(entries)


def _as_json(value: Any) -> Any:
    """The value as it will be read back from the JSON column (dates as strings, tuples as
    lists), so that the hash written is the hash recomputed."""
    return json.loads(json.dumps(value, default=str)) if value is not None else None


def audit_head(*, tournament: Tournament | None) -> dict[str, Any] | None:
    """The chain's head to publish ({"seq", "hash"} of the last entry; None before any) of
    a tournament's chain (None: the site's): anyone who kept a copy can later show that
    entries were removed or rewritten."""
    last = AuditEntry.objects.filter(tournament=tournament).order_by("-seq").first()
    return {"seq": last.seq, "hash": last.hash} if last is not None else None


def audit_head_parse(text: str) -> tuple[int, str]:
    """A published head written SEQ:HASH (ValueError naming what is wrong)."""
    seq, sep, digest = text.strip().partition(":")
    if not sep or not seq.isascii() or not seq.isdigit():
        raise ValueError("a head is written SEQ:HASH, e.g. 42:3f0c…")
    digest = digest.lower()
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise ValueError("the head's hash is 64 hexadecimal digits")
    return int(seq), digest


def _entry_problem(
    e: AuditEntry, *, prev: str, keys: dict[str, bytes], scope: Any, version: int
) -> str:
    """What is wrong with one entry following `prev` in the chain `scope`, after entries of
    hash version up to `version`; "" when nothing."""
    if e.prev_hash != prev:
        return f"entry {e.seq} does not follow entry {e.seq - 1}"
    if not e.key_id:
        return f"entry {e.seq} has no keyed hash"
    if e.hash_version not in (1, HASH_VERSION):
        return f"entry {e.seq} has an unknown hash version {e.hash_version}"
    if e.hash_version < version:
        # Written in order, so a chain never goes back to the hash that binds no chain.
        return f"entry {e.seq} has an older hash version than the entry before it"
    key = keys.get(e.key_id)
    if key is None:
        return (
            f"entry {e.seq} was written with audit key {e.key_id!r}, which is not "
            "configured (KZ_AUDIT_KEY or KZ_AUDIT_RETIRED_KEYS)"
        )
    digest = stored_entry_hash(e, prev_hash=prev, key=key, scope=scope)
    if not hmac.compare_digest(digest, e.hash):
        # For version 2 this is also an entry moved here from another chain.
        return f"entry {e.seq} was changed after it was written"
    return ""


def audit_verify(
    *, tournament: Tournament | None, head: tuple[int, str] | None = None
) -> tuple[bool, int, str]:
    """(intact, entries checked, what is wrong) for a tournament's chain (None: the site's):
    each entry's keyed hash (version 2 bound to this chain), each link, no gap; with a
    published `head` (seq, hash) also that the chain still reaches it unchanged, so that
    removing the newest entries or rewriting the chain with fresh hashes shows. Without a
    head, entries removed from the end leave a well-formed chain: nothing can show it."""
    keys = audit_keys()
    scope = chain_scope(tournament)
    prev = GENESIS
    expected_seq = 1
    count = 0
    version = 1
    at_head = None
    for e in AuditEntry.objects.filter(tournament=tournament).order_by("seq").iterator():
        count += 1
        if e.seq != expected_seq:
            return False, count, f"entry {expected_seq} is missing (found {e.seq})"
        problem = _entry_problem(e, prev=prev, keys=keys, scope=scope, version=version)
        if problem:
            return False, count, problem
        if head is not None and e.seq == head[0]:
            at_head = e.hash
        prev, version = e.hash, e.hash_version
        expected_seq += 1
    if head is not None:
        seq, digest = head
        if at_head is None:
            return (
                False,
                count,
                f"the published head is entry {seq} but the chain ends at entry "
                f"{expected_seq - 1}: entries were removed",
            )
        if not hmac.compare_digest(at_head, digest):
            return False, count, f"entry {seq} differs from the published head: rewritten"
    return True, count, ""
