"""Login rate limiting (django-axes) and CSRF protection of the pages and the API."""

from __future__ import annotations

import time
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


def _attempt(client: Client, password: str, address: str):
    return client.post(
        "/accounts/login/", {"username": "arb", "password": password}, REMOTE_ADDR=address
    )


@pytest.fixture
def delay(settings):
    settings.KZ_LOGIN_DELAY_AFTER = 6
    settings.KZ_LOGIN_DELAY_FIRST = 1.0
    settings.KZ_LOGIN_DELAY_MAX = 2.0
    return settings


def test_guessing_one_account_from_many_addresses_meets_a_growing_delay(arbiter, delay):
    """Below axes' limit at every address (two tries each), yet the account's failures add
    up: the next try waits, whatever the password, and says how long."""
    client = Client()
    for n in range(delay.KZ_LOGIN_DELAY_AFTER):
        resp = _attempt(client, "wrong", f"10.0.0.{n // 2}")
        assert resp.status_code == 200 and "try again" not in resp.content.decode()
    resp = _attempt(client, "right-password-1", "10.0.9.9")
    assert resp.status_code == 429 and resp["Retry-After"] == "1"
    assert "try again in 1 second" in resp.content.decode()
    assert "_auth_user_id" not in client.session
    time.sleep(1.1)
    # Past the wait, a wrong password is one more failure, and the wait doubles.
    assert _attempt(client, "wrong", "10.0.9.9").status_code == 200
    resp = _attempt(client, "right-password-1", "10.0.9.8")
    assert resp.status_code == 429 and "try again in 2 seconds" in resp.content.decode()
    time.sleep(2.1)
    # Up to the cap: never longer than KZ_LOGIN_DELAY_MAX.
    assert _attempt(client, "wrong", "10.0.9.7").status_code == 200
    assert _attempt(client, "wrong", "10.0.9.7")["Retry-After"] == "2"


def test_the_right_password_after_the_wait_always_works(arbiter, delay):
    """Tries made during the wait are refused unchecked and count for nothing: whoever keeps
    guessing cannot keep the arbiter out past the wait."""
    client = Client()
    for n in range(delay.KZ_LOGIN_DELAY_AFTER):
        _attempt(client, "wrong", f"10.1.0.{n // 2}")
    for n in range(20):  # someone hammering during the wait, from many addresses
        assert _attempt(client, "wrong", f"10.2.0.{n}").status_code == 429
    time.sleep(1.1)
    arbiter_client = Client()
    resp = _attempt(arbiter_client, "right-password-1", "192.0.2.1")
    assert resp.status_code == 302 and "_auth_user_id" in arbiter_client.session
    # The login forgot the failures: a wrong password now is an ordinary failure.
    assert _attempt(client, "wrong", "10.3.0.1").status_code == 200


def test_another_account_is_not_delayed(arbiter, delay):
    User.objects.create_user("other", password="other-password-1")
    client = Client()
    for n in range(delay.KZ_LOGIN_DELAY_AFTER):
        _attempt(client, "wrong", f"10.4.0.{n // 2}")
    assert _attempt(client, "wrong", "10.4.9.9").status_code == 429
    resp = client.post("/accounts/login/", {"username": "other", "password": "other-password-1"})
    assert resp.status_code == 302
