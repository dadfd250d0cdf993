"""Test settings: fast password hashing, a test-only secret key, a Redis database per
parallel test process."""

import os

from klinzha_site.settings.base import *  # noqa: F403

SECRET_KEY = "test-secret-key-not-for-production-0123456789abcdefghijklmnopqrstuvwxyz"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEBUG = False
# No page is rendered ahead by a worker unless a test asks for it: a test reading a page
# right after a change would otherwise race the worker's render.
KZ_PAGE_PRERENDER = False


def _redis_db_of_worker(url: str, worker: str) -> str:
    """`url` moved to the Redis database of pytest-xdist worker `worker` (gw0, gw1, ...): the
    base database number plus the worker's index."""
    base, _, db = url.rpartition("/")
    index = int(worker.removeprefix("gw"))
    return f"{base}/{(int(db) if db.isdigit() else 0) + index}"


# Under pytest-xdist each worker process has its own test database (pytest-django names it
# per worker) and must have its own Redis database too: every test empties the cache
# (a FLUSHDB), and the broker's queues would otherwise carry one worker's tasks to the
# other's Celery worker. Processes a test starts get this URL (tests.workers.service_env).
_XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL and _XDIST_WORKER.startswith("gw"):  # noqa: F405
    REDIS_URL = _redis_db_of_worker(REDIS_URL, _XDIST_WORKER)  # noqa: F405
    CACHES["default"]["LOCATION"] = REDIS_URL  # noqa: F405
    CELERY_BROKER_URL = CELERY_RESULT_BACKEND = REDIS_URL
    CHANNEL_LAYERS = channel_layers(REDIS_URL)  # noqa: F405
