"""The API's error answers: the services' Django errors as DRF responses."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler

from klinzha_site.errors import Conflict, RowsRefused


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Django validation errors from the services become 400s naming the field at fault;
    conflicts with the event's state, 409s; a batch's refused rows, 400s naming each row
    by its index in the list and its fields."""
    if isinstance(exc, RowsRefused):
        rows = {str(key): fields for key, fields in sorted(exc.rows.items())}
        return Response({exc.list_field: rows}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Conflict):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        return Response(detail, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = ValidationError(detail)
    return exception_handler(exc, context)
