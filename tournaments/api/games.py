"""The API's games (pairings with their results): list, read; enter, countersign a result;
the spindle's choice. The games app adds the record actions (games.api.views)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import permissions, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import services
from tournaments.api.errors import errors
from tournaments.api.inputs import ResultSerializer, SpindleChoiceSerializer
from tournaments.api.serializers import GameSerializer
from tournaments.models import Game, Round
from tournaments.permissions import game_visible_get


@extend_schema_view(retrieve=extend_schema(responses={200: GameSerializer, **errors(404)}))
class GameViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Game.objects.select_related("round").exclude(round__status=Round.Status.DRAFT)
    serializer_class = GameSerializer

    @extend_schema(
        request=ResultSerializer, responses={200: GameSerializer, **errors(400, 401, 403, 404)}
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def result(self, request: Request, pk: str | None = None) -> Response:
        """Enter a game's result (a second person countersigns it)."""
        game = game_visible_get(pk=pk, user=request.user)
        data = ResultSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.game_result_set(
            game=game, result=data.validated_data["result"], user=request.user
        )
        return Response(GameSerializer(game).data)

    @extend_schema(
        request=SpindleChoiceSerializer,
        responses={200: GameSerializer, **errors(400, 401, 403, 404, 409)},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="spindle-choice",
        permission_classes=[permissions.IsAuthenticated],
    )
    def spindle_choice(self, request: Request, pk: str | None = None) -> Response:
        """Record the choice the combatants declared after the spindle cast (Art. 2.3); the
        first placer follows it."""
        game = game_visible_get(pk=pk, user=request.user)
        data = SpindleChoiceSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.game_spindle_choose(
            game=game,
            chooser=data.validated_data["chooser"],
            placement=data.validated_data["placement"],
            user=request.user,
        )
        return Response(GameSerializer(game).data)

    @extend_schema(request=None, responses={200: GameSerializer, **errors(400, 401, 403, 404)})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def countersign(self, request: Request, pk: str | None = None) -> Response:
        """The second person's confirmation of an entered result."""
        game = game_visible_get(pk=pk, user=request.user)
        game = services.game_result_countersign(game=game, user=request.user)
        return Response(GameSerializer(game).data)
