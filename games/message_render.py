"""Validator messages on the pages: a stored verdict's error or warning rendered in the
current language from its message code and parameters (rules/messages.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from rules.messages import MESSAGES, WORD_PARAMS


def message_render(*, entry: Mapping[str, Any] | None) -> str:
    """The reason of a stored error or warning (`{"reason", "code", "params", …}`) in the
    current language: its catalogued template translated and filled with its parameters,
    the game words among them translated too. The stored English when the entry has no
    known code (a verdict from before messages had codes that no template matched), when a
    translation cannot be filled, and whenever nothing is translated, so English pages show
    exactly what the API and `kz` say."""
    if not entry:
        return ""
    reason = str(entry.get("reason") or "")
    code = entry.get("code")
    params = entry.get("params")
    if not isinstance(code, str) or code not in MESSAGES or not isinstance(params, dict):
        return reason
    template = MESSAGES[code]
    translated = gettext(template)
    words = {
        str(k): gettext(v) if k in WORD_PARAMS and isinstance(v, str) and v else str(v)
        for k, v in params.items()
    }
    if translated == template and all(words[str(k)] == v for k, v in params.items()):
        return reason
    try:
        return translated.format(**words)
    except (KeyError, IndexError, ValueError):
        # A translation naming a placeholder the template has not: show the English.
        return reason
