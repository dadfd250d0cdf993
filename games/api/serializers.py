"""Serializers of the games' REST API: records in and out, bulk uploads, rulings."""

from __future__ import annotations

from rest_framework import serializers

from games.models import Irregularity, RecordSubmission
from games.services import MAX_RECORD_BYTES


class RecordInSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=MAX_RECORD_BYTES, trim_whitespace=False)


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


class UploadSerializer(serializers.Serializer):
    file = serializers.FileField()


MAX_UPLOAD_BYTES = 200 * 2**20


class IrregularitySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Irregularity.Kind.choices)
    reason = serializers.CharField(max_length=2000)


class TimeoutSerializer(serializers.Serializer):
    """The Italian society's decision of a battle stopped at time-out."""

    how = serializers.ChoiceField(choices=["count", "coin", "bachsan"])
    winner = serializers.CharField(allow_null=True)
    explanation = serializers.CharField()
    removed = serializers.CharField(allow_null=True, help_text="Bach'san: the warrior removed")
    result = serializers.CharField(allow_blank=True)
