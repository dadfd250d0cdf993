"""Celery options shared by the tasks whose work must not be lost."""

from __future__ import annotations

from typing import Any

from django.db import OperationalError

# Acknowledged only once done, and given back to the broker if the worker dies, so that
# another worker takes the task over; a database that is briefly away is retried with
# growing delays. A task may therefore run more than once: it must be idempotent. Each
# task sets its own max_retries.
RELIABLE: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
}
