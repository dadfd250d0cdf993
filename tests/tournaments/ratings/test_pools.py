"""Pools from an event's rules, the defaults, provisional marks and period labels."""

from __future__ import annotations

import datetime as dt

import pytest

from tournaments.ratings.pools import (
    DEFAULT_SETTINGS,
    POOLS,
    is_provisional,
    period_bounds,
    period_index,
    period_label,
    period_of,
    pool_check,
    pool_of_event,
    rating_text,
)


def test_the_six_pools() -> None:
    assert POOLS == ("laws", "loyd-1989", "italian-society", "tri-level", "reflective", "kinta")


@pytest.mark.parametrize(
    ("ruleset", "variants", "pool"),
    [
        ("laws", "", "laws"),
        ("loyd-1989", "", "loyd-1989"),
        ("italian-society", "", "italian-society"),
        # 13.1-13.6 and 13.8 keep the game's nature: the ruleset's pool.
        ("laws", "alternating-placement,power-vanguards,kaggas-crown", "laws"),
        ("laws", "clouded,forward-placement,ablative,honor-in-setup", "laws"),
        ("loyd-1989", "clouded", "loyd-1989"),
        ("laws", "reflective", "reflective"),
        ("laws", "kinta", "kinta"),
        ("italian-society", "tri-level", "tri-level"),
        # A combination goes to the first of tri-level, reflective, kinta it names.
        ("laws", "kinta,tri-level", "tri-level"),
        ("laws", "kinta,reflective,clouded", "reflective"),
        ("laws", "ablative,kinta", "kinta"),
    ],
)
def test_pool_of_event(ruleset: str, variants: str, pool: str) -> None:
    assert pool_of_event(ruleset=ruleset, variants=variants.split(",")) == pool


def test_an_unknown_ruleset_or_pool_is_named() -> None:
    with pytest.raises(ValueError, match="'chess'"):
        pool_of_event(ruleset="chess", variants=[])
    with pytest.raises(ValueError, match="the pools are laws, loyd-1989"):
        pool_check("blitz")
    assert pool_check("kinta") == "kinta"


def test_defaults() -> None:
    s = DEFAULT_SETTINGS
    assert (s.initial_rating, s.initial_deviation, s.initial_volatility, s.tau) == (
        1500,
        350,
        0.06,
        0.5,
    )
    assert s.period == "month"


def test_provisional_from_110_up_and_printed_with_a_question_mark() -> None:
    assert is_provisional(deviation=110)
    assert not is_provisional(deviation=109.99)
    assert rating_text(rating=1612.5, deviation=110) == "1612?"
    assert rating_text(rating=1612.4, deviation=60) == "1612"


def test_months_and_iso_weeks() -> None:
    day = dt.date(2026, 11, 20)
    assert period_of(day=day, kind="month") == "2026-11"
    assert period_of(day=day, kind="week") == "2026-W47"
    assert period_bounds(label="2026-11", kind="month") == (
        dt.date(2026, 11, 1),
        dt.date(2026, 12, 1),
    )
    assert period_bounds(label="2026-12", kind="month") == (
        dt.date(2026, 12, 1),
        dt.date(2027, 1, 1),
    )
    assert period_bounds(label="2026-W47", kind="week") == (
        dt.date(2026, 11, 16),
        dt.date(2026, 11, 23),
    )
    # The ISO year: 1 January 2027 is in the 53rd week of 2026.
    assert period_of(day=dt.date(2027, 1, 1), kind="week") == "2026-W53"


@pytest.mark.parametrize(
    ("label", "kind", "error"),
    [
        ("2026-W47", "month", "a month period is written like 2026-11"),
        ("2026-11", "week", "a week period is written like 2026-W47"),
        ("2026-13", "month", "no such month"),
        ("2025-W53", "week", "no such week"),
        ("2026-11", "fortnight", "written like"),
    ],
)
def test_a_period_that_cannot_be_read_says_how_it_is_written(
    label: str, kind: str, error: str
) -> None:
    with pytest.raises(ValueError, match=error):
        period_bounds(label=label, kind=kind)


def test_every_day_falls_in_its_periods_bounds() -> None:
    day = dt.date(2024, 1, 1)
    while day < dt.date(2027, 1, 1):
        for kind in ("month", "week"):
            start, end = period_bounds(label=period_of(day=day, kind=kind), kind=kind)
            assert start <= day < end
        day += dt.timedelta(days=1)


def test_period_numbers_are_consecutive_and_invertible() -> None:
    assert period_index(label="2026-12", kind="month") + 1 == period_index(
        label="2027-01", kind="month"
    )
    assert period_index(label="2026-W53", kind="week") + 1 == period_index(
        label="2027-W01", kind="week"
    )
    day = dt.date(2025, 12, 1)
    for kind in ("month", "week"):
        previous = None
        for offset in range(0, 500, 3):
            label = period_of(day=day + dt.timedelta(days=offset), kind=kind)
            index = period_index(label=label, kind=kind)
            assert period_label(index=index, kind=kind) == label
            if previous is not None:
                assert index >= previous
            previous = index
