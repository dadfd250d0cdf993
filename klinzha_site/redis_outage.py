"""A Redis outage told once per process: one line when it starts, one when it ends with a count."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django_redis.cache import RedisCache
from django_redis.exceptions import ConnectionInterrupted

log = logging.getLogger("klinzha_site.redis")

# Client methods that never talk to Redis: their success says nothing about it being back.
SILENT_METHODS = frozenset(
    ("close", "connect", "decode", "encode", "get_client", "make_key", "make_pattern")
)


class _Outage:
    """When the outage this process saw began (None: Redis answers) and how many
    operations failed since."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.failures = 0
        self.lock = threading.Lock()


_outage = _Outage()


def _reason(exc: BaseException) -> str:
    cause = (exc.__cause__ if isinstance(exc, ConnectionInterrupted) else None) or exc
    text = str(cause).strip()
    return f"{type(cause).__name__}: {text}" if text else type(cause).__name__


def redis_failed(exc: BaseException) -> None:
    """An operation on Redis (the cache, the broker) failed: the first failure of an outage
    is logged (one line, no traceback), the rest only counted."""
    with _outage.lock:
        first = _outage.since is None
        if first:
            _outage.since = time.monotonic()
        _outage.failures += 1
    if first:
        log.warning("Redis unreachable (%s); pages are computed without the cache", _reason(exc))


def redis_answered() -> None:
    """An operation on Redis succeeded: ends the outage, if there was one, with one line."""
    if _outage.since is None:  # the usual case, without taking the lock
        return
    with _outage.lock:
        since, failures = _outage.since, _outage.failures
        _outage.since, _outage.failures = None, 0
    if since is not None:
        log.warning(
            "Redis back after %d failed operations over %.1f s",
            failures,
            time.monotonic() - since,
        )


class _WatchedClient:
    """django-redis' client, each call's outcome told to redis_failed / redis_answered."""

    def __init__(self, client: Any) -> None:
        self._client = client

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._client, name)
        if name.startswith("_") or name in SILENT_METHODS or not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                result = attr(*args, **kwargs)
            except ConnectionInterrupted as exc:
                redis_failed(exc)
                raise
            redis_answered()
            return result

        # Kept on the proxy: the next call finds it without __getattr__.
        setattr(self, name, call)
        return call


class OutageLoggedRedisCache(RedisCache):
    """django-redis' cache with its errors ignored (IGNORE_EXCEPTIONS) and told as one
    outage instead of a traceback for every operation that failed."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._log_ignored_exceptions = False

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = _WatchedClient(self._client_cls(self._server, self._params, self))  # type: ignore[assignment]
        return self._client
