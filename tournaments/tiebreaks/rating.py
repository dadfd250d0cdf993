"""The FIDE rating tables (Handbook B.02, 8.1) and the rating tie-breaks built on them:
ARO, TPR and PTP (C.07), from the start list's ratings and Standard Points."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

# dp by p = 0.50 .. 1.00 (index p×100 − 50); below 0.50 the table is symmetric, negative.
_DP_UPPER = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309,
    322, 336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)  # fmt: skip

# The largest rating difference for each expected score 0.50 .. 0.99 of the stronger player
# (index pd×100 − 50); beyond the last, 1.00.
_DIFF_LAST = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315,
    328, 344, 357, 374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)  # fmt: skip


def dp_of(fraction: float) -> int:
    """The rating difference a score fraction p stands for (p rounded to hundredths)."""
    hundredths = int(round(fraction * 100 + 1e-9))
    hundredths = min(max(hundredths, 0), 100)
    if hundredths >= 50:
        return _DP_UPPER[hundredths - 50]
    return -_DP_UPPER[50 - hundredths]


def expected_hundredths(own: int, opponent: int) -> int:
    """The expected score, in hundredths, of a player rated `own` against `opponent`."""
    diff = abs(own - opponent)
    pd = 50 + bisect.bisect_left(_DIFF_LAST, diff)
    return pd if own >= opponent else 100 - pd


def aro(ratings: Sequence[int]) -> int:
    """Average Rating of Opponents, rounded half up to a whole number (0: none)."""
    if not ratings:
        return 0
    return int(sum(ratings) / len(ratings) + 0.5 + 1e-9)


def tpr(standard_points: float, ratings: Sequence[int]) -> int:
    """Tournament Performance Rating: ARO plus dp of the fraction scored (0: no rated game)."""
    if not ratings:
        return 0
    return aro(ratings) + dp_of(standard_points / len(ratings))


def ptp(standard_points: float, ratings: Sequence[int]) -> int:
    """Perfect Tournament Performance: the lowest rating whose expected score against these
    opponents reaches the points scored; 800 below the lowest opponent for no points and
    800 above the highest for all of them (0: no rated game)."""
    if not ratings:
        return 0
    if standard_points <= 0:
        return min(ratings) - 800
    if standard_points >= len(ratings):
        return max(ratings) + 800
    target = int(round(standard_points * 100))
    low, high = min(ratings) - 800, max(ratings) + 800  # reaches at `high`, not at `low`
    while high - low > 1:
        mid = (low + high) // 2
        if sum(expected_hundredths(mid, r) for r in ratings) >= target:
            high = mid
        else:
            low = mid
    return high
