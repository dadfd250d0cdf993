"""Points as the pages print them: Klin Zha's halves (rules.points) with the decimal separator
of the page's language. CSV, JSON, TRF and the API keep rules.points' plain form."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.utils.formats import get_format

from rules.points import format_points


@functools.lru_cache(maxsize=4096)
def _points_text(value: float, separator: str) -> str:
    """Each distinct value formatted once per separator: a 1,000-player page prints about
    a hundred distinct values 4,000 times, and format_points goes through a Fraction."""
    text = format_points(value)
    return text.replace(".", separator) if separator != "." else text


def points_shown(value: float) -> str:
    """`1½`, `-½`, and a tie-break like 6.75 as `6,75` in Italian, French and German."""
    return _points_text(value, str(get_format("DECIMAL_SEPARATOR")))


def points_formatter() -> Callable[[float], str]:
    """points_shown for the active language, its separator looked up once: for a page's
    thousands of values."""
    separator = str(get_format("DECIMAL_SEPARATOR"))
    return lambda value: _points_text(value, separator)
