"""REST API for game records: submit one, read its verdict."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.request import Request
from rest_framework.response import Response

from games import services
from games.models import Game, RecordSubmission


class RecordInSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=services.MAX_RECORD_BYTES, trim_whitespace=False)


class RecordSerializer(serializers.ModelSerializer):
    class Meta:
        model = RecordSubmission
        fields = [
            "id",
            "game",
            "version",
            "source",
            "status",
            "created_at",
            "validated_at",
            "readable",
            "valid",
            "plies",
            "error",
            "warnings",
            "termination",
            "winner",
            "result_tag",
            "clock",
            "locked",
        ]
        read_only_fields = fields


class RecordViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = RecordSubmission.objects.all()
    serializer_class = RecordSerializer


class GameRecordsMixin:
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
