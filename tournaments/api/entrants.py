"""The API's entrants of a tournament: registrations and start ranks, withdrawals and their
undoing, requested byes, forbidden pairs; actions of the tournament resource."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.api.common import registration_get
from tournaments.api.serializers import (
    ByeRequestSerializer,
    EntrantSerializer,
    ForbiddenPairSerializer,
    PlayerPairSerializer,
    RegistrationSerializer,
    StartRankSerializer,
    WithdrawalSerializer,
)


# Actions of TournamentViewSet (tournaments.api.tournaments), on /api/tournaments/{slug}/.
# (No class docstring: drf-spectacular would take it for every tournament operation's
# description.)
class EntrantActions(viewsets.GenericViewSet):
    @extend_schema(
        request=RegistrationSerializer,
        responses={201: None, 200: EntrantSerializer(many=True)},
    )
    @action(detail=True, methods=["get", "post"])
    def registrations(self, request: Request, slug: str | None = None) -> Response:
        """The entrants by start rank (GET); register a player (POST)."""
        t = self.get_object()
        if request.method == "GET":
            return Response(EntrantSerializer(selectors.entrant_list(tournament=t), many=True).data)
        data = RegistrationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_create(
            tournament=t, player=data.validated_data["player"], user=request.user
        )
        return Response(
            {"player": reg.player_id, "first_round": reg.first_round, "start_rank": reg.start_rank},
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=StartRankSerializer, responses={200: EntrantSerializer(many=True)})
    @action(detail=True, methods=["post"], url_path="start-ranks")
    def start_ranks(self, request: Request, slug: str | None = None) -> Response:
        """Seed the entrants again by rating (`sort`), or move one to a start rank; until
        round 1 is paired (409 after)."""
        t = self.get_object()
        data = StartRankSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data["sort"]:
            services.start_ranks_sort(tournament=t, user=request.user)
        else:
            services.start_rank_move(
                registration=registration_get(tournament=t, player=data.validated_data["player"]),
                rank=data.validated_data["rank"],
                user=request.user,
            )
        return Response(EntrantSerializer(selectors.entrant_list(tournament=t), many=True).data)

    @extend_schema(request=WithdrawalSerializer, responses={200: None})
    @action(detail=True, methods=["post"])
    def withdrawals(self, request: Request, slug: str | None = None) -> Response:
        t = self.get_object()
        data = WithdrawalSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_withdraw(
            registration=registration_get(tournament=t, player=data.validated_data["player"]),
            user=request.user,
            expelled=data.validated_data["expelled"],
        )
        return Response(
            {"player": reg.player_id, "status": reg.status, "last_round": reg.last_round}
        )

    @extend_schema(request=ByeRequestSerializer, responses={201: None, 200: None})
    @action(detail=True, methods=["get", "post"], url_path="bye-requests")
    def bye_requests(self, request: Request, slug: str | None = None) -> Response:
        """The requested byes (GET); request one for a round not yet paired (POST)."""
        t = self.get_object()
        if request.method == "GET":
            return Response(selectors.bye_request_list(tournament=t))
        data = ByeRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bye = services.bye_request_create(
            registration=registration_get(tournament=t, player=data.validated_data["player"]),
            round_number=data.validated_data["round"],
            user=request.user,
        )
        return Response(
            {"player": bye.registration.player_id, "round": bye.round_number},
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=ByeRequestSerializer, responses={200: None})
    @action(detail=True, methods=["post"], url_path="bye-requests/cancel")
    def bye_request_cancel(self, request: Request, slug: str | None = None) -> Response:
        """Cancel a requested bye of a round not yet paired (409 once it is)."""
        t = self.get_object()
        data = ByeRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        cancelled = services.bye_request_cancel(
            registration=registration_get(tournament=t, player=data.validated_data["player"]),
            round_number=data.validated_data["round"],
            user=request.user,
        )
        return Response({"cancelled": cancelled})

    @extend_schema(request=WithdrawalSerializer, responses={200: None})
    @action(detail=True, methods=["post"], url_path="withdrawal-undo")
    def withdrawal_undo(self, request: Request, slug: str | None = None) -> Response:
        """Take a withdrawal back while no round was paired since (409 otherwise)."""
        t = self.get_object()
        data = WithdrawalSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_withdrawal_undo(
            registration=registration_get(tournament=t, player=data.validated_data["player"]),
            user=request.user,
        )
        return Response({"player": reg.player_id, "status": reg.status})

    @extend_schema(
        request=PlayerPairSerializer, responses={200: ForbiddenPairSerializer(many=True)}
    )
    @action(detail=True, methods=["get", "post"], url_path="forbidden-pairs")
    def forbidden_pairs(self, request: Request, slug: str | None = None) -> Response:
        """Pairs the pairing must not put together (TRF XXP): list (GET), add (POST)."""
        return self._forbidden_pairs(request, services.forbidden_pair_create)

    @extend_schema(
        request=PlayerPairSerializer, responses={200: ForbiddenPairSerializer(many=True)}
    )
    @action(detail=True, methods=["post"], url_path="forbidden-pairs/remove")
    def forbidden_pair_remove(self, request: Request, slug: str | None = None) -> Response:
        """Let two entrants meet again."""
        return self._forbidden_pairs(request, services.forbidden_pair_delete)

    def _forbidden_pairs(self, request: Request, change: Any) -> Response:
        t = self.get_object()
        if request.method == "POST":
            data = PlayerPairSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            change(tournament=t, user=request.user, **data.validated_data)
        rows = t.forbidden_pairs.select_related("first", "second")
        return Response(ForbiddenPairSerializer(rows, many=True).data)
