"""Points as Klin Zha prints them: whole numbers, halves and quarters as ½, ¼, ¾ (a draw is
−½ to each side; tie-breaks such as Sonneborn-Berger reach quarters)."""

from __future__ import annotations

from fractions import Fraction

_GLYPHS = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}


def format_points(value: float) -> str:
    """`2`, `1½`, `½`, `-½`, `-1½`, `8¼`, `-¾`; other fractions as decimals."""
    frac = Fraction(value).limit_denominator(1000)
    if frac.denominator == 1:
        return str(frac.numerator)
    if frac.denominator in (2, 4):
        whole, part = divmod(abs(frac), 1)
        sign = "-" if frac < 0 else ""
        return f"{sign}{whole if whole else ''}{_GLYPHS[part]}"
    return f"{float(frac):g}"
