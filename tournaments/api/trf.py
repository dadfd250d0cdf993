"""The API's TRF import: POST /api/tournaments/import/trf/ makes a tournament from a FIDE
Tournament Report File (uploaded, or its text in JSON), or with `check` says what it would
make and stores nothing; the same import and report as `kz trf import [--check] --json`."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from klinzha_site.parsers import BoundedJSONParser, BoundedMultiPartParser, StrictCharField
from tournaments.api.errors import errors
from tournaments.roles import user_is_organizer
from tournaments.services.trf_import import trf_import, trf_import_check
from tournaments.trf import TrfError, trf_text_decode
from tournaments.trf.file_text import TRF_UPLOAD_MAX

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})


class TrfUploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="the TRF file (TRF16 or TRF-2025; UTF-8 or Latin-1)")
    check = serializers.BooleanField(
        required=False,
        default=False,
        help_text="true: answer what the import would make and store nothing",
    )


class TrfTextSerializer(serializers.Serializer):
    text = StrictCharField(
        max_length=TRF_UPLOAD_MAX, trim_whitespace=False, help_text="the TRF file's text"
    )
    check = serializers.BooleanField(
        required=False,
        default=False,
        help_text="true: answer what the import would make and store nothing",
    )


class TrfCheckOutSerializer(serializers.Serializer):
    """What the import would make (`kz trf import --check --json`); nothing is stored."""

    check = serializers.BooleanField(help_text="always true: nothing was stored")
    name = serializers.CharField()
    slug = serializers.CharField(help_text="the slug the import would give it now")
    dialect = serializers.CharField(help_text="TRF16 or TRF-2025, as the export will write it")
    start_date = serializers.DateField()
    end_date = serializers.DateField(allow_null=True)
    pairing_system = serializers.CharField()
    rounds_planned = serializers.IntegerField()
    rounds = serializers.IntegerField(help_text="rounds played in the file")
    players = serializers.IntegerField()
    withdrawn = serializers.IntegerField()
    games = serializers.IntegerField()
    byes = serializers.IntegerField()
    forbidden_pairs = serializers.IntegerField()
    bye_points = serializers.FloatField()
    warnings = serializers.ListField(
        child=serializers.CharField(),
        help_text="what the import read leniently or corrected (the file's scoring first)",
    )


class TrfImportOutSerializer(serializers.Serializer):
    """The tournament the file made (its organizer: the caller), and the import's warnings."""

    check = serializers.BooleanField(help_text="always false: the tournament was stored")
    slug = serializers.CharField()
    name = serializers.CharField()
    warnings = serializers.ListField(child=serializers.CharField())


class Organizers(permissions.BasePermission):
    """Whoever may create a tournament may import one (roles.user_is_organizer)."""

    message = gettext_lazy("only organizers may create tournaments")

    def has_permission(self, request: Request, view: Any) -> bool:
        return user_is_organizer(request.user)


def _wanted(value: Any) -> bool:
    return str(value).strip().casefold() in TRUE_WORDS


def _uploaded(request: Request) -> bool:
    return "file" in request.FILES or request.content_type.startswith("multipart/")


def _text(request: Request) -> tuple[str, bool]:
    """The file's text and whether only a check is asked (the body's `check`, or
    `?check=true`); a body without a file or a text is refused naming the field."""
    uploaded = _uploaded(request)
    data = (TrfUploadSerializer if uploaded else TrfTextSerializer)(data=request.data)
    data.is_valid(raise_exception=True)
    check = bool(data.validated_data["check"]) or _wanted(request.query_params.get("check", ""))
    if not uploaded:
        return trf_text_decode(data.validated_data["text"].encode("utf-8")), check
    upload = data.validated_data["file"]
    if upload.size is not None and upload.size > TRF_UPLOAD_MAX:
        raise ValidationError(
            {"file": [gettext("larger than %(number)s kB") % {"number": TRF_UPLOAD_MAX // 1000}]}
        )
    return trf_text_decode(upload.read(TRF_UPLOAD_MAX + 1)), check


# An action of TournamentViewSet (tournaments.api.tournaments), on /api/tournaments/.
# (No class docstring: drf-spectacular would take it for every tournament operation's.)
class TrfImportActions(viewsets.GenericViewSet):
    @extend_schema(
        request={
            "multipart/form-data": TrfUploadSerializer,
            "application/json": TrfTextSerializer,
        },
        parameters=[
            OpenApiParameter(
                "check",
                OpenApiTypes.BOOL,
                OpenApiParameter.QUERY,
                description="true: answer what the import would make and store nothing "
                "(as the body's `check`)",
            )
        ],
        responses={
            200: TrfCheckOutSerializer,
            201: TrfImportOutSerializer,
            **errors(400, 401, 403),
        },
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="import/trf",
        parser_classes=[BoundedMultiPartParser, BoundedJSONParser],
        permission_classes=[Organizers],
    )
    def import_trf(self, request: Request) -> Response:
        """Make a tournament from a TRF file (TRF16 or TRF-2025, as `kz trf import`), the
        caller its organizer, in one transaction; with `check`, answer what it would make
        (players, rounds, games, byes, dates) and the warnings, storing nothing. A refused
        file: 400, the field (`file` or `text`) with the line at fault and why, and that
        line's number in `lines` (empty when the refusal names no line); nothing stored."""
        text, check = _text(request)
        try:
            if check:
                found = trf_import_check(text=text, organizer=request.user)
                body = {"check": True, **found.summary, "warnings": found.warnings}
                return Response(TrfCheckOutSerializer(body).data)
            imported = trf_import(text=text, organizer=request.user)
        except TrfError as exc:
            field = "file" if _uploaded(request) else "text"
            lines = [] if exc.line is None else [exc.line]
            refusal = {field: [str(exc)], "lines": lines}
            return Response(refusal, status=status.HTTP_400_BAD_REQUEST)
        t = imported.tournament
        body = {"check": False, "slug": t.slug, "name": t.name, "warnings": imported.warnings}
        return Response(TrfImportOutSerializer(body).data, status=status.HTTP_201_CREATED)
