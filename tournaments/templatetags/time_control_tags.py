"""`{{ value|time_control_words }}`: a stored time control (the record format, seconds) in
words, in the reader's language."""

from __future__ import annotations

from django import template

from tournaments.time_controls import time_control_words as words

register = template.Library()


@register.filter
def time_control_words(value: str) -> str:
    return words(value or "")
