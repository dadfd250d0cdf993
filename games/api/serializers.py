"""Serializers of the games' REST API: records in and out, bulk uploads, rulings."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.disagreement_selectors import result_disagreements
from games.models import Irregularity, RecordSignature, RecordSubmission, SigningKey
from games.services import MAX_RECORD_BYTES
from games.services.disagreements import DECISIONS
from klinzha_site.parsers import StrictCharField
from tournaments.api.inputs import RESULTS_ENTERED
from tournaments.api.serializers import GameSerializer
from tournaments.models import Game


class RecordInSerializer(serializers.Serializer):
    text = StrictCharField(max_length=MAX_RECORD_BYTES, trim_whitespace=False)
    reason = StrictCharField(
        max_length=2000,
        required=False,
        help_text="an arbiter's ruling (Art. 7) correcting a record both combatants signed: "
        "why (without it such a record is final, 409)",
    )

    def validate_text(self, value: str) -> str:
        if not value.strip():
            raise serializers.ValidationError("the record is empty")
        return value


class SignatureSerializer(serializers.ModelSerializer):
    """A signature (Art. 8.2) with what checks it: the signed text is the record's canonical
    form (GET /g/{game}/canonical.txt?submission={record}), the key raw Ed25519 in base64."""

    record = serializers.IntegerField(source="submission_id", read_only=True)
    version = serializers.IntegerField(source="submission.version", read_only=True)
    signer = serializers.CharField(source="signer.username", read_only=True, allow_null=True)

    class Meta:
        model = RecordSignature
        fields = ["record", "version", "role", "signer", "public_key", "signature", "created_at"]
        read_only_fields = fields


class SignatureInSerializer(serializers.Serializer):
    public_key = serializers.CharField(max_length=1000, help_text="raw base64 or PEM")
    signature = serializers.CharField(max_length=200, help_text="base64 Ed25519 signature")


class SigningKeySerializer(serializers.ModelSerializer):
    public_key = serializers.CharField(max_length=1000, help_text="raw base64 or PEM")
    label = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")

    class Meta:
        model = SigningKey
        fields = ["id", "public_key", "label", "created_at"]
        read_only_fields = ["id", "created_at"]


class RecordSerializer(serializers.ModelSerializer):
    signatures = SignatureSerializer(many=True, read_only=True)

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
            "signatures",
            # How the record was found for its game, or that it names other players and
            # awaits an arbiter's confirmation (games.selectors.NAMES_PENDING).
            "match_note",
            # Status `failed`: why its validation failed, until an arbiter queues it again
            # (POST /api/records/{id}/requeue/).
            "failure_reason",
            "attempts",
        ]
        read_only_fields = fields


class UploadSerializer(serializers.Serializer):
    file = serializers.FileField()


MAX_UPLOAD_BYTES = 200 * 2**20


class IrregularitySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Irregularity.Kind.choices)
    reason = StrictCharField(max_length=2000)
    text = StrictCharField(
        max_length=MAX_RECORD_BYTES,
        required=False,
        trim_whitespace=False,
        help_text="kind correction: the corrected record, stored as the next version",
    )


class TimeoutSerializer(serializers.Serializer):
    """The Italian society's decision of a battle stopped at time-out."""

    how = serializers.ChoiceField(choices=["count", "coin", "bachsan"])
    winner = serializers.CharField(allow_null=True)
    explanation = serializers.CharField()
    removed = serializers.CharField(allow_null=True, help_text="Bach'san: the warrior removed")
    result = serializers.CharField(allow_blank=True)


class UploadedRecordSerializer(serializers.Serializer):
    """One record of an upload: stored as `id`, matched to `game` (null: to none) and why."""

    id = serializers.IntegerField()
    file = serializers.CharField(allow_blank=True)
    game = serializers.IntegerField(allow_null=True)
    match = serializers.CharField(allow_blank=True)


class UploadOutSerializer(serializers.Serializer):
    """What an upload stored (games.services.bulk.BulkUpload.as_dict), in its order."""

    stored = serializers.IntegerField()
    matched = serializers.IntegerField()
    records = UploadedRecordSerializer(many=True)


class IrregularityOutSerializer(serializers.Serializer):
    """The ruling on an irregularity and where it leaves the game."""

    kind = serializers.ChoiceField(choices=Irregularity.Kind.choices)
    article = serializers.CharField()
    ply = serializers.IntegerField(allow_null=True, help_text="the illegal ply")
    new_record = serializers.IntegerField(allow_null=True, help_text="the record's new version")
    result = serializers.ChoiceField(choices=Game.Result.choices)
    battles_annulled = serializers.IntegerField()
    replay_from_version = serializers.IntegerField()


# The serializer context's key for the disagreements of the games serialized, by game id
# (games.disagreement_selectors.result_disagreements), read once for them all.
DISAGREEMENTS = "record_disagreements"


class GameWithRecordSerializer(GameSerializer):
    """A game with what its final record says against its entered result."""

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "record_disagreement"]
        read_only_fields = fields

    record_disagreement = serializers.SerializerMethodField(
        help_text="the entered result contradicts the final signed record (Art. 8.2) or its "
        "clock decision, and no ruling settled it: entered, record_result, record, version, "
        "termination, winner, clock_decision, article; null when they agree"
    )

    def get_record_disagreement(self, game: Game) -> dict[str, Any] | None:
        # The view reads the disagreements of the whole page at once and passes them in the
        # context (DISAGREEMENTS); a game serialized without them is read on its own.
        found = self.context.get(DISAGREEMENTS)
        if found is None:
            found = result_disagreements(games=[game])
        disagreement = found.get(game.pk)
        return disagreement.as_dict() if disagreement is not None else None


class DisagreementRulingSerializer(serializers.Serializer):
    """The arbiter's ruling on an entered result the final record contradicts."""

    decision = serializers.ChoiceField(
        choices=list(DECISIONS),
        help_text="record: enter the result the final record decides; entered: the entered "
        "result stands (give the reason)",
    )
    reason = StrictCharField(max_length=2000, required=False, allow_blank=True, default="")
    entered = serializers.ChoiceField(
        choices=RESULTS_ENTERED,
        required=False,
        help_text="the entered result ruled on (as shown); 409 if it was changed meanwhile",
    )
