"""Cache keys no other deployment can make: each carries its database's identity."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import connections

# What tells two databases apart without asking either: where and what each one is.
IDENTITY_FIELDS = ("ENGINE", "HOST", "PORT", "NAME")


@functools.lru_cache(maxsize=16)
def _identity_hash(parts: tuple[str, ...]) -> str:
    return hashlib.blake2b("\0".join(parts).encode(), digest_size=6).hexdigest()


def database_identity(*, settings_dict: Mapping[str, Any] | None = None) -> str:
    """A short hash of the database this process reads (`settings_dict`, else the default
    connection's: engine, host, port and name) and of KZ_DEPLOYMENT_ID. Two deployments
    sharing one Redis have different identities unless their databases are named alike
    on hosts spelled alike (two machines each with its own `127.0.0.1`): KZ_DEPLOYMENT_ID
    tells those apart."""
    found = connections["default"].settings_dict if settings_dict is None else settings_dict
    parts = tuple(str(found.get(field) or "") for field in IDENTITY_FIELDS)
    return _identity_hash((*parts, str(getattr(settings, "KZ_DEPLOYMENT_ID", ""))))


def cache_key_make(key: str, key_prefix: str, version: int) -> str:
    """Django's key function (CACHES' KEY_FUNCTION), the database's identity added: every
    key of the cache (pages, standings, locks, login delays, pairing progress) is this
    deployment's alone, whatever else shares the Redis. Read from the connection's own
    settings on each call, so that a test database has keys of its own too."""
    return f"{key_prefix}:{version}:{database_identity()}:{key}"
