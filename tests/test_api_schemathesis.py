"""Schemathesis against the OpenAPI schema: generated requests, anonymous and as the
demo's arbiter, must never make the API answer with a server error."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from klinzha_site.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)

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
        _, login, _, _ = demo_load(rounds_played=2)
        user = get_user_model().objects.get(username=login)
        key = Token.objects.get_or_create(user=user)[0].key
        cache.clear()
        yield key
        transaction.set_rollback(True)


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
    case.call_and_validate(
        headers={"Authorization": f"Token {arbiter_token}"}, checks=[not_a_server_error]
    )


@schema.parametrize()
@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_server_errors_anonymous(case, arbiter_token):
    case.call_and_validate(checks=[not_a_server_error])
