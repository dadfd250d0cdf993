"""Errors every layer may raise: a refusal because of the state things are in (HTTP 409),
as opposed to bad input (a plain ValidationError, HTTP 400)."""

from __future__ import annotations

from django.core.exceptions import ValidationError


class Conflict(ValidationError):
    """The request is well formed but the event's state forbids it now (a result pending, a
    round proposed, no pairing possible); the message says why and what can be done."""
