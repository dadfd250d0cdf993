"""The Redis broker transport with kombu's worker-killing AttributeError turned into the
connection error it is, so that a worker lives through a Redis outage."""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(kombu_redis.Channel):
    """kombu 5.7.0 (the latest) builds a client from `self.connection.client` even after the
    connection was closed under it: when Redis goes away while a task finishes, acknowledging
    it raises AttributeError ("'NoneType' object has no attribute 'hostname'"), which the
    worker does not expect and dies of ("Unrecoverable error"). As a connection error it is
    logged and the worker reconnects; the unacknowledged task comes back from the broker and
    the sweep (games.requeue_stale) queues its record again in any case."""

    def _connparams(self, asynchronous: bool = False) -> Any:
        if self.connection is None or self.connection.client is None:
            raise RedisConnectionError("the broker connection was closed (Redis went away)")
        return super()._connparams(asynchronous=asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel
