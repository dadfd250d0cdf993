"""Views of the games' REST API: records, and the record actions the games app adds to the
tournaments' resources (a tournament's record uploads; a game's records, irregularities and
time-out), on the same paths."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from games import services
from games.api.serializers import (
    IrregularitySerializer,
    RecordInSerializer,
    RecordSerializer,
    TimeoutSerializer,
    UploadSerializer,
)
from games.models import RecordSubmission
from rules.position import KIND_NAMES
from tournaments.api import views as tournament_views
from tournaments.models import Game


class RecordViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = RecordSubmission.objects.all()
    serializer_class = RecordSerializer


class TournamentViewSet(tournament_views.TournamentViewSet):
    @extend_schema(request={"multipart/form-data": UploadSerializer}, responses={201: None})
    @action(
        detail=True,
        methods=["post"],
        url_path="record-uploads",
        parser_classes=[MultiPartParser],
    )
    def record_uploads(self, request: Request, slug: str | None = None) -> Response:
        """Upload a zip of records (or one record) of the tournament: each is stored, matched
        to its game by its Round, Green and Gold tags, and validated."""
        t = self.get_object()
        data = UploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        upload = data.validated_data["file"]
        services.upload_size_check(upload.size)  # before reading it into memory
        stored = services.bulk_upload(
            tournament=t, data=upload.read(), filename=upload.name or "", user=request.user
        )
        return Response(stored.as_dict(), status=status.HTTP_201_CREATED)


class GameViewSet(tournament_views.GameViewSet):
    @extend_schema(request=RecordInSerializer, responses={201: RecordSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def records(self, request: Request, pk: str | None = None) -> Response:
        game = get_object_or_404(Game, pk=pk)
        data = RecordInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        sub = services.submission_create(
            game=game,
            raw=data.validated_data["text"].encode("utf-8"),
            source=RecordSubmission.Source.API,
            user=request.user,
        )
        sub.refresh_from_db()
        return Response(RecordSerializer(sub).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=IrregularitySerializer, responses={201: None})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def irregularities(self, request: Request, pk: str | None = None) -> Response:
        """The arbiter's ruling on an irregularity (Art. 7.1, 7.3)."""
        game = get_object_or_404(Game, pk=pk)
        data = IrregularitySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        irregularity = services.irregularity_declare(
            game=game,
            kind=data.validated_data["kind"],
            reason=data.validated_data["reason"],
            user=request.user,
        )
        game.refresh_from_db()
        return Response(
            {
                "kind": irregularity.kind,
                "article": irregularity.article,
                "ply": irregularity.ply,
                "new_record": irregularity.new_submission_id,
                "result": game.result,
            },
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=None, responses={200: TimeoutSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def timeout(self, request: Request, pk: str | None = None) -> Response:
        """Italian society: decide a battle stopped at time-out from its latest valid record
        (the count; a tie or a Bach'san replay: the coin; a final: the Bach'san replay)."""
        game = get_object_or_404(Game, pk=pk)
        decision = services.game_timeout_decide(game=game, user=request.user)
        game.refresh_from_db()
        data = {
            "how": decision.how,
            "winner": decision.winner_name,
            "explanation": decision.explanation,
            "removed": KIND_NAMES[decision.removed] if decision.removed else None,
            "result": game.result,
        }
        return Response(TimeoutSerializer(data).data)
