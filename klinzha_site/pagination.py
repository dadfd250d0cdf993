"""API pagination with bounded limits and offsets (huge numbers overflow the database)."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = 1000
    max_offset = 10**9

    def get_offset(self, request: Request) -> int:
        return min(super().get_offset(request), self.max_offset)
