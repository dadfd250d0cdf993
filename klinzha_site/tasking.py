"""Queueing Celery tasks by their registered name: services name the task they hand work to
instead of importing the task modules that sit above them, and a broker that is down leaves
the work stored for the sweep instead of failing the request."""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.conf import settings

log = logging.getLogger(__name__)


def task_send(name: str, *args: Any) -> bool:
    """Queue task `name` with `args`; False (logged) when no broker takes it. In-process
    mode (CELERY_TASK_ALWAYS_EAGER) runs it at once and lets its errors through."""
    if name not in current_app.tasks:
        # Outside a worker the apps' task modules are discovered only when first asked for.
        current_app.loader.import_default_modules()
    task = current_app.tasks[name]
    try:
        task.apply_async(args=list(args), retry=False)
    except Exception as exc:  # noqa: BLE001 - any broker failure leaves the work stored
        if settings.CELERY_TASK_ALWAYS_EAGER:
            raise
        log.warning("task %s%r not queued: broker unavailable (%s)", name, args, exc)
        return False
    return True
