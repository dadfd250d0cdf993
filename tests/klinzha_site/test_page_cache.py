"""The page cache: Redis down falls back on the process's own copy and then on rendering
(never a 500); the process's copy is bounded; a page carrying a CSRF token is never kept."""

from __future__ import annotations

import logging
from typing import Any

import psycopg
import pytest
from django.core.cache import caches
from django.db import OperationalError, connection
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


# Through the shared cache, Redis in the PostgreSQL pass: a database test though it opens none.
@pytest.mark.database
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


def _fast_served(client: Client, path: str) -> HttpResponse:
    """The page once through the stack (stored for the fast path), then again."""
    assert client.get(path).status_code == 200
    return client.get(path)


@pytest.mark.django_db(transaction=True)
def test_the_validator_is_a_prepared_statement_on_postgresql():
    """Outside a transaction (a request's), the fast path's one query is prepared on the
    connection: neither planned again nor preceded by a health check."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    t, (a, b) = event_make(officials_make(), slug="prepared", names=("Ann", "Bob"))
    round_make(t, [(a, b)])
    client = Client()
    for path in (f"/t/{t.slug}/standings/", f"/p/{a.pk}/"):
        with CaptureQueriesContext(connection) as queries:
            again = _fast_served(client, path)
        assert again.status_code == 200
        # The fast path's query bypasses Django's cursor: nothing more than the first
        # request's own queries is logged, no health check (SELECT 1) among them.
        assert not any(q["sql"] == "SELECT 1" for q in queries.captured_queries)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = " ".join(row[0] for row in cursor.fetchall())
    assert "published_version" in prepared and "COUNT(r.id)" in prepared
    # Django's own queries stay unprepared, as it configured the connection.
    assert connection.connection.prepare_threshold is None


@pytest.mark.django_db(transaction=True)
def test_a_connection_the_server_closed_is_replaced_and_the_page_served(monkeypatch):
    """The validator's query is the connection's health check: when the server closed the
    connection (on SQLite: when the query fails), the request goes through the stack on a
    new one (never a 500)."""
    t, (a, b) = event_make(officials_make(), slug="closed", names=("Ann", "Bob"))
    round_make(t, [(a, b)])
    path = f"/t/{t.slug}/standings/"
    client = Client()
    expected = _fast_served(client, path).content
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        with psycopg.connect(_admin_url(), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    else:
        real = page_cache._validator_row
        failures = [OperationalError("the server closed the connection")]

        def failing(*args: Any) -> Any:
            if failures:
                raise failures.pop()
            return real(*args)

        monkeypatch.setattr(page_cache, "_validator_row", failing)
    response = client.get(path)
    assert response.status_code == 200 and response.content == expected
    assert client.get(path).content == expected


def _admin_url() -> str:
    s = connection.settings_dict
    return f"postgresql://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/postgres"


@pytest.mark.django_db
def test_a_page_from_the_fast_path_says_its_length():
    """As a static file does: without Content-Length the server would send it in chunks."""
    t, (a, b) = event_make(officials_make(), slug="length", names=("Ann", "Bob"))
    round_make(t, [(a, b)])
    client = Client()
    for path in (f"/t/{t.slug}/crosstable/", f"/p/{a.pk}/", f"/api/tournaments/{t.slug}/rounds/"):
        for encoding in ("identity", "gzip"):
            for _ in range(2):  # through the stack, then the fast path
                response = client.get(path, HTTP_ACCEPT_ENCODING=encoding)
                assert response.status_code == 200
                assert response["Content-Length"] == str(len(response.content)), path
            etag = response["ETag"]
            again = client.get(path, HTTP_ACCEPT_ENCODING=encoding, HTTP_IF_NONE_MATCH=etag)
            assert again.status_code == 304 and again["ETag"] == etag


@pytest.mark.django_db(transaction=True)
def test_without_prepared_statements_the_fast_path_still_answers(monkeypatch):
    """KZ_PAGE_VALIDATOR_PREPARED off (a pooler that cannot keep them): nothing prepared."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    monkeypatch.setattr(page_cache, "VALIDATOR_PREPARED", False)
    connection.close()  # a connection of its own, with nothing prepared yet
    t, (a, b) = event_make(officials_make(), slug="unprepared", names=("Ann", "Bob"))
    round_make(t, [(a, b)])
    client = Client()
    for path in (f"/t/{t.slug}/standings/", f"/p/{a.pk}/"):
        first = client.get(path)
        assert _fast_served(client, path).content == first.content
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        assert cursor.fetchone()[0] == 0
