"""Template filters for the validator's messages in the current language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from games.message_render import message_render

register = template.Library()


@register.filter
def validator_reason(entry: Mapping[str, Any] | None) -> str:
    """A stored verdict error's or warning's reason, translated (games.message_render)."""
    return message_render(entry=entry)
