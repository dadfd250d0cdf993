"""A tournament's published answers have one home, tournaments.published, used by the public
pages and the API: its key of the query, its refusal of an unknown tournament, its uncached
answer to a parameter the page does not read, and no second copy elsewhere."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.test import RequestFactory

from klinzha_site.page_cache import page_cache_local_clear
from tournaments import services
from tournaments.published import query_key, tournament_published_serve

ROOT = Path(__file__).resolve().parents[2]


def test_the_query_key_reads_the_named_parameters_in_order() -> None:
    assert query_key(query={"round": "2"}, params=()) == "-"
    key = query_key(query={"round": "2", "other": "x"}, params=("round",))
    assert key == query_key(query={"round": "2"}, params=("round",))
    assert key != query_key(query={"round": "3"}, params=("round",))
    assert query_key(query={}, params=("round",)) == query_key(
        query={"round": ""}, params=("round",)
    )
    both = {"a": "1", "b": "2"}
    assert query_key(query=both, params=("a", "b")) != query_key(query=both, params=("b", "a"))


def _serve(path: str, slug: str, params: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    calls: list[str] = []

    def render() -> HttpResponse:
        calls.append("render")
        return HttpResponse(b"published")

    def uncached() -> HttpResponse:
        calls.append("uncached")
        return HttpResponse(b"fresh")

    request = RequestFactory().get(path)
    response = tournament_published_serve(
        request=request, slug=slug, name="t", render=render, uncached=uncached, params=params
    )
    return response, calls


@pytest.mark.django_db
def test_cached_rendered_once_uncached_for_an_unknown_parameter_404_for_no_tournament() -> None:
    # Keys carry the tournament's id and version, which a rolled back test can reuse.
    cache.clear()
    page_cache_local_clear()
    services.tournament_create(name="Home", slug="home", start_date=date(2026, 1, 1))
    response, calls = _serve("/x/?round=1", "home", ("round",))
    assert response.status_code == 200 and calls == ["render"]
    response, calls = _serve("/x/?round=1", "home", ("round",))
    assert response.status_code == 200 and calls == []  # from the cache
    response, calls = _serve("/x/?sort=name", "home", ("round",))
    assert response.content == b"fresh" and calls == ["uncached"]
    with pytest.raises(Http404):
        _serve("/x/", "no-such-event")


def test_no_second_copy_of_the_published_rule() -> None:
    """Only tournaments.published asks for a tournament's page version or keys a query."""
    copies = []
    for app in ("tournaments", "games"):
        for path in (ROOT / app).rglob("*.py"):
            if path.name in ("published.py", "page_selectors.py"):
                continue
            text = path.read_text(encoding="utf-8")
            if "tournament_page_version_get(" in text or "def _query_key" in text:
                copies.append(str(path.relative_to(ROOT)))
    assert not copies, f"a copy of tournaments.published in {copies}"
