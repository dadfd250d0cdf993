"""Redis unreachable from the start (nothing listens): one line for the outage, no traceback
per operation that failed."""

from __future__ import annotations

import logging

import pytest
from django.test import Client, override_settings

from klinzha_site.page_cache import page_cache_local_clear
from klinzha_site.redis_outage import redis_answered
from tests.tournaments.services.factories import event_make, officials_make, round_make

DEAD_REDIS = {
    "default": {
        "BACKEND": "klinzha_site.redis_outage.OutageLoggedRedisCache",
        "LOCATION": "redis://127.0.0.1:1/1",  # nothing listens on port 1
        "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.5},
    }
}


@pytest.mark.django_db
def test_an_unreachable_redis_is_logged_once(caplog):
    t, (a, b) = event_make(officials_make(), slug="no-redis", names=("Ann", "Bob"))
    round_make(t, [(a, b)])
    client = Client()
    redis_answered()  # no outage left over from another test
    with override_settings(CACHES=DEAD_REDIS), caplog.at_level(logging.INFO):
        for n in range(50):
            page_cache_local_clear()
            path = (f"/t/{t.slug}/standings/", f"/api/tournaments/{t.slug}/rounds/")[n % 2]
            assert client.get(path).status_code == 200
    lines = [r for r in caplog.records if r.name.startswith(("klinzha_site", "django_redis"))]
    assert len(lines) == 1 and lines[0].getMessage().startswith("Redis unreachable (")
    assert "pages are computed without the cache" in lines[0].getMessage()
    assert lines[0].exc_info is None and "Traceback" not in caplog.text
    with caplog.at_level(logging.INFO):
        redis_answered()  # as the first operation that succeeds
    assert "Redis back after " in caplog.records[-1].getMessage()
