"""A tournament's published answers (its pages, CSV and JSON, the API's standings, crosstable
and rounds) served from the page cache while the tournament's version stands: the one rule
for the public pages and the API."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase

from klinzha_site.page_cache import page_serve
from klinzha_site.page_prerender import pages_prerender
from tournaments import page_selectors


def query_key(*, query: Mapping[str, str], params: Sequence[str]) -> str:
    """The part of a cache key that the query parameters a page reads make: their values
    in the order given, hashed ("-" when the page reads none)."""
    text = "&".join(f"{p}={query.get(p, '')}" for p in params)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest() if text else "-"


def tournament_published_serve(
    *,
    request: HttpRequest,
    slug: str,
    name: str,
    render: Callable[[], HttpResponse],
    uncached: Callable[[], HttpResponseBase],
    params: Sequence[str] = (),
    audited: bool = False,
    personalize: Callable[[bytes], bytes] | None = None,
    missing: str = "no such tournament",
) -> HttpResponseBase:
    """The answer `name` of the tournament `slug` from the cache while its version stands
    (and, when it is `audited`, publishing the audit trail's head, that head too): one
    query on a hit, `render` on a miss. A query parameter outside `params` is answered by
    `uncached` rather than stored under a key that would not show it. 404 (`missing`) when
    no tournament has this slug."""
    if not set(request.GET) <= set(params):
        return uncached()
    version = page_selectors.tournament_page_version_get(slug=slug, audited=audited)
    if version is None:
        raise Http404(missing)
    key = f"{name}:{query_key(query=request.GET, params=params)}"
    return page_serve(request, key=key, render=render, version=version, personalize=personalize)


def tournament_pages_prerender(*, tournament_id: int) -> int:
    """Render ahead the tournament's published pages its readers read lately (after a
    change: each is made for the new version before a reader asks again); how many."""
    return pages_prerender(scope=page_selectors.tournament_page_scope(tournament_id))
