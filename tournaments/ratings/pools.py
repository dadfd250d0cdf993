"""The rating pools, their defaults, an event's pool from its rules, and rating periods
(a calendar month `2026-11` or an ISO week `2026-W47`, UTC)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass

POOL_LAWS = "laws"
POOL_LOYD_1989 = "loyd-1989"
POOL_ITALIAN = "italian-society"
POOL_TRI_LEVEL = "tri-level"
POOL_REFLECTIVE = "reflective"
POOL_KINTA = "kinta"
POOLS = (POOL_LAWS, POOL_LOYD_1989, POOL_ITALIAN, POOL_TRI_LEVEL, POOL_REFLECTIVE, POOL_KINTA)

# The variants that change the game's nature get a pool of their own; when an event combines
# several, the first of this order it names decides. The Art. 13 options that keep the game's
# nature (13.1-13.6, 13.8) stay in their ruleset's pool.
OWN_POOL_VARIANTS = (POOL_TRI_LEVEL, POOL_REFLECTIVE, POOL_KINTA)
# The engine's rule set names (rules.position.RULESETS) are the pools' names.
RULESET_POOLS = (POOL_LAWS, POOL_LOYD_1989, POOL_ITALIAN)

PERIOD_MONTH = "month"
PERIOD_WEEK = "week"


@dataclass(frozen=True, slots=True)
class PoolSettings:
    """A pool's Glicko-2 defaults (docs/ratings.md gives the reasons)."""

    initial_rating: float = 1500.0
    initial_deviation: float = 350.0
    initial_volatility: float = 0.06
    tau: float = 0.5
    # A deviation from this up marks the rating provisional (printed with `?`).
    provisional_deviation: float = 110.0
    period: str = PERIOD_MONTH


DEFAULT_SETTINGS = PoolSettings()


def pool_of_event(*, ruleset: str, variants: Iterable[str]) -> str:
    """The pool an event's battles are rated in: the first own-pool variant it plays
    (tri-level, reflective, kinta in that order), else its ruleset's pool."""
    played = {v.strip() for v in variants}
    for variant in OWN_POOL_VARIANTS:
        if variant in played:
            return variant
    if ruleset not in RULESET_POOLS:
        raise ValueError(f"no rating pool for the ruleset {ruleset!r}")
    return ruleset


def pool_check(pool: str) -> str:
    """The pool's name, or ValueError naming the pools there are."""
    if pool not in POOLS:
        raise ValueError(f"no rating pool {pool!r}; the pools are {', '.join(POOLS)}")
    return pool


def is_provisional(*, deviation: float, settings: PoolSettings = DEFAULT_SETTINGS) -> bool:
    return deviation >= settings.provisional_deviation


def rating_text(
    *, rating: float, deviation: float, settings: PoolSettings = DEFAULT_SETTINGS
) -> str:
    """The rating as printed: rounded, with `?` when provisional."""
    mark = "?" if is_provisional(deviation=deviation, settings=settings) else ""
    return f"{round(rating)}{mark}"


def period_of(*, day: dt.date, kind: str) -> str:
    """The label of the period `day` falls in."""
    if kind == PERIOD_WEEK:
        year, week, _ = day.isocalendar()
        return f"{year}-W{week:02d}"
    if kind == PERIOD_MONTH:
        return f"{day.year}-{day.month:02d}"
    raise ValueError(f"no rating period kind {kind!r}; a pool uses month or week")


_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_WEEK = re.compile(r"^(\d{4})-W(\d{2})$")


def period_bounds(*, label: str, kind: str) -> tuple[dt.date, dt.date]:
    """(first day, first day after) of a period written `2026-11` (month) or `2026-W47`
    (week); ValueError saying how it is written in a pool of that kind."""
    pattern, example = (_WEEK, "2026-W47") if kind == PERIOD_WEEK else (_MONTH, "2026-11")
    match = pattern.match(label)
    if kind not in (PERIOD_WEEK, PERIOD_MONTH) or match is None:
        raise ValueError(f"period {label!r}: a {kind} period is written like {example}")
    year, number = int(match.group(1)), int(match.group(2))
    try:
        if kind == PERIOD_WEEK:
            start = dt.date.fromisocalendar(year, number, 1)
            return start, start + dt.timedelta(days=7)
        start = dt.date(year, number, 1)
    except ValueError:
        raise ValueError(f"period {label!r}: no such {kind}") from None
    following = dt.date(year + 1, 1, 1) if number == 12 else dt.date(year, number + 1, 1)
    return start, following


def period_index(*, label: str, kind: str) -> int:
    """The period's number counted from year 0: consecutive periods, consecutive numbers
    (months: year × 12 + month - 1; weeks: whole weeks since Monday 1 January of year 1)."""
    start, _ = period_bounds(label=label, kind=kind)
    if kind == PERIOD_WEEK:
        return (start.toordinal() - 1) // 7
    return start.year * 12 + start.month - 1


def period_label(*, index: int, kind: str) -> str:
    """The label of the period numbered `index` (period_index's inverse)."""
    if kind == PERIOD_WEEK:
        return period_of(day=dt.date.fromordinal(index * 7 + 1), kind=kind)
    return f"{index // 12}-{index % 12 + 1:02d}"
