"""Redis down (a private redis-server, killed and started again): the site logs the outage
once when it starts and once when it ends, with a count, never a traceback per miss."""

from __future__ import annotations

import logging
import re

import pytest
from django.conf import settings
from django.test import Client, override_settings

from klinzha_site.page_cache import page_cache_local_clear
from klinzha_site.redis_outage import redis_answered
from tests.tournaments.services.factories import event_make, officials_make, round_make
from tests.workers import redis_server

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

STARTED = "Redis unreachable"
ENDED = re.compile(r"Redis back after (\d+) failed operations over [\d.]+ s")


def _lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """Every record about Redis or the cache: the site's own, django-redis', redis-py's."""
    names = ("klinzha_site", "django_redis", "redis")
    return [r for r in caplog.records if r.name.split(".")[0] in names]


def test_an_outage_is_logged_once_when_it_starts_and_once_when_it_ends(caplog):
    t, (a, b, c, d) = event_make(officials_make(), slug="outage-log")
    round_make(t, [(a, b), (c, d)])
    paths = [f"/t/{t.slug}/standings/", f"/t/{t.slug}/crosstable/", f"/p/{a.pk}/"]
    client = Client()
    redis_answered()  # no outage left over from another test
    with redis_server() as redis:
        # The cache as the settings configure it, on the private server.
        caches = {"default": {**settings.CACHES["default"], "LOCATION": redis.url}}
        with override_settings(CACHES=caches), caplog.at_level(logging.INFO):
            for path in paths:  # warm
                assert client.get(path).status_code == 200
            assert not _lines(caplog)
            redis.stop()
            for n in range(200):
                page_cache_local_clear()  # as the other processes, which miss every time
                response = client.get(paths[n % len(paths)])
                assert response.status_code == 200
            during = _lines(caplog)
            assert [r.getMessage()[: len(STARTED)] for r in during] == [STARTED], [
                r.getMessage()[:200] for r in during[:5]
            ]
            assert during[0].exc_info is None and "Traceback" not in caplog.text
            caplog.clear()
            redis.start()
            page_cache_local_clear()
            assert client.get(paths[0]).status_code == 200
            assert client.get(paths[1]).status_code == 200
            after = _lines(caplog)
            assert len(after) == 1, [r.getMessage() for r in after]
            ended = ENDED.fullmatch(after[0].getMessage())
            assert ended is not None, after[0].getMessage()
            assert int(ended.group(1)) >= 200  # each request missed at least once
