"""The API's refusals as its schema shows them: the bodies DRF and klinzha_site.api_errors
answer with (400 the fields at fault, 401, 403 and 404 a detail, 409 the event's state), as
OpenAPI responses each action lists beside its success with `errors(...)`."""

from __future__ import annotations

import inspect
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorDetailSerializer(serializers.Serializer):
    """A refusal that names no field: not signed in (401), not allowed (403), nothing there
    (404), a body that could not be read (400)."""

    detail = serializers.CharField(help_text="why, in the request's language")


class FieldErrorsSerializer(serializers.Serializer):
    """A body refused (400): each field at fault with its messages (`non_field_errors` for a
    rule between fields, `detail` for what names no field; a list's items by index)."""


class ConflictSerializer(serializers.Serializer):
    """The event's state forbids it now (409): the messages by field, or under `detail`,
    saying why and what can be done first."""


class _FieldErrorsSchema(OpenApiSerializerExtension):
    target_class = FieldErrorsSerializer

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        messages = {"type": "array", "items": {}}
        nested = {"type": "object", "additionalProperties": {}}
        return {
            "type": "object",
            "description": inspect.cleandoc(FieldErrorsSerializer.__doc__ or ""),
            "additionalProperties": {"anyOf": [messages, {"type": "string"}, nested]},
            "example": {"player": ["not registered in this tournament"]},
        }


class _ConflictSchema(OpenApiSerializerExtension):
    target_class = ConflictSerializer

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        return {
            "type": "object",
            "description": inspect.cleandoc(ConflictSerializer.__doc__ or ""),
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
            "example": {"round_number": ["round 3 is already paired"]},
        }


ERROR_RESPONSES = {
    400: OpenApiResponse(FieldErrorsSerializer, description="the body or a parameter refused"),
    401: OpenApiResponse(ErrorDetailSerializer, description="not signed in"),
    403: OpenApiResponse(ErrorDetailSerializer, description="the caller's role does not allow it"),
    404: OpenApiResponse(ErrorDetailSerializer, description="no such object (or not visible)"),
    409: OpenApiResponse(ConflictSerializer, description="the event's state forbids it now"),
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """The refusals an action can answer with, for its `responses`."""
    return {code: ERROR_RESPONSES[code] for code in codes}
