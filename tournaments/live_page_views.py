"""Pages that follow an event by themselves: the version a page polls (one query, no page
rendered: ETag and 304 while it stands), and the display screen's timing."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_safe

from klinzha_site.build import build_id
from tournaments import page_selectors

# How often (seconds) a live page asks whether its event changed: the public pages, and
# the arbiter's console (a result entered elsewhere shows sooner).
LIVE_EVERY = 15
CONSOLE_EVERY = 5
# How long a display screen shows each of its screens (seconds).
DISPLAY_SECONDS = 12


def live_etag(*, tournament_id: int, version: int) -> str:
    """The poll's ETag: the tournament's published version, under this build."""
    return f'"kz-live-{build_id()}-t{tournament_id}-v{version}"'


@require_safe
def live_version(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The version of the tournament's published pages: what live.js polls, with the ETag
    it sends back (If-None-Match) and a 304 while no result or change has bumped it. One
    query; nothing rendered, nothing cached per viewer."""
    found = page_selectors.tournament_version_get(slug=slug)
    if found is None:
        raise Http404("no such tournament")
    pk, version = found
    etag = live_etag(tournament_id=pk, version=version)
    unchanged = get_conditional_response(request, etag=etag)
    response: HttpResponse = (
        unchanged if unchanged is not None else JsonResponse({"version": version})
    )
    response["ETag"] = etag
    # Asked again each time: the browser keeps the answer only to revalidate it.
    response["Cache-Control"] = "no-cache"
    return response
