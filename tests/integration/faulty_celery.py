"""The site's Celery app in a worker whose rules engine raises on records tagged
[Fault "raise"]: a real worker process meeting a validation that raises (issue 22 item 12)."""

from __future__ import annotations

from typing import Any

from celery.signals import worker_process_init, worker_ready

from klinzha_site.celery import app

__all__ = ["app"]


def _engine_break(**_: Any) -> None:
    # Imported once the worker has set Django up (this module is loaded before it is).
    from games.services import records

    real = records.validate_record
    if getattr(real, "broken", False):
        return

    def validate(record: Any) -> Any:
        if record.tags.get("Fault") == "raise":
            raise RuntimeError("the engine broke on this record")
        return real(record)

    validate.broken = True  # type: ignore[attr-defined]
    records.validate_record = validate


# In the pool's processes (prefork) and in the main one (solo).
worker_process_init.connect(_engine_break, weak=False)
worker_ready.connect(_engine_break, weak=False)
