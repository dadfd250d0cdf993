"""Points on the pages in the page's language: halves as ½ everywhere, other decimals with the
language's separator; the CSV, JSON and API keep the plain form."""

from __future__ import annotations

import re

import pytest
from django.db.models import F
from django.utils import translation

from tournaments.demo import demo_load
from tournaments.formats import points_shown
from tournaments.models import Tournament


@pytest.mark.parametrize(
    ("language", "value", "shown"),
    [
        ("en", 6.75, "6¾"),
        ("it", 6.8, "6,8"),
        ("fr", -0.25, "-¼"),
        ("de", 1.33, "1,33"),
        ("de", 1.5, "1½"),
        ("it", -0.5, "-½"),
        ("fr", 3, "3"),
    ],
)
def test_points_in_each_language(language, value, shown):
    with translation.override(language):
        assert points_shown(value) == shown


@pytest.mark.django_db
def test_standings_page_uses_the_languages_separator(client):
    t, _, _, _ = demo_load()
    # AOB is an average to hundredths: the one tie-break whose values are not quarters.
    Tournament.objects.filter(pk=t.pk).update(
        tiebreaks="BH,AOB,SSB", published_version=F("published_version") + 1
    )
    cells = {}
    for prefix in ("", "/it", "/fr", "/de"):
        page = client.get(f"{prefix}/t/{t.slug}/standings/").content.decode()
        cells[prefix] = re.findall(r'<td class="num">(-?[0-9]+[.,][0-9]+)</td>', page)
    assert cells[""], "the demo's tie-breaks have decimals"
    assert all("." in c for c in cells[""])
    for prefix in ("/it", "/fr", "/de"):
        assert cells[prefix] == [c.replace(".", ",") for c in cells[""]], prefix
    api = client.get(f"/api/tournaments/{t.slug}/standings/", HTTP_ACCEPT_LANGUAGE="it").json()
    assert all(isinstance(r["score"], (int, float)) for r in api)
