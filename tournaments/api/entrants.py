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
from tournaments.api.errors import errors
from tournaments.api.inputs import (
    ByeRequestSerializer,
    EntrantBatchSerializer,
    PlayerPairSerializer,
    RegistrationSerializer,
    StartRankSerializer,
    WithdrawalSerializer,
)
from tournaments.api.outputs import (
    ByeCancelOutSerializer,
    ByeRequestOutSerializer,
    ByeRequestRowSerializer,
    EntrantBatchOutSerializer,
    EntrantMatchesOutSerializer,
    RegistrationOutSerializer,
    WithdrawalOutSerializer,
    WithdrawalUndoOutSerializer,
)
from tournaments.api.serializers import EntrantSerializer, ForbiddenPairSerializer
from tournaments.permissions import TournamentArbiter

# What a write on an entrant can be refused with; 409 where the event's state decides.
WRITE_ERRORS = errors(400, 401, 403, 404)
STATE_ERRORS = errors(400, 401, 403, 404, 409)


# Actions of TournamentViewSet (tournaments.api.tournaments), on /api/tournaments/{slug}/.
# (No class docstring: drf-spectacular would take it for every tournament operation's
# description.)
class EntrantActions(viewsets.GenericViewSet):
    @extend_schema(
        methods=["GET"],
        request=None,
        responses={200: EntrantSerializer(many=True), **errors(404)},
    )
    @extend_schema(
        methods=["POST"],
        request=RegistrationSerializer,
        responses={201: RegistrationOutSerializer, **STATE_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
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
        return Response(RegistrationOutSerializer(reg).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=EntrantBatchSerializer,
        responses={201: EntrantBatchOutSerializer, **STATE_ERRORS},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="registrations/bulk",
        permission_classes=[TournamentArbiter],
    )
    def registrations_bulk(self, request: Request, slug: str | None = None) -> Response:
        """Register many entrants at once (known players by id, new players made), in one
        transaction, their start ranks computed once as registering them one by one would;
        late entries after round 1 is paired. A refused row is named by its index with its
        fields (400 `{"rows": {"3": {"rating": [...]}}}`, every such row) and then nothing
        is stored."""
        t = self.get_object()  # the role first: a batch is read only for the arbiters
        data = EntrantBatchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rows = [
            services.EntrantRow(key=index, known_by_name=data.validated_data["match"], **row)
            for index, row in enumerate(data.validated_data["rows"])
        ]
        regs = services.entrants_register(tournament=t, rows=rows, user=request.user)
        body = {"registered": len(regs), "registrations": regs}
        return Response(EntrantBatchOutSerializer(body).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=EntrantBatchSerializer, responses={200: EntrantMatchesOutSerializer, **WRITE_ERRORS}
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="registrations/bulk/preview",
        permission_classes=[TournamentArbiter],
        pagination_class=None,
    )
    def registrations_bulk_preview(self, request: Request, slug: str | None = None) -> Response:
        """The batch of registrations/bulk read against the known players, nothing stored:
        each row given (its player named), known (the one player it matches, with `match`
        true), new, or ambiguous (the candidates to choose among by giving an id)."""
        self.get_object()  # the role first
        data = EntrantBatchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rows = [
            services.EntrantRow(key=index, known_by_name=data.validated_data["match"], **row)
            for index, row in enumerate(data.validated_data["rows"])
        ]
        matches = services.entrant_rows_match(rows)
        out = []
        for row in rows:
            found = matches.get(row.key)
            kind = "given" if row.player is not None else (found.kind if found else "new")
            player = (
                row.player
                if row.player is not None
                else (found.player.pk if found and found.player else None)
            )
            out.append(
                {
                    "row": row.key,
                    "match": str(kind),
                    "player": player,
                    "candidates": list(found.candidates) if found else [],
                }
            )
        return Response(EntrantMatchesOutSerializer({"rows": out}).data)

    @extend_schema(
        request=StartRankSerializer,
        responses={200: EntrantSerializer(many=True), **STATE_ERRORS},
    )
    @action(detail=True, methods=["post"], url_path="start-ranks", pagination_class=None)
    def start_ranks(self, request: Request, slug: str | None = None) -> Response:
        """Seed the entrants again by rating (`sort`), or move one to a start rank; until
        round 1 is paired (409 after). The entrants by their new start ranks."""
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

    @extend_schema(
        request=WithdrawalSerializer, responses={200: WithdrawalOutSerializer, **STATE_ERRORS}
    )
    @action(detail=True, methods=["post"])
    def withdrawals(self, request: Request, slug: str | None = None) -> Response:
        """Withdraw an entrant from the next round on (`expelled`: an expulsion, Art.
        12.4 g)."""
        t = self.get_object()
        data = WithdrawalSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_withdraw(
            registration=registration_get(tournament=t, player=data.validated_data["player"]),
            user=request.user,
            expelled=data.validated_data["expelled"],
        )
        return Response(WithdrawalOutSerializer(reg).data)

    @extend_schema(
        methods=["GET"],
        request=None,
        responses={200: ByeRequestRowSerializer(many=True), **errors(404)},
        # The name it always had, from when the schema did not say it is a list.
        operation_id="tournaments_bye_requests_retrieve",
    )
    @extend_schema(
        methods=["POST"],
        request=ByeRequestSerializer,
        responses={201: ByeRequestOutSerializer, **STATE_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], url_path="bye-requests", pagination_class=None)
    def bye_requests(self, request: Request, slug: str | None = None) -> Response:
        """The requested byes (GET); request one for a round not yet paired (POST)."""
        t = self.get_object()
        if request.method == "GET":
            rows = selectors.bye_request_list(tournament=t)
            return Response(ByeRequestRowSerializer(rows, many=True).data)
        data = ByeRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bye = services.bye_request_create(
            registration=registration_get(tournament=t, player=data.validated_data["player"]),
            round_number=data.validated_data["round"],
            user=request.user,
        )
        return Response(ByeRequestOutSerializer(bye).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=ByeRequestSerializer, responses={200: ByeCancelOutSerializer, **STATE_ERRORS}
    )
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
        return Response(ByeCancelOutSerializer({"cancelled": cancelled}).data)

    @extend_schema(
        request=WithdrawalSerializer, responses={200: WithdrawalUndoOutSerializer, **STATE_ERRORS}
    )
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
        return Response(WithdrawalUndoOutSerializer(reg).data)

    @extend_schema(
        methods=["GET"],
        request=None,
        responses={200: ForbiddenPairSerializer(many=True), **errors(404)},
    )
    @extend_schema(
        methods=["POST"],
        request=PlayerPairSerializer,
        responses={200: ForbiddenPairSerializer(many=True), **WRITE_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], url_path="forbidden-pairs", pagination_class=None)
    def forbidden_pairs(self, request: Request, slug: str | None = None) -> Response:
        """Pairs the pairing must not put together (TRF XXP): list (GET), add (POST)."""
        return self._forbidden_pairs(request, services.forbidden_pair_create)

    @extend_schema(
        request=PlayerPairSerializer,
        responses={200: ForbiddenPairSerializer(many=True), **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"], url_path="forbidden-pairs/remove", pagination_class=None)
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
