"""REST API for tournaments, players, clubs, rounds, results and standings (thin views)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.api import GameRecordsMixin
from games.models import Game
from tournaments import selectors, services
from tournaments.models import Club, Player, Registration, Round, Tournament
from tournaments.standings import standings_json


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Django validation errors from the services become 400s naming the field at fault."""
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = ValidationError(detail)
    return exception_handler(exc, context)


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "short_name", "city", "country"]


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "federation", "rating"]


class TournamentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "slug",
            "start_date",
            "end_date",
            "venue",
            "ruleset",
            "variants",
            "time_control",
            "pairing_system",
            "rounds_planned",
            "forfeit_win_points",
            "forfeit_loss_points",
            "bye_points",
            "requested_bye_points",
            "tiebreaks",
            "placement_order",
            "local_rules",
            "resignation_allowed",
        ]


class GameSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", read_only=True)

    class Meta:
        model = Game
        fields = ["id", "round", "board", "kind", "first", "second", "first_color", "result"]
        read_only_fields = fields


class RoundSerializer(serializers.ModelSerializer):
    games = GameSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = ["number", "status", "games"]


class ResultSerializer(serializers.Serializer):
    result = serializers.ChoiceField(choices=[c for c in Game.Result.values if c])


class RegistrationSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


class WithdrawalSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    expelled = serializers.BooleanField(default=False)


class ByeRequestSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    round = serializers.IntegerField(min_value=1)


class StaffWriteOrReadOnly(permissions.BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated and request.user.is_staff)


class ClubViewSet(viewsets.ModelViewSet):
    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    permission_classes = [StaffWriteOrReadOnly]
    http_method_names = ["get", "post", "head", "options"]

    def perform_create(self, serializer: Any) -> None:
        serializer.instance = services.club_create(**serializer.validated_data)


class PlayerViewSet(viewsets.ModelViewSet):
    queryset = Player.objects.select_related("club")
    serializer_class = PlayerSerializer
    permission_classes = [StaffWriteOrReadOnly]
    http_method_names = ["get", "post", "head", "options"]

    def perform_create(self, serializer: Any) -> None:
        serializer.instance = services.player_create(**serializer.validated_data)


class TournamentViewSet(viewsets.ModelViewSet):
    queryset = Tournament.objects.all()
    serializer_class = TournamentSerializer
    lookup_field = "slug"
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_permissions(self) -> list[Any]:
        if self.action == "create":
            return [StaffWriteOrReadOnly()]
        return [permissions.IsAuthenticatedOrReadOnly()]

    def perform_create(self, serializer: Any) -> None:
        serializer.instance = services.tournament_create(
            organizer=self.request.user, **serializer.validated_data
        )

    def perform_update(self, serializer: Any) -> None:
        serializer.instance = services.tournament_update(
            tournament=serializer.instance, user=self.request.user, **serializer.validated_data
        )

    @extend_schema(responses={200: None})
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, slug: str | None = None) -> Response:
        t = self.get_object()
        rows = selectors.standings_compute(tournament=t)
        return Response(standings_json(rows, t.tiebreak_list))

    @extend_schema(responses={200: None})
    @action(detail=True, methods=["get"])
    def crosstable(self, request: Request, slug: str | None = None) -> Response:
        return Response(selectors.crosstable_json(tournament=self.get_object()))

    @extend_schema(responses={200: RoundSerializer(many=True)})
    @action(detail=True, methods=["get"])
    def rounds(self, request: Request, slug: str | None = None) -> Response:
        rounds = selectors.round_list(tournament=self.get_object())
        return Response(RoundSerializer(rounds, many=True).data)

    @extend_schema(request=RegistrationSerializer, responses={201: None})
    @action(detail=True, methods=["post"])
    def registrations(self, request: Request, slug: str | None = None) -> Response:
        t = self.get_object()
        data = RegistrationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_create(
            tournament=t, player=data.validated_data["player"], user=request.user
        )
        return Response(
            {"player": reg.player_id, "first_round": reg.first_round},
            status=status.HTTP_201_CREATED,
        )

    def _registration(self, t: Tournament, player: Player) -> Registration:
        reg = Registration.objects.filter(tournament=t, player=player).first()
        if reg is None:
            raise ValidationError({"player": "not registered in this tournament"})
        return reg

    @extend_schema(request=WithdrawalSerializer, responses={200: None})
    @action(detail=True, methods=["post"])
    def withdrawals(self, request: Request, slug: str | None = None) -> Response:
        t = self.get_object()
        data = WithdrawalSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_withdraw(
            registration=self._registration(t, data.validated_data["player"]),
            user=request.user,
            expelled=data.validated_data["expelled"],
        )
        return Response(
            {"player": reg.player_id, "status": reg.status, "last_round": reg.last_round}
        )

    @extend_schema(request=ByeRequestSerializer, responses={201: None})
    @action(detail=True, methods=["post"], url_path="bye-requests")
    def bye_requests(self, request: Request, slug: str | None = None) -> Response:
        t = self.get_object()
        data = ByeRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bye = services.bye_request_create(
            registration=self._registration(t, data.validated_data["player"]),
            round_number=data.validated_data["round"],
            user=request.user,
        )
        return Response(
            {"player": bye.registration.player_id, "round": bye.round_number},
            status=status.HTTP_201_CREATED,
        )


class GameViewSet(GameRecordsMixin, viewsets.ReadOnlyModelViewSet):
    queryset = Game.objects.select_related("round")
    serializer_class = GameSerializer

    @extend_schema(request=ResultSerializer, responses={200: GameSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def result(self, request: Request, pk: str | None = None) -> Response:
        game = get_object_or_404(Game, pk=pk)
        data = ResultSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.game_result_set(
            game=game, result=data.validated_data["result"], user=request.user
        )
        return Response(GameSerializer(game).data)
