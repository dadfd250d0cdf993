"""Dates as real TRF files write them (no database): every common form, day first where
the form leaves it open (said), round 1's date or the import's when none reads (said)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.trf import date_read, event_dates

TODAY = date(2026, 11, 26)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2010/09/24", date(2010, 9, 24)),
        ("2010-09-24", date(2010, 9, 24)),
        ("2010.09.24", date(2010, 9, 24)),
        ("24/09/2010", date(2010, 9, 24)),  # Vega, Swiss-Manager in Europe
        ("28. 07. 2005", date(2005, 7, 28)),  # Swiss-Manager, German
        ("28.07.2005", date(2005, 7, 28)),
        ("May 29, 2020", date(2020, 5, 29)),  # lichess, English
        ("29 May 2020", date(2020, 5, 29)),
        ("1. Mai 2019", date(2019, 5, 1)),
        ("29 juillet 2020", date(2020, 7, 29)),
        ("3 giugno 2021", date(2021, 6, 3)),
        ("26/11/26", date(2026, 11, 26)),
        ("26.11.99", date(1999, 11, 26)),
        ("12/31/2020", date(2020, 12, 31)),  # month first: 31 cannot be a month
        ("99/12/31", date(1999, 12, 31)),  # YY/MM/DD, as 132 writes round dates
    ],
)
def test_every_common_form_reads_without_doubt(text, expected):
    assert date_read(text).value == expected
    assert date_read(text).doubt == ""


def test_a_day_and_month_both_twelve_or_less_are_read_day_first_and_said():
    reading = date_read("05/06/2020")
    assert reading.value == date(2020, 6, 5)
    assert reading.doubt == "'05/06/2020' could be month first too; read day first"
    assert date_read("06/06/2020").doubt == ""  # the same either way


@pytest.mark.parametrize("text", ["", "n/a", "2020/02/30", "31/02/2020", "Smarch 3, 2020", "?"])
def test_what_no_form_reads_is_none(text):
    assert date_read(text).value is None


@given(st.dates(date(1970, 1, 1), date(2069, 12, 31)))
def test_every_date_reads_back_in_each_form(d: date) -> None:
    forms = [f"{d:%Y/%m/%d}", f"{d:%d.%m.%Y}", f"{d:%B} {d.day}, {d.year}", f"{d:%d/%m/%y}"]
    for text in forms:
        assert date_read(text).value == d, text


ROUND_DATES = "132" + " " * 88 + "20/05/29  20/06/05"


def test_the_start_falls_back_to_the_first_rounds_date_then_the_imports():
    lines = {"042": 2, "132": 3}
    got = event_dates(
        start_text="n/a", end_text="", lines=lines, round_dates=[ROUND_DATES], today=TODAY
    )
    assert (got.start, got.end) == (date(2020, 5, 29), None)
    assert got.notes == [
        "line 2: the start date 'n/a' fits no date form: kept as text only",
        "line 3: the first round's date 2020/05/29 is taken",
    ]
    got = event_dates(start_text="", end_text="", lines={}, round_dates=[], today=TODAY)
    assert got.start == TODAY
    assert got.notes == [
        "no start date (042) in the file",
        "the import's date 2026/11/26 is taken as the start date",
    ]


def test_an_end_before_the_start_is_left_out_and_said():
    got = event_dates(
        start_text="2026/03/02",
        end_text="2026/03/01",
        lines={"042": 2, "052": 3},
        round_dates=[],
        today=TODAY,
    )
    assert (got.start, got.end) == (date(2026, 3, 2), None)
    assert got.notes == ["line 3: the end date '2026/03/01' is before the start: left out"]
