"""The games API's clock actions on a game (Art. 6.8, 6.9, 6.12, 6.13, 12.4 b/c, 12.5): list,
add and revoke clock adjustments, and record latecomers; a mixin of the game resource."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors, services
from games.models import ClockAdjustment
from games.services.clocks import MAX_SECONDS
from klinzha_site.parsers import StrictCharField
from tournaments.api.errors import errors
from tournaments.models import Colour
from tournaments.permissions import game_visible_get

INT_MAX = 2**31 - 1


class ClockAdjustmentSerializer(serializers.ModelSerializer):
    """An adjustment as stored: it changes the side's readings from `from_ply` on (or from
    the moment `at`, placed at the first reading taken after it); `in_readings`: a
    latecomer's charge the clock itself ran, shown and not applied again; a revoked one no
    longer counts."""

    created_by = serializers.CharField(source="created_by.username", allow_null=True)
    revoked_by = serializers.CharField(source="revoked_by.username", allow_null=True)

    class Meta:
        model = ClockAdjustment
        fields = [
            "id",
            "game",
            "side",
            "seconds",
            "article",
            "from_ply",
            "at",
            "in_readings",
            "reason",
            "penalty",
            "created_by",
            "created_at",
            "revoked_at",
            "revoked_by",
            "revoke_reason",
        ]
        read_only_fields = fields


class ClockAdjustmentInSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=Colour.choices)
    seconds = serializers.IntegerField(
        min_value=-MAX_SECONDS, max_value=MAX_SECONDS, help_text="positive adds time"
    )
    article = serializers.ChoiceField(choices=[(a, a) for a in ClockAdjustment.ARTICLES])
    from_ply = serializers.IntegerField(
        min_value=1,
        max_value=INT_MAX,
        required=False,
        help_text="the first ply whose reading it changes",
    )
    at = serializers.DateTimeField(
        required=False,
        help_text="or the moment it applies from (the round needs a scheduled start)",
    )
    reason = StrictCharField(max_length=2000, required=False, allow_blank=True, default="")

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        if "from_ply" not in attrs and "at" not in attrs:
            raise serializers.ValidationError(
                {"from_ply": "say from which ply (or moment, at) it applies"}
            )
        return attrs


class ClockRevokeSerializer(serializers.Serializer):
    reason = StrictCharField(max_length=2000)


class LatecomersSerializer(serializers.Serializer):
    scheduled = serializers.DateTimeField(
        required=False, help_text="the scheduled start; by default the round's"
    )
    green_arrival = serializers.DateTimeField(required=False, allow_null=True)
    gold_arrival = serializers.DateTimeField(required=False, allow_null=True)
    running = serializers.ChoiceField(
        choices=Colour.choices,
        required=False,
        help_text="both late (6.9): whose clock ran; by default the first placer's",
    )


# Added to the game resource: GET/POST /api/games/{id}/clock-adjustments/,
# POST /api/games/{id}/clock-adjustments/{adj}/revoke/, POST /api/games/{id}/latecomers/.
# (No class docstring: drf-spectacular would take it for every game operation's description.)
class ClockActions:
    @extend_schema(
        methods=["GET"],
        request=None,
        responses={200: ClockAdjustmentSerializer(many=True), **errors(404)},
    )
    @extend_schema(
        methods=["POST"],
        request=ClockAdjustmentInSerializer,
        responses={201: ClockAdjustmentSerializer, **errors(400, 401, 403, 404)},
    )
    @action(
        detail=True, methods=["get", "post"], url_path="clock-adjustments", pagination_class=None
    )
    def clock_adjustments(self, request: Request, pk: str | None = None) -> Response:
        """The game's clock adjustments, revoked ones too (as its page shows them); POST: an
        arbiter of the tournament adds one (audited; the latest record is adjudicated again)."""
        if request.method == "GET":
            game = self.get_object()  # type: ignore[attr-defined]
            rows = selectors.clock_adjustment_list(game=game)
            return Response(ClockAdjustmentSerializer(rows, many=True).data)
        if not request.user.is_authenticated:
            self.permission_denied(request)  # type: ignore[attr-defined]
        game = game_visible_get(pk=pk, user=request.user)
        data = ClockAdjustmentInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        adj = services.clock_adjustment_add(
            game=game,
            side=v["side"],
            seconds=v["seconds"],
            article=v["article"],
            from_ply=v.get("from_ply"),
            at=v.get("at"),
            reason=v["reason"],
            user=request.user,
        )
        return Response(ClockAdjustmentSerializer(adj).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=ClockRevokeSerializer,
        responses={200: ClockAdjustmentSerializer, **errors(400, 401, 403, 404, 409)},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path=r"clock-adjustments/(?P<adjustment>\d+)/revoke",
        permission_classes=[permissions.IsAuthenticated],
    )
    def clock_adjustment_revoke(
        self, request: Request, pk: str | None = None, adjustment: str | None = None
    ) -> Response:
        """Revoke an adjustment or a latecomer's charge (kept on record, audited); a
        penalty's is revoked with the penalty (409)."""
        game = game_visible_get(pk=pk, user=request.user)
        adj = get_object_or_404(ClockAdjustment, pk=adjustment, game=game)
        data = ClockRevokeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        adj = services.clock_adjustment_revoke(
            adjustment=adj, reason=data.validated_data["reason"], user=request.user
        )
        return Response(ClockAdjustmentSerializer(adj).data)

    @extend_schema(
        request=LatecomersSerializer,
        responses={201: ClockAdjustmentSerializer(many=True), **errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def latecomers(self, request: Request, pk: str | None = None) -> Response:
        """Latecomers (Art. 6.8, 6.9) from the scheduled start and the arrivals: the charges
        made, those the clock itself ran marked `in_readings` (audited)."""
        game = game_visible_get(pk=pk, user=request.user)
        data = LatecomersSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        scheduled = v.get("scheduled") or game.round.starts_at
        if scheduled is None:
            raise serializers.ValidationError(
                {"scheduled": "give the scheduled start (or schedule the round)"}
            )
        made = services.latecomers_record(
            game=game,
            scheduled=scheduled,
            green_arrival=v.get("green_arrival"),
            gold_arrival=v.get("gold_arrival"),
            running=v.get("running"),
            user=request.user,
        )
        return Response(
            ClockAdjustmentSerializer(made, many=True).data, status=status.HTTP_201_CREATED
        )
