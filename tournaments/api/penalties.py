"""The API's penalties of a tournament (imposed, revoked) and its audit trail; actions of the
tournament resource."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from klinzha_site.parsing import ascii_int_or_none
from tournaments import audit_selectors, selectors, services
from tournaments.api.errors import errors
from tournaments.api.inputs import RevocationSerializer
from tournaments.api.serializers import AuditSerializer, PenaltySerializer
from tournaments.models import Penalty
from tournaments.roles import Role, role_require, user_can_arbitrate


# Actions of TournamentViewSet (tournaments.api.tournaments), on /api/tournaments/{slug}/.
# (No class docstring: drf-spectacular would take it for every tournament operation's
# description.)
class PenaltyActions(viewsets.GenericViewSet):
    @extend_schema(
        methods=["GET"],
        request=None,
        responses={200: PenaltySerializer(many=True), **errors(404)},
    )
    @extend_schema(
        methods=["POST"],
        request=PenaltySerializer,
        responses={201: PenaltySerializer, **errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def penalties(self, request: Request, slug: str | None = None) -> Response:
        """Arbiters see and impose penalties; a player sees their own."""
        t = self.get_object()
        if request.method == "GET":
            rows = selectors.penalty_list(tournament=t, user=request.user)
            return Response(PenaltySerializer(rows, many=True).data)
        data = PenaltySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        penalty = services.penalty_impose(
            tournament=t,
            player=v["player"],
            kind=v["kind"],
            reason=v["reason"],
            user=request.user,
            game=v.get("game"),
            round_number=v.get("round_number"),
            amount=v.get("amount"),
            from_ply=v.get("from_ply"),
        )
        return Response(PenaltySerializer(penalty).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=RevocationSerializer,
        responses={201: PenaltySerializer, **errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["post"])
    def revocations(self, request: Request, slug: str | None = None) -> Response:
        """Revoke a penalty: the revocation, itself a penalty row that `revokes` it."""
        t = self.get_object()
        # Who may ask first: an outsider learns nothing about which penalties exist (403).
        role_require(user=request.user, tournament=t, role=Role.ARBITER)
        data = RevocationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        penalty = Penalty.objects.filter(tournament=t, pk=data.validated_data["penalty"]).first()
        if penalty is None:
            raise ValidationError({"penalty": gettext("no such penalty in this tournament")})
        revocation = services.penalty_revoke(
            penalty=penalty, reason=data.validated_data["reason"], user=request.user
        )
        return Response(PenaltySerializer(revocation).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: AuditSerializer(many=True), **errors(400, 403, 404)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def audit(self, request: Request, slug: str | None = None) -> Response:
        """The tournament's audit trail: arbiters only."""
        t = self.get_object()
        if not user_can_arbitrate(user=request.user, tournament=t):
            raise PermissionDenied(
                gettext("only this tournament's arbiters may read its audit trail")
            )
        rows = t.audit.all()
        player = request.query_params.get("player", "")
        player_id = ascii_int_or_none(player, field="player")
        if player_id is not None:
            rows = audit_selectors.audit_for_player(tournament=t, player_id=player_id)
        rows = list(rows)
        labels = audit_selectors.audit_object_labels(entries=rows)
        return Response(AuditSerializer(rows, many=True, context={"labels": labels}).data)
