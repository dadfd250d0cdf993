"""Stored verdicts get their messages' codes: each error and warning of a record validated
before messages had codes is read back against the catalogue (rules.messages.parse_reason)
and given the code and parameters that produce its English; one no template matches keeps
code None and shows its English, as before."""

from __future__ import annotations

from typing import Any

from django.db import migrations

from rules.messages import parse_reason

BATCH = 500


def _coded(entry: Any) -> Any:
    """The entry with "code" and "params" filled from its reason (entries that have a code
    key already are left alone)."""
    if not isinstance(entry, dict) or "code" in entry:
        return entry
    found = parse_reason(entry["reason"]) if isinstance(entry.get("reason"), str) else None
    code, params = found if found is not None else (None, {})
    return {**entry, "code": code, "params": params}


def _uncoded(entry: Any) -> Any:
    if not isinstance(entry, dict):
        return entry
    return {k: v for k, v in entry.items() if k not in ("code", "params")}


def _rewrite(apps: Any, change: Any) -> None:
    RecordSubmission = apps.get_model("games", "RecordSubmission")
    rows = RecordSubmission.objects.only("pk", "error", "warnings").order_by("pk")
    batch = []
    for sub in rows.iterator(chunk_size=BATCH):
        error = change(sub.error) if sub.error else sub.error
        warnings = [change(w) for w in sub.warnings] if isinstance(sub.warnings, list) else []
        if error == sub.error and warnings == (sub.warnings or []):
            continue
        sub.error, sub.warnings = error, warnings
        batch.append(sub)
        if len(batch) >= BATCH:
            RecordSubmission.objects.bulk_update(batch, ["error", "warnings"])
            batch = []
    if batch:
        RecordSubmission.objects.bulk_update(batch, ["error", "warnings"])


def forwards(apps: Any, schema_editor: Any) -> None:
    _rewrite(apps, _coded)


def backwards(apps: Any, schema_editor: Any) -> None:
    _rewrite(apps, _uncoded)


class Migration(migrations.Migration):
    dependencies = [("games", "0012_input_bounds")]

    operations = [migrations.RunPython(forwards, backwards)]
