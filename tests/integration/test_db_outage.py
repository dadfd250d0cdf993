"""PostgreSQL going away under a request: the server terminates the request's own session
mid-request (pg_terminate_backend from another connection), or refuses connections at all.
A read is answered again on a new connection or with a 503 to retry; a write is never
repeated; never a 500 with a traceback."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from klinzha_site.page_cache import page_cache_local_clear
from tests.integration.test_redis_down import http
from tests.tournaments.services.factories import event_make, officials_make, round_make
from tests.workers import free_port, http_wait, service, web_server_argv
from tournaments.models import Player

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _admin_url() -> str:
    s = connection.settings_dict
    return f"postgresql://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/postgres"


class Terminator:
    """Before the `times` first statements that `when` picks, the server ends the session
    they run on, as a restart, a failover or an administrator would."""

    def __init__(self, when: Callable[[str], bool], times: int = 1) -> None:
        self.when, self.times, self.fired, self.seen = when, times, 0, 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if self.when(sql):
            self.seen += 1
            if self.fired < self.times:
                self.fired += 1
                pid = context["connection"].connection.info.backend_pid
                with psycopg.connect(_admin_url(), autocommit=True) as admin:
                    # Waits (up to 5 s) until the session is gone.
                    admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))
        return execute(sql, params, many, context)


def _site_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


def _tournament_query(sql: str) -> bool:
    return "tournaments_tournament" in sql


def test_a_read_whose_connection_the_server_ended_is_answered_on_a_new_one(caplog):
    t, (a, b) = event_make(officials_make(), slug="db-lost", names=("Ann", "Bob"))
    round_make(t, [(a, b)])
    paths = [f"/t/{t.slug}/standings/", f"/api/tournaments/{t.slug}/standings/"]
    expected = {path: Client().get(path).content for path in paths}
    for path in paths:
        page_cache_local_clear()  # a process that has not served it yet: the view runs
        caplog.clear()
        terminator = Terminator(_tournament_query)
        with connection.execute_wrapper(terminator), caplog.at_level(logging.INFO):
            response = Client().get(path)
        assert terminator.fired == 1
        assert response.status_code == 200 and response.content == expected[path]
        lines = _site_lines(caplog)
        assert len(lines) == 1 and "answered on a new one" in lines[0].getMessage(), [
            r.getMessage() for r in lines
        ]
        assert lines[0].exc_info is None


def test_a_read_that_keeps_failing_answers_503_with_retry_after(caplog):
    t, (a, b) = event_make(officials_make(), slug="db-gone", names=("Ann", "Bob"))
    round_make(t, [(a, b)])
    for path, kind in (
        (f"/t/{t.slug}/standings/", "text/html"),
        (f"/api/tournaments/{t.slug}/standings/", "application/json"),
    ):
        caplog.clear()
        terminator = Terminator(_tournament_query, times=2)  # the retry's session too
        with connection.execute_wrapper(terminator), caplog.at_level(logging.INFO):
            response = Client().get(path)
        assert terminator.fired == 2
        assert response.status_code == 503, response.content[:300]
        assert int(response["Retry-After"]) > 0
        assert response["Content-Type"].startswith(kind)
        if kind == "application/json":
            assert "database" in response.json()["detail"]
        lines = _site_lines(caplog)
        assert [r.getMessage().split(" (")[0] for r in lines] == ["database unreachable"]
        assert lines[0].exc_info is None and "Traceback" not in caplog.text
    assert Client().get(f"/t/{t.slug}/standings/").status_code == 200  # and it is back


def test_a_write_whose_connection_the_server_ended_is_never_repeated(caplog):
    officials = officials_make()
    officials.organizer.is_staff = True
    officials.organizer.save()
    token = Token.objects.create(user=officials.organizer).key
    inserts = Terminator(lambda sql: sql.startswith('INSERT INTO "tournaments_player"'))
    with connection.execute_wrapper(inserts), caplog.at_level(logging.INFO):
        response = Client().post(
            "/api/players/",
            {"name": "Kor", "rating": 1800},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {token}",
        )
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert inserts.seen == 1  # tried once, never again by the server
    assert not Player.objects.filter(name="Kor").exists()
    assert len(_site_lines(caplog)) == 1 and "Traceback" not in caplog.text
    again = Client().post(  # the client's own retry, on a database that answers
        "/api/players/",
        {"name": "Kor", "rating": 1800},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {token}",
    )
    assert again.status_code == 201 and Player.objects.filter(name="Kor").count() == 1


def test_a_database_that_refuses_connections_answers_503_not_500():
    """The site as deployed (the Procfile's web line) pointed at a port where no PostgreSQL
    listens: every request that needs the database is a 503 to retry, in one log line."""
    port = free_port(8390, 8399)
    base = f"http://127.0.0.1:{port}"
    nowhere = f"postgres://postgres@127.0.0.1:{free_port(5490, 5499)}/kz_nowhere"
    with service("web-nodb", web_server_argv(port), DATABASE_URL=nowhere) as web:
        http_wait(base + "/")
        for path in ("/", "/api/tournaments/"):
            status, body = http(base, "GET", path)
            assert status == 503, (path, body[:300])
        status, body = http(base, "POST", "/api/players/", {"name": "Kor"}, token="0" * 40)
        assert status == 503 and "detail" in json.loads(body)
        web.terminate()
        web.wait(15)
    log = (free_port.__globals__["ROOT"] / ".service-test-web-nodb.log").read_text()
    assert "Traceback" not in log and "Internal Server Error" not in log, log[-2000:]
    assert log.count("database unreachable") >= 3
