"""Model field validators that migrations name by dotted path: their one stable home.

A migration that alters a field records its validators as `tournaments.validators.<name>`
and imports this module whenever it is loaded, so this module is never renamed or moved and
no name here is ever removed or renamed (makemigrations compares validators by identity: a
copy frozen inside a migration would never equal the model's). A body may change with the
rules it checks; migrations never call it. Everything else a migration needs is copied into
the migration itself (docs/CONVENTIONS.md)."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from tournaments.event_rules import time_control_read


def time_control_validate(value: str) -> None:
    """The model field's validator: the forms, the API and the services all refuse a time
    control the clocks could not be adjudicated under."""
    try:
        time_control_read(value)
    except ValueError as exc:
        raise ValidationError(str(exc), code="time_control") from None
