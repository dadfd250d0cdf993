"""The API's tournament resource: list, read, create, change its settings; its standings and
crosstable (published, from the cache) and officials. Its entrants', rounds' and penalties'
actions come from tournaments.api.entrants, rounds and penalties, its TRF import from
tournaments.api.trf; the games app adds the record uploads (games.api.views)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import permissions, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.api.check_in import CheckInActions
from tournaments.api.common import api_published
from tournaments.api.entrants import EntrantActions
from tournaments.api.errors import errors
from tournaments.api.inputs import OfficialsSerializer
from tournaments.api.outputs import (
    CrosstableSerializer,
    OfficialsOutSerializer,
    StandingRowSerializer,
)
from tournaments.api.penalties import PenaltyActions
from tournaments.api.rounds import RoundActions
from tournaments.api.serializers import TournamentSerializer
from tournaments.api.trf import TrfImportActions
from tournaments.models import Tournament
from tournaments.permissions import OrganizerWriteOrReadOnly, TournamentWriteArbiters
from tournaments.rating_event_selectors import crosstable_json_rated
from tournaments.standings import standings_json


@extend_schema_view(
    create=extend_schema(responses={201: TournamentSerializer, **errors(400, 401, 403)}),
    retrieve=extend_schema(responses={200: TournamentSerializer, **errors(404)}),
    partial_update=extend_schema(
        responses={200: TournamentSerializer, **errors(400, 401, 403, 404)}
    ),
)
class TournamentViewSet(
    EntrantActions,
    CheckInActions,
    RoundActions,
    PenaltyActions,
    TrfImportActions,
    viewsets.ModelViewSet,
):
    queryset = Tournament.objects.all()
    serializer_class = TournamentSerializer
    lookup_field = "slug"
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_permissions(self) -> list[Any]:
        if self.action == "create":
            return [OrganizerWriteOrReadOnly()]
        # An action's own classes (TournamentArbiter on the batches) stand beside the default.
        own = [
            p() for p in self.permission_classes if p is not permissions.IsAuthenticatedOrReadOnly
        ]
        return [permissions.IsAuthenticatedOrReadOnly(), TournamentWriteArbiters(), *own]

    def perform_create(self, serializer: Any) -> None:
        serializer.instance = services.tournament_create(
            organizer=self.request.user, **serializer.validated_data
        )

    def perform_update(self, serializer: Any) -> None:
        serializer.instance = services.tournament_update(
            tournament=serializer.instance, user=self.request.user, **serializer.validated_data
        )

    @extend_schema(
        responses={200: StandingRowSerializer(many=True), **errors(404)},
        # The name it always had, from when the schema did not say it is a list.
        operation_id="tournaments_standings_retrieve",
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request: Request, slug: str | None = None) -> Any:
        """The standings by rank, with each tie-break (published: from the cache)."""

        def body(t: Tournament) -> Response:
            rows = selectors.standings_compute(tournament=t)
            return Response(standings_json(rows, t.tiebreak_list, extended=True))

        return api_published(view=self, request=request, page="standings", body=body)

    @extend_schema(responses={200: CrosstableSerializer, **errors(404)})
    @action(detail=True, methods=["get"])
    def crosstable(self, request: Request, slug: str | None = None) -> Any:
        """The crosstable: each line's rounds, score and tie-breaks, the marks' legend and
        the audit trail's head (published: from the cache)."""
        return api_published(
            view=self,
            request=request,
            page="crosstable",
            body=lambda t: Response(crosstable_json_rated(tournament=t)),
            audited=True,  # it publishes the audit trail's head
        )

    @extend_schema(
        request=OfficialsSerializer,
        responses={200: OfficialsOutSerializer, **errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["post"])
    def officials(self, request: Request, slug: str | None = None) -> Response:
        """Set the chief arbiter and the arbiters (by username); who they are now."""
        t = self.get_object()
        data = OfficialsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        t = services.officials_set(
            tournament=t,
            user=request.user,
            chief_arbiter=data.validated_data.get("chief_arbiter"),
            arbiters=data.validated_data.get("arbiters", []),
        )
        officials = {
            "chief_arbiter": t.chief_arbiter.get_username() if t.chief_arbiter else None,
            "arbiters": sorted(a.get_username() for a in t.arbiters.all()),
        }
        return Response(OfficialsOutSerializer(officials).data)
