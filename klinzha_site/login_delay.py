"""Slow login guessing per account, from every address at once: a growing delay, no lockout."""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest

# Beside django-axes' lockout of one (account, address) pair: after KZ_LOGIN_DELAY_AFTER
# failures for one account from anywhere, each further attempt waits KZ_LOGIN_DELAY_FIRST
# seconds, doubling with each failure up to KZ_LOGIN_DELAY_MAX. An attempt made while the
# account waits is refused unchecked and counts for nothing, so the right password once the
# wait is over always works: no one can keep an arbiter out for longer than the cap. The
# counts live in the cache (Redis in production, shared by every process); they are
# forgotten KZ_LOGIN_DELAY_FORGET_HOURS after the last failure, and at once by a login.
# With Redis down the delay is off (axes' lockout, in the database, still holds).
EXPONENT_MAX = 30


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def _keys(username: str) -> tuple[str, str]:
    digest = hashlib.sha256(username.strip().casefold().encode()).hexdigest()
    return f"kz:login-delay:{digest}:failures", f"kz:login-delay:{digest}:until"


def login_wait(*, username: str) -> int:
    """Seconds (rounded up) before the account may be tried again; 0 when it may now."""
    until = cache.get(_keys(username)[1])
    if until is None:
        return 0
    return max(0, math.ceil(float(until) - time.time()))


def login_failure_count(*, username: str) -> None:
    """One more failed login for the account; starts its wait once there are enough."""
    failures_key, until_key = _keys(username)
    forget = int(_setting("KZ_LOGIN_DELAY_FORGET_HOURS", 24) * 3600)
    cache.add(failures_key, 0, forget)
    try:
        failures = int(cache.incr(failures_key) or 0)
    except ValueError:  # gone between add and incr, or the cache is down
        return
    cache.touch(failures_key, forget)
    after = int(_setting("KZ_LOGIN_DELAY_AFTER", 10))
    if failures < after:
        return
    first, cap = _setting("KZ_LOGIN_DELAY_FIRST", 2.0), _setting("KZ_LOGIN_DELAY_MAX", 300.0)
    delay = min(first * 2 ** min(failures - after, EXPONENT_MAX), cap)
    cache.set(until_key, time.time() + delay, forget)


def login_delay_reset(*, username: str) -> None:
    cache.delete_many(list(_keys(username)))


class LoginDelayBackend:
    """Before the backends that check a password: an account that must still wait is
    refused unchecked (authenticate() stops at PermissionDenied). The request keeps the wait,
    for the login form's message. No get_user: it logs no one in (and force_login, which
    takes the first backend that has one, must not pick it)."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, **credentials: Any
    ) -> None:
        if request is None or not username:
            return None
        wait = login_wait(username=username)
        if wait:
            request.kz_login_wait = wait  # type: ignore[attr-defined]
            raise PermissionDenied
        return None


@receiver(user_login_failed, dispatch_uid="kz-login-delay-failed")
def _failed(
    sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    username = credentials.get("username")
    # Attempts refused unchecked (this wait, axes' lockout) tested no password: not counted.
    refused = getattr(request, "kz_login_wait", 0) or getattr(request, "axes_locked_out", False)
    if username and not refused:
        login_failure_count(username=str(username))


@receiver(user_logged_in, dispatch_uid="kz-login-delay-in")
def _logged_in(sender: Any, user: User, **kwargs: Any) -> None:
    login_delay_reset(username=user.get_username())
