"""Published pages rendered by a worker once a change commits, before their readers ask again:
the pages readers asked for lately, each requested as a visitor would."""

from __future__ import annotations

import io
import logging
import sys
import time
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.http import HttpRequest
from django.utils.translation import get_language

from klinzha_site.build import build_id
from klinzha_site.memo import ProcessMemo

logger = logging.getLogger("klinzha_site.cache")

# How long a page stays worth rendering ahead after a reader last asked for it (a render on
# their request, or the version before while a render was under way).
HOT_SECONDS = 120
# A day: the list of a scope's pages only grows with the pages its readers ask for.
INDEX_SECONDS = 24 * 3600
# What marks the worker's own requests: they keep no page hot.
PRERENDER_MARK = "kz.prerender"
# How long after a change commits its readers leave the scope's new pages to the worker
# (serving the version before meanwhile); past it, a page not yet made is theirs to render.
AHEAD_SECONDS = 3.0


@dataclass(frozen=True, slots=True)
class HotPage:
    """A page as a reader asked for it: where, in which language, on which host."""

    path_info: str
    script_name: str
    query: str
    language: str
    host: str
    scheme: str


# The pages this process has seen in each scope's list (no need to read it again), and when
# it last noted each one (a note a few times per HOT_SECONDS is enough).
_listed: ProcessMemo[bool] = ProcessMemo(size=10_000)
_noted: ProcessMemo[float] = ProcessMemo(size=10_000)


def pages_ahead_key(scope: str) -> str:
    """Where the newest version of `scope` a worker renders ahead is noted (read together
    with other keys in one round trip: pages_ahead_read)."""
    return f"kz:ahead:{build_id()}:{scope}"


def pages_ahead_read(request: HttpRequest, value: object) -> int:
    """pages_ahead_number from the value read under pages_ahead_key."""
    if request.META.get(PRERENDER_MARK) or value is None:
        return 0
    return int(value)  # type: ignore[call-overload]


def pages_ahead_mark(*, scope: str, number: int) -> None:
    """Version `number` of `scope` just committed and a worker is asked to render its pages
    readers read lately: for AHEAD_SECONDS, readers serve the version before rather than
    render them too (the worker's task takes a few milliseconds to start; without this
    mark, readers asking at hundreds a second always took the render first)."""
    cache.set(pages_ahead_key(scope), number, AHEAD_SECONDS)


def pages_ahead_number(request: HttpRequest, *, scope: str) -> int:
    """The newest version of `scope` a worker is rendering ahead (0: none; always 0 for the
    worker's own requests)."""
    if request.META.get(PRERENDER_MARK):
        return 0
    return pages_ahead_read(request, cache.get(pages_ahead_key(scope)))


def _list_key(scope: str) -> str:
    return f"kz:hot:{build_id()}:{scope}"


def _alive_key(scope: str, named: str) -> str:
    return f"kz:hot:{build_id()}:{scope}:{named}"


def page_hot_note(request: HttpRequest, *, scope: str, named: str) -> None:
    """A reader asked for the page `named` of `scope`: the worker renders its versions
    ahead for the next HOT_SECONDS."""
    if request.META.get(PRERENDER_MARK):
        return
    now = time.monotonic()
    noted = _noted.get((build_id(), scope, named))
    if noted is not None and now - noted < HOT_SECONDS / 4:
        return
    _noted.put((build_id(), scope, named), now)
    cache.set(_alive_key(scope, named), 1, HOT_SECONDS)
    if _listed.get((build_id(), scope, named)):
        return
    listed = dict(cache.get(_list_key(scope)) or {})
    if named not in listed:
        listed[named] = HotPage(
            path_info=request.path_info,
            script_name=request.META.get("SCRIPT_NAME", ""),
            query=request.META.get("QUERY_STRING", ""),
            language=get_language() or "",
            host=request.get_host(),
            scheme=request.scheme or "https",
        )
        cache.set(_list_key(scope), listed, INDEX_SECONDS)
    _listed.put((build_id(), scope, named), True)


def page_hot_forget() -> None:
    """Forget what this process noted (tests empty the cache under it)."""
    _listed.clear()
    _noted.clear()


def pages_hot(*, scope: str) -> list[HotPage]:
    """The pages of `scope` a reader asked for in the last HOT_SECONDS."""
    listed: dict[str, HotPage] = cache.get(_list_key(scope)) or {}
    alive = cache.get_many([_alive_key(scope, named) for named in listed])
    return [page for named, page in listed.items() if _alive_key(scope, named) in alive]


_handler: list[WSGIHandler] = []


def _start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
    return lambda data: None


def page_prerender(page: HotPage) -> int:
    """Request `page` through the whole site as a visitor would (so that its render, under
    the page's render lock, is the one readers are served next); its status."""
    if not _handler:
        _handler.append(WSGIHandler())  # its middleware loaded once per process
    name, _, port = page.host.partition(":")
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": page.path_info,
        "SCRIPT_NAME": page.script_name,
        "QUERY_STRING": page.query,
        "SERVER_NAME": name,
        "SERVER_PORT": port or ("443" if page.scheme == "https" else "80"),
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": page.host,
        "HTTP_ACCEPT_LANGUAGE": page.language,
        # As the proxy says it for every request (SECURE_PROXY_SSL_HEADER).
        "HTTP_X_FORWARDED_PROTO": page.scheme,
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": page.scheme,
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        PRERENDER_MARK: True,
    }
    response = _handler[0](environ, _start_response)
    try:
        for _ in response:
            pass
    finally:
        response.close()
    return int(response.status_code)


def pages_prerender(*, scope: str) -> int:
    """Render ahead every page of `scope` a reader asked for lately (a page already made
    for the current version is only a cache hit); how many were requested."""
    pages = pages_hot(scope=scope)
    started = time.perf_counter()
    for page in pages:
        status = page_prerender(page)
        if status != 200:
            logger.info("rendering %s ahead answered %s", page.path_info, status)
    seconds = time.perf_counter() - started
    logger.debug("%d pages of %s requested ahead in %.1f ms", len(pages), scope, 1000 * seconds)
    return len(pages)
