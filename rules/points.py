"""Points as Klin Zha prints them: whole numbers, halves as ½ (a draw is −½ to each side)."""

from __future__ import annotations

from fractions import Fraction


def format_points(value: float) -> str:
    """`2`, `1½`, `½`, `-½`, `-1½`; other fractions as decimals."""
    frac = Fraction(value).limit_denominator(1000)
    if frac.denominator == 1:
        return str(frac.numerator)
    if frac.denominator == 2:
        whole = abs(frac.numerator) // 2
        sign = "-" if frac < 0 else ""
        return f"{sign}{whole if whole else ''}½"
    return f"{float(frac):g}"
