"""Views of the games' REST API: records, and the record actions the games app adds to the
tournaments' resources (a tournament's record uploads; a game's records, irregularities and
time-out), on the same paths."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors, services
from games.api.clocks import ClockActions
from games.api.serializers import (
    DISAGREEMENTS,
    DisagreementRulingSerializer,
    GameWithRecordSerializer,
    IrregularityOutSerializer,
    IrregularitySerializer,
    RecordInSerializer,
    RecordSerializer,
    SignatureInSerializer,
    SignatureSerializer,
    SigningKeySerializer,
    TimeoutSerializer,
    UploadOutSerializer,
    UploadSerializer,
)
from games.disagreement_selectors import result_disagreements
from games.models import Irregularity, RecordSubmission, SigningKey
from rules.position import KIND_NAMES
from tournaments.api import games as tournament_games
from tournaments.api import tournaments as tournament_resource
from tournaments.api.errors import errors
from tournaments.permissions import (
    game_visible_get,
    games_visible_q,
    records_unmatched_visible_q,
)


@extend_schema_view(retrieve=extend_schema(responses={200: RecordSerializer, **errors(404)}))
class RecordViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = RecordSubmission.objects.prefetch_related("signatures__signer")
    serializer_class = RecordSerializer

    def get_queryset(self) -> Any:
        """A record of a proposed round's game is its arbiters' own, as the game is
        (tournaments.permissions.game_visible_get): left out of the list, 404 otherwise. A
        record matched to no game is its event's arbiters' and its uploader's."""
        user = self.request.user
        visible = Q(game__isnull=False) & games_visible_q(user=user, prefix="game__")
        return super().get_queryset().filter(visible | records_unmatched_visible_q(user=user))

    @extend_schema(
        methods=["GET"],
        request=None,
        responses={200: SignatureSerializer(many=True), **errors(404)},
    )
    @extend_schema(
        methods=["POST"],
        request=SignatureInSerializer,
        responses={201: SignatureSerializer, **errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def signatures(self, request: Request, pk: str | None = None) -> Response:
        """The record's signatures (Art. 8.2); POST: a combatant or the arbiter signs it with
        a registered key (both combatants make it final; a signature given is not replaced)."""
        sub = self.get_object()
        if request.method == "GET":
            sigs = sub.signatures.select_related("signer", "submission").order_by("created_at")
            return Response(SignatureSerializer(sigs, many=True).data)
        data = SignatureInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        sig = services.signature_add(
            submission=sub,
            user=request.user,
            public_key=data.validated_data["public_key"],
            signature=data.validated_data["signature"],
        )
        return Response(SignatureSerializer(sig).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: RecordSerializer, **errors(401, 403, 404, 409)})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def requeue(self, request: Request, pk: str | None = None) -> Response:
        """The event's arbiters queue a record whose validation failed again (its attempts
        start over; audited); 409 for a record in any other status."""
        sub = services.submission_retry(submission=self.get_object(), user=request.user)
        return Response(RecordSerializer(sub).data)


@extend_schema_view(
    list=extend_schema(responses={200: SigningKeySerializer(many=True), **errors(401)}),
    create=extend_schema(responses={201: SigningKeySerializer, **errors(400, 401)}),
)
class SigningKeyViewSet(viewsets.GenericViewSet):
    """The signed-in user's public keys for signing records (Ed25519, raw base64 or PEM)."""

    serializer_class = SigningKeySerializer
    permission_classes = [permissions.IsAuthenticated]
    pagination_class = None

    def get_queryset(self) -> Any:
        return SigningKey.objects.filter(user=self.request.user).order_by("id")

    def list(self, request: Request) -> Response:
        return Response(SigningKeySerializer(self.get_queryset(), many=True).data)

    def create(self, request: Request) -> Response:
        data = SigningKeySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        key = services.signing_key_register(
            user=request.user,
            public_key=data.validated_data["public_key"],
            label=data.validated_data.get("label", ""),
        )
        return Response(SigningKeySerializer(key).data, status=status.HTTP_201_CREATED)


class TournamentViewSet(tournament_resource.TournamentViewSet):
    @extend_schema(
        request={"multipart/form-data": UploadSerializer},
        responses={201: UploadOutSerializer, **errors(400, 401, 403, 404)},
    )
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
        return Response(UploadOutSerializer(stored.as_dict()).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    retrieve=extend_schema(responses={200: GameWithRecordSerializer, **errors(404)})
)
class GameViewSet(ClockActions, tournament_games.GameViewSet):
    serializer_class = GameWithRecordSerializer

    def get_serializer(self, *args: Any, **kwargs: Any) -> Any:
        """The viewset's serializer; given games (a list's page, or one), their
        disagreements read once for them all and passed in its context, not once a game."""
        if args:
            games = list(args[0]) if kwargs.get("many") else [args[0]]
            if kwargs.get("many"):
                args = (games, *args[1:])  # a queryset read once, not again to serialize
            kwargs["context"] = {
                **self.get_serializer_context(),
                DISAGREEMENTS: result_disagreements(games=games),
            }
        return super().get_serializer(*args, **kwargs)

    @extend_schema(
        request=DisagreementRulingSerializer,
        responses={200: GameWithRecordSerializer, **errors(400, 401, 403, 404, 409)},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="record-disagreement",
        permission_classes=[permissions.IsAuthenticated],
    )
    def record_disagreement(self, request: Request, pk: str | None = None) -> Response:
        """The arbiter ends a disagreement between the entered result and the final signed
        record: `record` takes the record's result, `entered` keeps the entered one for a
        reason (audited either way); 409 when there is none to rule on."""
        game = game_visible_get(pk=pk, user=request.user)
        data = DisagreementRulingSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.result_disagreement_rule(
            game=game,
            decision=data.validated_data["decision"],
            reason=data.validated_data["reason"],
            user=request.user,
            entered=data.validated_data.get("entered"),
        )
        return Response(self.get_serializer(game).data)

    @extend_schema(
        request=RecordInSerializer,
        responses={201: RecordSerializer, **errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def records(self, request: Request, pk: str | None = None) -> Response:
        """Submit the game's record (validated in a worker); with a `reason`, an arbiter's
        correction of a record both combatants signed."""
        game = game_visible_get(pk=pk, user=request.user)
        data = RecordInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        raw = data.validated_data["text"].encode("utf-8")
        reason = data.validated_data.get("reason", "")
        if reason.strip() and selectors.record_final(game=game) is not None:
            # A record both combatants signed (Art. 8.2): the arbiter's ruling, as at
            # irregularities/ with kind "correction"; anyone else is refused there.
            ruling = services.record_correction_rule(
                game=game, raw=raw, reason=reason, user=request.user
            )
            sub = ruling.new_submission
        else:
            sub = services.submission_create(
                game=game, raw=raw, source=RecordSubmission.Source.API, user=request.user
            )
        sub.refresh_from_db()
        return Response(RecordSerializer(sub).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: SignatureSerializer(many=True), **errors(404)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def signatures(self, request: Request, pk: str | None = None) -> Response:
        """Every signature of every version of the game's record (Art. 8.2)."""
        game = self.get_object()
        return Response(SignatureSerializer(selectors.game_signatures(game=game), many=True).data)

    @extend_schema(
        request=IrregularitySerializer,
        responses={201: IrregularityOutSerializer, **errors(400, 401, 403, 404)},
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def irregularities(self, request: Request, pk: str | None = None) -> Response:
        """The arbiter's ruling on an irregularity (Art. 7.1, 7.3)."""
        game = game_visible_get(pk=pk, user=request.user)
        data = IrregularitySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data["kind"] == Irregularity.Kind.CORRECTION:
            # the one way to a new version of a record both combatants signed (Art. 8.2)
            irregularity = services.record_correction_rule(
                game=game,
                raw=data.validated_data.get("text", "").encode("utf-8"),
                reason=data.validated_data["reason"],
                user=request.user,
            )
        else:
            irregularity = services.irregularity_declare(
                game=game,
                kind=data.validated_data["kind"],
                reason=data.validated_data["reason"],
                user=request.user,
            )
        game.refresh_from_db()
        ruling = {
            "kind": irregularity.kind,
            "article": irregularity.article,
            "ply": irregularity.ply,
            "new_record": irregularity.new_submission_id,
            "result": game.result,
            # Italian society, 7.3 with no position to restore: annulled and replayed.
            "battles_annulled": game.battles_annulled,
            "replay_from_version": game.replay_from_version,
        }
        return Response(IrregularityOutSerializer(ruling).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None, responses={200: TimeoutSerializer, **errors(400, 401, 403, 404, 409)}
    )
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def timeout(self, request: Request, pk: str | None = None) -> Response:
        """Italian society: decide a battle stopped at time-out from its latest valid record
        (the count; a tie or a Bach'san replay: the coin; a final: the Bach'san replay)."""
        game = game_visible_get(pk=pk, user=request.user)
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
