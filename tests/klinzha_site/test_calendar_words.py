"""Dates read as each language writes them: Italian months in lower case."""

from __future__ import annotations

from datetime import date

import pytest
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext

from klinzha_site.calendar_words import MONTHS


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("it", "21 novembre 2026"),
        ("fr", "21 novembre 2026"),
        ("de", "21. November 2026"),
        ("en", "Nov. 21, 2026"),
    ],
)
def test_a_date_in_each_language(language, shown):
    with translation.override(language):
        assert date_format(date(2026, 11, 21)) == shown


def test_every_month_is_in_our_catalogues():
    with translation.override("it"):
        assert [gettext(m) for m in MONTHS] == [m.lower() for m in [gettext(m) for m in MONTHS]]
        assert gettext("March") == "marzo"
