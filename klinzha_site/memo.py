"""A small bounded, thread-safe, least-recently-used memo kept in one process."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

from django.db import transaction

T = TypeVar("T")


def transaction_open() -> bool:
    """Whether the code runs inside a transaction, one that may still roll back: what it
    reads there may never be committed, under a version number the next change reuses."""
    # Django's public answer: autocommit is off inside every atomic block. A test case's own
    # wrapping transaction counts too (it does roll back): tests of what the memo keeps run
    # outside one (`django_db(transaction=True)`).
    return not transaction.get_autocommit()


class ProcessMemo(Generic[T]):
    """At most `size` values, the least recently used dropped first. For values that are
    cheap to recompute and whose keys say everything they depend on (a version), so that no
    process can serve a stale one. Every caller and thread gets the very value stored: store
    immutable ones (tuples, frozen dataclasses), and nothing read inside a transaction
    (transaction_open)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._values: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> T | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: Hashable, value: T) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self._size:
                self._values.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
