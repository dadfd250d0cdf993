"""Schemathesis against the OpenAPI schema: generated requests, anonymous and as the
demo's arbiter, must never make the API answer with a server error, and every answer with a
status the schema describes must fit its schema (the refusals' shapes too)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error, response_schema_conformance

from klinzha_site.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
# A status no operation lists (a control character refused by the middleware, a method not
# allowed) is the site's, not the operation's: only the bodies of the described ones are
# checked.
CHECKS = [not_a_server_error, response_schema_conformance]

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture(autouse=True)
def _keep_the_test_connection():  # type: ignore[no-untyped-def]
    """The WSGI handler closes the database connection after each request; inside a test's
    transaction that would close it under the test (Django's own test client does this
    too)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def _demo_once(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """The demo event and its arbiter's token, built once for the module inside a
    transaction rolled back at its end. Each test (one API operation) runs inside
    pytest-django's own transaction, a savepoint within this one, and is rolled back to it,
    so every operation starts from the same fresh demo, as when each test built its own."""
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db import transaction
    from rest_framework.authtoken.models import Token

    from tournaments.demo import demo_load

    with django_db_blocker.unblock(), transaction.atomic():
        t, login, _, _ = demo_load(rounds_played=2)
        user = get_user_model().objects.get(username=login)
        key = Token.objects.get_or_create(user=user)[0].key
        cache.clear()
        DEMO.update(slug=t.slug, game=t.rounds.get(number=1).games.first().pk)
        yield key
        transaction.set_rollback(True)


DEMO: dict[str, Any] = {}


@pytest.fixture
def arbiter_token(_demo_once, db):  # type: ignore[no-untyped-def]
    return _demo_once


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_server_errors_as_the_arbiter(case, arbiter_token):
    case.call_and_validate(headers={"Authorization": f"Token {arbiter_token}"}, checks=CHECKS)


@schema.parametrize()
@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_server_errors_anonymous(case, arbiter_token):
    case.call_and_validate(checks=CHECKS)


# Hostile values for every field of every request body (issue 14): digits that are not ASCII,
# numbers past any column, NUL and control characters, huge text, the wrong JSON types.
HOSTILE: list[Any] = [
    "²",
    "١٢",
    10**30,
    -(2**63),
    1e308,
    -1,
    "\x00",
    "a\x00b",
    "\x1b[31m",
    "x" * 100_000,
    "9" * 5000,
    "2026-02-30",
    [],
    {},
    None,
    True,
    json.loads("[" * 40 + "1" + "]" * 40),
]
DEEP = ["[" * 50_000 + "]" * 50_000, '{"a":' * 20_000 + "1" + "}" * 20_000, "[1, NaN]", "{"]


def operations() -> list[tuple[str, str, list[str]]]:
    """Every operation of the published schema: (method, path, its body's fields)."""
    document = schema.raw_schema
    found = []
    for path, item in document["paths"].items():
        for method, op in item.items():
            if method not in ("get", "post", "patch", "put", "delete"):
                continue
            fields: list[str] = []
            for media in op.get("requestBody", {}).get("content", {}).values():
                ref = media.get("schema", {}).get("$ref", "")
                component = document["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {})
                fields = sorted(component.get("properties", {}))
            found.append((method, path, fields))
    return found


def test_the_schema_names_every_api_route() -> None:
    """Schemathesis sees only what the schema names: every route of the API must be there."""
    from django.urls import get_resolver

    routes: set[str] = set()

    def walk(patterns: Any, prefix: str) -> None:
        for p in patterns:
            text = prefix + str(p.pattern).lstrip("^").rstrip("$")
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns, text)
            elif text.startswith("api/") and "format" not in text and "schema" not in text:
                routes.add(text)

    walk(get_resolver().url_patterns, "")
    documented = {path for _, path, _ in operations()}
    assert len(documented) >= 40 and len(routes) >= 40
    for route in routes:
        if route in ("api/", "api/docs/", "api/redoc/"):
            continue
        shape = route.replace("(?P<", "{").replace(">[^/.]+)", "}").replace(">\\d+)", "}")
        shape = "/" + shape.replace(r">\d+)", "}").replace(">[^/]+)", "}")
        assert any(_same_route(shape, d) for d in documented), f"{route} is not in the schema"


def _same_route(route: str, documented: str) -> bool:
    a, b = route.strip("/").split("/"), documented.strip("/").split("/")
    return len(a) == len(b) and all(x == y or x.startswith("{") for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(("method", "path", "fields"), operations(), ids=lambda v: str(v))
def test_hostile_bodies_and_ids_never_answer_500(arbiter_token, method, path, fields) -> None:
    """Every operation with every field set to each hostile value, and bodies nested deep or
    broken, as the demo's arbiter, with real ids in the path: never a server error."""
    from django.db import transaction
    from rest_framework.test import APIClient

    url = path.format(
        slug=DEMO["slug"],
        id=DEMO["game"],
        job_id=1,
        adjustment=1,
        pk=DEMO["game"],
        number=1,
        pool="laws",
    )
    api = APIClient(raise_request_exception=False)
    api.credentials(HTTP_AUTHORIZATION=f"Token {arbiter_token}")
    bodies: list[str] = [json.dumps({f: v for f in fields}) for v in HOSTILE] + DEEP
    if method == "get":
        queries = [{"player": v, "limit": v, "offset": v} for v in ("²", "9" * 40, "\x00")]
        calls = [lambda q=q: api.get(url, q) for q in queries]
    else:
        send = getattr(api, method)
        calls = [lambda b=b: send(url, b, content_type="application/json") for b in bodies]
    for call in calls:
        with transaction.atomic():
            resp = call()
            transaction.set_rollback(True)
        assert resp.status_code < 500, f"{method.upper()} {url}: {resp.status_code}"
