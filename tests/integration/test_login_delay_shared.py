"""The per-account login delay holds across processes (issue 22 item 8): failures counted by
another process, through Redis, delay the login form of this one."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from tests.workers import service_env

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

COUNT = """
import django
django.setup()
from klinzha_site.login_delay import login_failure_count
for _ in range({n}):
    login_failure_count(username="arb")
"""


def test_failures_in_another_process_delay_this_one():
    get_user_model().objects.create_user("arb", password="right-password-1")
    # Another process of the same deployment: the same database (every cache key carries
    # its identity) and Redis.
    code = COUNT.format(n=settings.KZ_LOGIN_DELAY_AFTER)
    subprocess.run([sys.executable, "-c", code], env=service_env(), check=True, timeout=60)
    client = Client()
    resp = client.post("/accounts/login/", {"username": "arb", "password": "right-password-1"})
    assert resp.status_code == 429 and "try again in" in resp.content.decode()
    assert "_auth_user_id" not in client.session
