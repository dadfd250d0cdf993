"""The API's ratings: the pools with their rating lists, closing a period by hand, and a
player's ratings with their history (GET /api/players/{id}/ratings/ is the players')."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from klinzha_site.pagination import BoundedLimitOffsetPagination
from tournaments.api.errors import errors
from tournaments.rating_page_selectors import (
    PoolHistory,
    pool_last_closed,
    pool_rating_list,
)
from tournaments.ratings.pools import POOLS
from tournaments.services.ratings import rating_period_close


class RatingRowSerializer(serializers.Serializer):
    """One line of a pool's rating list: the rating and deviation as they stand now (a
    deviation grows with each period closed since the player's last); `printed` is the
    rating as the pages print it, with `?` when provisional (deviation 110 or more)."""

    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    federation = serializers.CharField()
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    volatility = serializers.FloatField()
    games = serializers.IntegerField()
    last_period = serializers.CharField()
    provisional = serializers.BooleanField()
    printed = serializers.CharField()


class RatingPageSerializer(serializers.Serializer):
    """A page of a pool's rating list (limit and offset, as every list of the API)."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = RatingRowSerializer(many=True)


class PoolSerializer(serializers.Serializer):
    pool = serializers.CharField()
    last_period = serializers.CharField(allow_null=True, help_text="the last period closed")


class CloseSerializer(serializers.Serializer):
    period = serializers.CharField(
        max_length=10, help_text="2026-11 (a month), or 2026-W47 in a weekly pool"
    )


class ClosedSerializer(serializers.Serializer):
    pool = serializers.CharField()
    closed = serializers.ListField(
        child=serializers.CharField(), help_text="the periods closed, in order"
    )


class BattleLineSerializer(serializers.Serializer):
    period = serializers.CharField(help_text="blank in the estimate")
    game = serializers.IntegerField(source="game_id")
    opponent = serializers.CharField()
    opponent_id = serializers.IntegerField()
    score = serializers.FloatField(help_text="1 a win, 0.5 a draw, 0 a loss")
    change = serializers.FloatField()


class PeriodLineSerializer(serializers.Serializer):
    period = serializers.CharField(source="label")
    rating_before = serializers.FloatField()
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    played = serializers.IntegerField()
    printed = serializers.CharField(source="text")


class EstimateSerializer(serializers.Serializer):
    """The battles rated since the pool's last close, as if it closed now: an estimate."""

    battles = BattleLineSerializer(many=True)
    total = serializers.FloatField()
    rating = serializers.FloatField()


class PoolHistorySerializer(serializers.Serializer):
    pool = serializers.CharField()
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()
    printed = serializers.CharField(source="text")
    periods = PeriodLineSerializer(many=True)
    battles = BattleLineSerializer(many=True)
    estimate = EstimateSerializer(allow_null=True)


def player_ratings_body(history: list[PoolHistory]) -> Any:
    return PoolHistorySerializer(history, many=True).data


class RatingOfficerWrite(permissions.BasePermission):
    """Reads for everyone; a close for staff and rating officers (the service says why)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)


class RatingViewSet(viewsets.ViewSet):
    """The rating pools (`laws`, `loyd-1989`, `italian-society`, `tri-level`, `reflective`,
    `kinta`) and their rating lists (Glicko-2, docs/ratings.md)."""

    permission_classes = [RatingOfficerWrite]
    lookup_field = "pool"
    lookup_value_regex = "[a-z0-9-]+"

    @extend_schema(responses={200: PoolSerializer(many=True)})
    def list(self, request: Request) -> Response:
        """Every pool with its last closed period."""
        body = [{"pool": p, "last_period": pool_last_closed(pool=p)} for p in POOLS]
        return Response(PoolSerializer(body, many=True).data)

    @extend_schema(
        parameters=[
            OpenApiParameter("club", str, description="only this club's players (its name)"),
            OpenApiParameter("federation", str, description="only this federation's players"),
            OpenApiParameter("limit", int),
            OpenApiParameter("offset", int),
        ],
        responses={200: RatingPageSerializer, **errors(404)},
        operation_id="ratings_retrieve",
    )
    def retrieve(self, request: Request, pool: str | None = None) -> Response:
        """The pool's rating list by rating, ranked over the whole pool, paged."""
        if pool not in POOLS:
            raise NotFound(f"no rating pool {pool!r}")
        rows = pool_rating_list(
            pool=pool,
            club=request.query_params.get("club", ""),
            federation=request.query_params.get("federation", ""),
        )
        pager = BoundedLimitOffsetPagination()
        page = pager.paginate_queryset([r.as_json() for r in rows], request, view=self)
        return pager.get_paginated_response(RatingRowSerializer(page, many=True).data)

    @extend_schema(
        request=CloseSerializer,
        responses={200: ClosedSerializer, **errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pool: str | None = None) -> Response:
        """Close a period by hand, with the pool's open periods before it: staff and rating
        officers only (not an event's arbiters: pools are site-wide)."""
        if pool not in POOLS:
            raise NotFound(f"no rating pool {pool!r}")
        data = CloseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        closed = rating_period_close(
            pool=pool, label=data.validated_data["period"], user=request.user
        )
        return Response(ClosedSerializer({"pool": pool, "closed": [p.label for p in closed]}).data)
