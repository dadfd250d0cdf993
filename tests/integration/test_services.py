"""The real services: PostgreSQL through the ORM, Redis as cache, a Celery worker process."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection

pytestmark = pytest.mark.integration


@pytest.mark.django_db
def test_database_is_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cur:
        cur.execute("select 41 + 1")
        assert cur.fetchone()[0] == 42


def test_cache_is_redis():
    from django.conf import settings

    assert "redis" in settings.CACHES["default"]["BACKEND"].lower()
    cache.set("kz-integration", {"n": 7}, 30)
    assert cache.get("kz-integration") == {"n": 7}


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_tasks(celery_worker_process):
    from django.conf import settings

    from games.tasks import ping

    assert not settings.CELERY_TASK_ALWAYS_EAGER
    result = ping.delay(41)
    assert result.get(timeout=30) == 42
    assert celery_worker_process.poll() is None
