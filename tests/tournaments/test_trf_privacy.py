"""Sex and birth date read from a TRF file are kept for the export only: no public page and
no public API read shows them (issue 24)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from tournaments.models import Player
from tournaments.services.trf_import import trf_import
from tournaments.trf_export import tournament_trf

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).parent / "trf_fixtures" / "swiss_manager_2010.trf"
BIRTHS = ("1975/04/02", "1988/11/30", "1981/01/01", "2001/07/15", "1999/00/00")


def test_sex_and_birth_date_reach_the_export_and_no_public_read():
    t = trf_import(text=FIXTURE.read_text(encoding="utf-8")).tournament
    kowalski = Player.objects.get(name="Kowalski, Jan")
    assert (kowalski.sex, kowalski.birth_date, kowalski.title, kowalski.fide_id) == (
        "m",
        "1975/04/02",
        "g",
        "1100123",
    )
    exported = tournament_trf(tournament=t)
    assert all(birth in exported for birth in BIRTHS)  # the export keeps them
    client = Client()
    urls = [f"/t/{t.slug}/", f"/t/{t.slug}/standings/", f"/t/{t.slug}/crosstable/"]
    urls += [f"/t/{t.slug}/crosstable.csv", f"/t/{t.slug}/crosstable.json"]
    urls += [f"/t/{t.slug}/round/{n}/" for n in (1, 2, 3)]
    urls += [f"/p/{p.pk}/" for p in Player.objects.all()]
    urls += ["/api/players/", f"/api/players/{kowalski.pk}/", f"/api/tournaments/{t.slug}/"]
    urls += [f"/api/tournaments/{t.slug}/standings/", f"/api/tournaments/{t.slug}/entrants/"]
    seen = 0
    for url in urls:
        resp = client.get(url)
        if resp.status_code == 404 and url.startswith("/api/tournaments/") and url.count("/") > 4:
            continue  # a sub-resource this API does not have
        assert resp.status_code == 200, url
        body = b"".join(resp.streaming_content) if resp.streaming else resp.content
        text = body.decode("utf-8")
        seen += 1
        assert not any(birth in text for birth in BIRTHS), url
        assert '"sex"' not in text and '"birth_date"' not in text, url
        assert "Kowalski" in text or url.startswith("/p/") or "/api/" in url, url
    assert seen >= len(urls) - 2
