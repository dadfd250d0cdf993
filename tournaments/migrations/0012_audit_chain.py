"""A tamper-evident audit chain: keyed hashes and the published chain head (issue 14).

Existing chains are carried over: each tournament's entries are hashed again in order with
HMAC-SHA256 under the current audit key (KZ_AUDIT_KEY, named KZ_AUDIT_KEY_ID), as far as
their plain SHA-256 chain is intact. From the first entry that does not verify on, entries
keep their old hash and no key, so the break still shows where it was. The hash is copied
here rather than imported: a migration must not change when the code does."""

import hashlib
import hmac
import json

from django.conf import settings
from django.db import migrations, models

GENESIS = "0" * 64


def _hash(e, prev, key):
    body = json.dumps(
        [
            prev,
            e.seq,
            e.actor,
            e.action,
            e.object_type,
            e.object_id,
            e.before,
            e.after,
            e.created_at.isoformat(),
        ],
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        default=str,
    ).encode("utf-8")
    if key is None:
        return hashlib.sha256(body).hexdigest()
    return hmac.new(key, body, hashlib.sha256).hexdigest()


def _rehash(apps, key_id, key, old_key):
    """Walk each chain under `old_key` (None: plain SHA-256), writing it anew under `key`
    while it verifies."""
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament_id in Tournament.objects.values_list("pk", flat=True):
        old_prev, new_prev, seq = GENESIS, GENESIS, 1
        changed = []
        for e in AuditEntry.objects.filter(tournament_id=tournament_id).order_by("seq"):
            if e.seq != seq or e.prev_hash != old_prev or _hash(e, old_prev, old_key) != e.hash:
                break
            old_prev = e.hash
            e.prev_hash, e.key_id = new_prev, key_id
            e.hash = _hash(e, new_prev, key)
            new_prev = e.hash
            changed.append(e)
            seq += 1
        AuditEntry.objects.bulk_update(changed, ["prev_hash", "hash", "key_id"], batch_size=500)


def forwards(apps, schema_editor):
    _rehash(apps, settings.KZ_AUDIT_KEY_ID, settings.KZ_AUDIT_KEY.encode("utf-8"), None)


def backwards(apps, schema_editor):
    _rehash(apps, "", None, settings.KZ_AUDIT_KEY.encode("utf-8"))


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0011_italian_spindle")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AddField(
            model_name="auditentry",
            name="key_id",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.RunPython(forwards, backwards),
    ]
