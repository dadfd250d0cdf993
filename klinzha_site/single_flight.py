"""One process at a time makes a shared value: a short lock in the cache (Redis: SET NX PX)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.core.cache import cache

T = TypeVar("T")

# A waiter's first pause, and the longest: short at first (a render is tens of
# milliseconds), then no busier than this on Redis.
FIRST_PAUSE = 0.002
LONGEST_PAUSE = 0.02


@dataclass(frozen=True, slots=True)
class Flight:
    """A try to become the one process making a value: `mine` when this process makes it;
    `shared` False when the cache did not answer (Redis down: nobody can tell the processes
    apart, so each makes its own)."""

    key: str
    token: str
    mine: bool
    shared: bool


def flight_begin(*, key: str, seconds: float) -> Flight:
    """Take the lock `key` for at most `seconds` (it goes by itself if its holder dies)."""
    token = secrets.token_hex(8)
    # django-redis' add is SET NX PX; with its errors ignored it answers None, not False.
    taken = cache.add(key, token, seconds)
    if taken is None:
        return Flight(key, token, mine=True, shared=False)
    return Flight(key, token, mine=bool(taken), shared=True)


def flight_end(flight: Flight) -> None:
    """Let the lock go, if it is still this flight's (a holder slower than the lock's time
    must not free the next one's)."""
    if flight.mine and flight.shared and cache.get(flight.key) == flight.token:
        cache.delete(flight.key)


def flight_wait(*, flight: Flight, fetch: Callable[[], T | None], seconds: float) -> T | None:
    """What `fetch` finds once the flight's holder made it; None when `seconds` passed or
    the lock went without it (the holder failed, or made something not to be shared)."""
    deadline = time.monotonic() + seconds
    pause = FIRST_PAUSE
    while True:
        found = fetch()
        if found is not None:
            return found
        if time.monotonic() >= deadline:
            return None
        if cache.get(flight.key) is None:
            return fetch()
        time.sleep(pause)
        pause = min(pause * 2, LONGEST_PAUSE)


def shared_make(
    *,
    key: str,
    make: Callable[[], T],
    pack: Callable[[T], bytes],
    unpack: Callable[[bytes], T],
    keep: float,
    wait: float,
) -> T:
    """The value kept in the shared cache under `key` (Redis: another process made it),
    else made here by one process at a time, the others waiting for it (at most `wait`
    seconds, then making their own); what is made is kept `keep` seconds. `pack` and
    `unpack` are its bytes both ways; bytes `unpack` refuses (ValueError: another
    release's form) count as none."""

    def fetch() -> T | None:
        data = cache.get(key)
        if not isinstance(data, bytes):
            return None
        try:
            return unpack(data)
        except (ValueError, EOFError, TypeError):
            return None

    found = fetch()
    if found is not None:
        return found
    flight = flight_begin(key=f"{key}:make", seconds=10 * wait)
    if not flight.mine:
        found = flight_wait(flight=flight, fetch=fetch, seconds=wait)
        if found is not None:
            return found
    try:
        value = make()
        cache.set(key, pack(value), keep)
    finally:
        flight_end(flight)
    return value
