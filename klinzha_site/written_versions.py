"""The versions a signed-in user's own changes made: the pages they read next are never older."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from django.core.cache import cache
from django.http import HttpRequest

# How long a writer's versions are remembered: longer than any page is served stale
# (KZ_PAGE_STALE_SECONDS), and than a writer takes to read what they wrote.
SEEN_SECONDS = 60

# The versions the changes of the request under way made, scope by scope ("t12": 41; None
# outside a request that versions_written_follow follows).
_written: ContextVar[dict[str, int] | None] = ContextVar("kz_versions_written", default=None)


def version_tracked() -> bool:
    """Whether a request is under way whose writer's versions are remembered (the writes
    of a service called outside a request need not be)."""
    return _written.get() is not None


def version_written(*, scope: str, number: int) -> None:
    """A change of the request under way committed version `number` of `scope` (call it
    once committed): the pages its user reads next are never older."""
    written = _written.get()
    if written is not None:
        written[scope] = max(written.get(scope, 0), number)


@contextlib.contextmanager
def versions_written_follow(request: HttpRequest) -> Iterator[None]:
    """Follow the versions the changes of `request` make; when it is done, remember them for
    its signed-in user (the API's token users too: DRF puts its user on the request)."""
    token = _written.set({})
    try:
        yield
        written = _written.get()
    finally:
        _written.reset(token)
    if written:
        seen_store(request, written)


def _seen_key(user_id: object) -> str:
    return f"kz:seen:u{user_id}"


def _user_id(request: HttpRequest) -> int | None:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    return int(user.pk)


def seen_number(request: HttpRequest, *, scope: str) -> int:
    """The newest version of `scope` the signed-in reader's own changes made lately (0 for
    a visitor: only signed-in users change anything)."""
    user_id = _user_id(request)
    if user_id is None:
        return 0
    seen = cache.get(_seen_key(user_id))
    return int(seen.get(scope, 0)) if seen else 0


def seen_store(request: HttpRequest, written: dict[str, int]) -> None:
    """Remember the versions a signed-in user's request made, for SEEN_SECONDS."""
    user_id = _user_id(request)
    if user_id is None:
        return
    key = _seen_key(user_id)
    seen = dict(cache.get(key) or {})
    for scope, number in written.items():
        seen[scope] = max(int(seen.get(scope, 0)), number)
    cache.set(key, seen, SEEN_SECONDS)
