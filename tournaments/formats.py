"""Points as the pages print them: Klin Zha's halves (rules.points) with the decimal separator
of the page's language. CSV, JSON, TRF and the API keep rules.points' plain form."""

from __future__ import annotations

from django.utils.formats import get_format

from rules.points import format_points


def points_shown(value: float) -> str:
    """`1½`, `-½`, and a tie-break like 6.75 as `6,75` in Italian, French and German."""
    text = format_points(value)
    separator = str(get_format("DECIMAL_SEPARATOR"))
    return text.replace(".", separator) if separator != "." else text
