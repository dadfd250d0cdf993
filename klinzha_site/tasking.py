"""Queueing Celery tasks by their registered name: services name the task they hand work to
instead of importing the task modules that sit above them, and a broker that is down leaves
the work stored for the sweep instead of failing or holding up the request."""

from __future__ import annotations

import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as SendTimeout
from typing import Any

from celery import current_app
from django.conf import settings

from klinzha_site.redis_outage import redis_answered, redis_failed

log = logging.getLogger(__name__)

# Sends run on a few threads so that a request waits at most KZ_TASK_SEND_DEADLINE seconds
# even when the broker accepts the connection and then never answers; a send cut short may
# still land later, which the idempotent tasks allow.
_senders = ThreadPoolExecutor(max_workers=4, thread_name_prefix="kz-task-send")


def _senders_new() -> None:
    """A forked child (a prefork worker, a preloading web server) gets threads of its own."""
    global _senders
    _senders = ThreadPoolExecutor(max_workers=4, thread_name_prefix="kz-task-send")


os.register_at_fork(after_in_child=_senders_new)
# After a failure the broker is taken for down for KZ_BROKER_RETRY_AFTER seconds: requests
# in an outage do not each wait for it again; the sweep queues their work once it is back.
_down = {"until": 0.0}
_down_lock = threading.Lock()


def _task(name: str) -> Any:
    if name not in current_app.tasks:
        # Outside a worker the apps' task modules are discovered only when first asked for.
        current_app.loader.import_default_modules()
    return current_app.tasks[name]


def broker_down_mark(seconds: float | None = None) -> None:
    """Take the broker for down (seconds=0: for up again, as a test or a sweep finds it)."""
    wait = settings.KZ_BROKER_RETRY_AFTER if seconds is None else seconds
    with _down_lock:
        _down["until"] = time.monotonic() + wait


def task_send(name: str, *args: Any, expires: float | None = None) -> bool:
    """Queue task `name` with `args`; False (logged) when no broker takes it within the
    deadline. In-process mode (CELERY_TASK_ALWAYS_EAGER) runs it at once and lets its
    errors through. `expires`: seconds after which a worker drops it unrun."""
    task = _task(name)
    if settings.CELERY_TASK_ALWAYS_EAGER:
        task.apply_async(args=list(args))
        return True
    if time.monotonic() < _down["until"]:
        log.warning("task %s%r not queued: the broker was down a moment ago", name, args)
        return False
    # Nobody reads these tasks' results: without a result the send never waits for the
    # result store either (its reconnection retries took 19 s with Redis down).
    sent = _senders.submit(
        task.apply_async, args=list(args), retry=False, ignore_result=True, expires=expires
    )
    try:
        sent.result(timeout=settings.KZ_TASK_SEND_DEADLINE)
    except SendTimeout as exc:
        broker_down_mark()
        redis_failed(exc)
        log.warning("task %s%r not queued: the broker did not answer in time", name, args)
        return False
    except Exception as exc:  # noqa: BLE001 - any broker failure leaves the work stored
        broker_down_mark()
        redis_failed(exc)
        log.warning("task %s%r not queued: broker unavailable (%s)", name, args, exc)
        return False
    redis_answered()
    return True
