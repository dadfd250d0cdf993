"""The page cache: Redis down falls back on the process's own copy and then on rendering
(never a 500); the process's copy is bounded; a page carrying a CSRF token is never kept."""

from __future__ import annotations

import logging

import pytest
from django.core.cache import caches
from django.db import connection
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings
from django.test.utils import CaptureQueriesContext

from klinzha_site import page_cache
from klinzha_site.page_cache import CachedPage, page_cache_local_clear, page_serve
from tests.tournaments.services.factories import event_make, officials_make, round_make

DEAD_REDIS = {
    "default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/1",  # nothing listens on port 1
        "OPTIONS": {
            "IGNORE_EXCEPTIONS": True,
            "SOCKET_CONNECT_TIMEOUT": 0.5,
            "SOCKET_TIMEOUT": 0.5,
        },
    }
}


@pytest.mark.django_db
def test_redis_down_falls_back_on_the_local_copy_then_on_rendering(caplog):
    t, (a, b, c, d) = event_make(officials_make(), slug="redis-down")
    round_make(t, [(a, b), (c, d)])
    paths = [
        f"/t/{t.slug}/standings/",
        f"/t/{t.slug}/crosstable/",
        f"/t/{t.slug}/round/1/",
        f"/p/{a.pk}/",
        f"/api/tournaments/{t.slug}/rounds/",
    ]
    with override_settings(CACHES=DEAD_REDIS), caplog.at_level(logging.ERROR):
        assert type(caches["default"]).__name__ == "RedisCache"
        client = Client()
        first = {p: client.get(p) for p in paths}
        assert all(r.status_code == 200 for r in first.values())
        for path, response in first.items():
            with CaptureQueriesContext(connection) as queries:
                again = client.get(path)
            assert again.status_code == 200 and again.content == response.content
            assert len(queries) <= 1, path  # the process's copy, Redis unreachable
        page_cache_local_clear()
        for path, response in first.items():
            again = client.get(path)
            assert again.status_code == 200 and again.content == response.content


def test_the_local_copy_is_bounded_and_drops_the_least_recent():
    tier = page_cache._LocalTier(max_bytes=250)

    def page(n: int) -> CachedPage:
        return CachedPage(b"x" * 100, None, "text/html", (), f'"{n}"', 0.0)

    tier.put("a", page(1))
    tier.put("b", page(2))
    assert tier.get("a") is not None  # a is now the more recent
    tier.put("c", page(3))
    assert tier.get("b") is None and tier.get("a") is not None and tier.get("c") is not None
    tier.put("big", CachedPage(b"x" * 300, None, "text/html", (), '"4"', 0.0))
    assert tier.get("big") is None and tier.get("a") is not None


def test_a_page_with_a_csrf_token_or_a_cookie_is_served_but_never_kept():
    page_cache_local_clear()
    request = RequestFactory().get("/x/")
    renders: list[int] = []

    def with_token() -> HttpResponse:
        renders.append(1)
        return HttpResponse(b'<input name="csrfmiddlewaretoken" value="s3cret">')

    def with_cookie() -> HttpResponse:
        renders.append(2)
        response = HttpResponse(b"hello")
        response.set_cookie("sessionid", "abc")
        return response

    for _ in range(2):
        assert b"s3cret" in page_serve(request, key="token", render=with_token).content
        assert page_serve(request, key="cookie", render=with_cookie).content == b"hello"
    assert renders == [1, 2, 1, 2]
    posted = RequestFactory().post("/x/")
    assert page_serve(posted, key="post", render=lambda: HttpResponse(b"ok")).content == b"ok"
    assert "ETag" not in page_serve(posted, key="post", render=lambda: HttpResponse(b"ok"))
