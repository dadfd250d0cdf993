"""The API's clubs and players: list, read, create, change a player, name a club's officials;
link a player to a user account."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import permissions, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.generics import get_object_or_404
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import services
from tournaments.api.errors import errors
from tournaments.api.inputs import AccountSerializer, PlayerMergeSerializer
from tournaments.api.outputs import AccountOutSerializer
from tournaments.api.ratings import PoolHistorySerializer, player_ratings_body
from tournaments.api.serializers import ClubSerializer, PlayerSerializer
from tournaments.models import Club, Player
from tournaments.permissions import (
    OfficialWriteOrReadOnly,
    StaffMergesPlayers,
    account_named_require,
    player_edit_require,
)
from tournaments.rating_page_selectors import player_rating_history

User = get_user_model()


class ClubOfficialsSerializer(serializers.Serializer):
    accounts = serializers.ListField(
        child=serializers.CharField(max_length=150),
        max_length=50,
        help_text="the user names of the club's officials (those before are replaced)",
    )


@extend_schema_view(
    create=extend_schema(responses={201: ClubSerializer, **errors(400, 401, 403)}),
    retrieve=extend_schema(responses={200: ClubSerializer, **errors(404)}),
)
class ClubViewSet(viewsets.ModelViewSet):
    queryset = Club.objects.all()
    serializer_class = ClubSerializer
    permission_classes = [OfficialWriteOrReadOnly]
    http_method_names = ["get", "post", "head", "options"]

    def perform_create(self, serializer: Any) -> None:
        serializer.instance = services.club_create(
            user=self.request.user, **serializer.validated_data
        )

    @extend_schema(
        request=ClubOfficialsSerializer,
        responses={200: ClubOfficialsSerializer, **errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["post"])
    def officials(self, request: Request, pk: str | None = None) -> Response:
        """Name the club's officials (staff only): they manage the club's members."""
        club = self.get_object()
        data = ClubOfficialsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        names = list(dict.fromkeys(data.validated_data["accounts"]))
        if not (request.user.is_authenticated and request.user.is_staff):
            services.club_officials_set(club=club, accounts=[], user=request.user)  # refuses
        accounts = list(User.objects.filter(username__in=names))
        unknown = sorted(set(names) - {a.username for a in accounts})
        if unknown:
            raise ValidationError({"accounts": [gettext("no such account") + f": {unknown[0]}"]})
        services.club_officials_set(club=club, accounts=accounts, user=request.user)
        return Response({"accounts": sorted(names)})


@extend_schema_view(
    create=extend_schema(responses={201: PlayerSerializer, **errors(400, 401, 403)}),
    retrieve=extend_schema(responses={200: PlayerSerializer, **errors(404)}),
)
class PlayerViewSet(viewsets.ModelViewSet):
    queryset = Player.objects.select_related("club")
    serializer_class = PlayerSerializer
    permission_classes = [OfficialWriteOrReadOnly]
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_permissions(self) -> Any:
        if self.action == "partial_update":  # not only officials: the player, a club official
            return [permissions.IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(
        request=PlayerSerializer(partial=True),
        responses={200: PlayerSerializer, **errors(400, 401, 403, 404)},
    )
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Change a player's name, club, federation or declared rating: staff, the organizer
        who manages them, an official of their club (another club's, never) or the player."""
        player = get_object_or_404(Player, pk=pk)
        player_edit_require(user=request.user, player=player)
        data = PlayerSerializer(player, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        fields = {k: v for k, v in data.validated_data.items() if k != "id"}
        player = services.player_update(player=player, user=request.user, **fields)
        return Response(PlayerSerializer(player).data)

    def perform_create(self, serializer: Any) -> None:
        serializer.instance = services.player_create(
            user=self.request.user, **serializer.validated_data
        )

    @extend_schema(
        request=AccountSerializer,
        responses={200: AccountOutSerializer, **errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def account(self, request: Request, pk: str | None = None) -> Response:
        """Link the player to a user account by username (blank unlinks)."""
        player = get_object_or_404(Player, pk=pk)
        data = AccountSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        name = data.validated_data["username"]
        account = None
        if name:
            account = User.objects.filter(username=name).first()
            if account is None:
                account_named_require(user=request.user, player=player, username=name)
                raise ValidationError({"username": gettext("no user %(name)r") % {"name": name}})
        player = services.player_link_user(player=player, account=account, user=request.user)
        return Response(AccountOutSerializer({"player": player.pk, "username": name or None}).data)

    @extend_schema(
        request=PlayerMergeSerializer,
        responses={200: PlayerSerializer, **errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], permission_classes=[StaffMergesPlayers])
    def merge(self, request: Request, pk: str | None = None) -> Response:
        """Merge the player `other` into this one (staff only): their registrations,
        battles, penalties, ratings and account follow, `other` is deleted; refused (409)
        while both are in one event or both have an account. The pool ratings of `other`'s
        periods are rated again by the next ratings run."""
        keep = get_object_or_404(Player, pk=pk)
        data = PlayerMergeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        drop = get_object_or_404(Player, pk=data.validated_data["other"])
        keep = services.players_merge(keep=keep, drop=drop, user=request.user)
        return Response(PlayerSerializer(keep).data)

    @extend_schema(responses={200: PoolHistorySerializer(many=True), **errors(404)})
    # One row per pool, never paged: the schema says a plain list, as the answer is.
    @action(
        detail=True,
        methods=["get"],
        permission_classes=[permissions.AllowAny],
        pagination_class=None,
    )
    def ratings(self, request: Request, pk: str | None = None) -> Response:
        """The player's Glicko-2 rating in each pool they are rated in: now, per period, per
        battle, and the estimate of the battles since the last close (marked as one)."""
        player = get_object_or_404(Player, pk=pk)
        return Response(player_ratings_body(player_rating_history(player=player)))
