"""Login rate limiting (django-axes) and CSRF protection of the pages and the API."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tournaments import services

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def arbiter():
    user = User.objects.create_user("arb", password="right-password-1", is_staff=True)
    services.tournament_create(
        name="Sec Open", slug="sec-open", start_date=date(2026, 11, 1), organizer=user
    )
    return user


def test_login_is_locked_after_repeated_failures(arbiter, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        resp = client.post("/accounts/login/", {"username": "arb", "password": "wrong"})
        assert resp.status_code == 200 and "_auth_user_id" not in client.session
    # The limit is reached: even the right password is refused now.
    resp = client.post("/accounts/login/", {"username": "arb", "password": "wrong"})
    assert resp.status_code == 429
    resp = client.post("/accounts/login/", {"username": "arb", "password": "right-password-1"})
    assert resp.status_code == 429 and "_auth_user_id" not in client.session
    # Another account from the same address is not locked out by someone else's failures.
    User.objects.create_user("other", password="other-password-1")
    resp = client.post("/accounts/login/", {"username": "other", "password": "other-password-1"})
    assert resp.status_code == 302


def test_a_successful_login_before_the_limit_resets_the_count(arbiter, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        client.post("/accounts/login/", {"username": "arb", "password": "wrong"})
    resp = client.post("/accounts/login/", {"username": "arb", "password": "right-password-1"})
    assert resp.status_code == 302
    client.post("/accounts/logout/")
    resp = client.post("/accounts/login/", {"username": "arb", "password": "wrong"})
    assert resp.status_code == 200


def test_pages_refuse_a_post_without_the_csrf_token(arbiter):
    client = Client(enforce_csrf_checks=True)
    client.force_login(arbiter)
    resp = client.post("/arbiter/t/sec-open/entrants/", {"name": "Zed"})
    assert resp.status_code == 403
    assert not arbiter.organized_tournaments.get().registrations.exists()
    page = client.get("/arbiter/t/sec-open/")
    token = page.cookies["csrftoken"].value
    resp = client.post(
        "/arbiter/t/sec-open/entrants/", {"name": "Zed", "csrfmiddlewaretoken": token}
    )
    assert resp.status_code == 302
    assert arbiter.organized_tournaments.get().registrations.count() == 1


def test_api_session_writes_need_csrf_but_token_writes_do_not(arbiter):
    api = APIClient(enforce_csrf_checks=True)
    api.force_login(arbiter)
    resp = api.patch("/api/tournaments/sec-open/", {"venue": "Hall"}, format="json")
    assert resp.status_code == 403 and "CSRF" in resp.json()["detail"]
    token = Token.objects.create(user=arbiter)
    api = APIClient(enforce_csrf_checks=True)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    resp = api.patch("/api/tournaments/sec-open/", {"venue": "Hall"}, format="json")
    assert resp.status_code == 200 and resp.json()["venue"] == "Hall"


def test_logout_needs_a_post(arbiter):
    client = Client()
    client.force_login(arbiter)
    assert client.get("/accounts/logout/").status_code == 405
    assert "_auth_user_id" in client.session
