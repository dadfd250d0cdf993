"""Published pages from the cache: rendered once per key and version by one process at a time, the
version before served meanwhile, each kept with its gzip, ETag and time."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import psycopg
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.dispatch import Signal
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.translation import get_language

from klinzha_site.build import build_id
from klinzha_site.memo import ProcessMemo
from klinzha_site.page_prerender import (
    page_hot_forget,
    page_hot_note,
    pages_ahead_key,
    pages_ahead_number,
    pages_ahead_read,
)
from klinzha_site.page_store import (  # noqa: F401 - _LocalTier and page_splice asked for here
    CachedPage,
    _local,
    _LocalTier,
    page_get,
    page_make,
    page_response,
    page_splice,
    personal_response,
)
from klinzha_site.single_flight import Flight, flight_begin, flight_end, flight_wait
from klinzha_site.written_versions import seen_number, versions_written_follow

logger = logging.getLogger("klinzha_site.cache")

# A day: entries are keyed by version, so they go stale never; this only frees memory.
TIMEOUT = 24 * 3600
# How long a page stays once a newer version of it is made (longer than it may be served).
SUPERSEDED_SECONDS = 60
# What a published page's freshness is checked by: SQL, its parameters and the row it read
# when the page was served (the version its key carries).
Validator = tuple[str, tuple[object, ...], tuple[object, ...]]
# Whether the fast path's validator query is a prepared statement (settings say when not).
VALIDATOR_PREPARED = bool(getattr(settings, "KZ_PAGE_VALIDATOR_PREPARED", True))
PREPARE_WHEN_ASKED = 2**31
# Headers of the full stack's answer that the fast path does not copy: it sets them itself.
FAST_SKIPPED_HEADERS = frozenset(
    (
        "content-length",
        "content-encoding",
        "etag",
        "last-modified",
        "date",
        "set-cookie",
        "x-kz-version",
        "x-kz-stale",
    )
)
# How long one process may render a page's version alone; how old what the version before
# shows may be for it to be served meanwhile; how long a reader with nothing to serve waits
# for the render before it renders the page itself (docs/performance.md, "While a round is
# running").
RENDER_LOCK_SECONDS = float(getattr(settings, "KZ_PAGE_RENDER_LOCK_SECONDS", 5.0))
STALE_SECONDS = float(getattr(settings, "KZ_PAGE_STALE_SECONDS", 3.0))
RENDER_WAIT_SECONDS = float(getattr(settings, "KZ_PAGE_RENDER_WAIT_SECONDS", 2.0))
# Sent after every render of a page for the cache (`key`: the page's key, `seconds`: how
# long it took): what tests and the live round bench count renders with.
page_rendered = Signal()


@dataclass(frozen=True, slots=True)
class PageVersion:
    """The version of its pages a request wants: `stamp` names it in keys (a tournament's id
    and version, "t12:v41"), `scope` is what it is a version of ("t12"), `number` orders
    the scope's versions (a tournament's published_version) and `validator` checks that it
    still holds (PublishedPageMiddleware)."""

    scope: str
    stamp: str
    number: int
    validator: Validator | None = None
    # Whether a worker renders the scope's pages readers ask for ahead, once a change
    # commits (klinzha_site.page_prerender).
    prerender: bool = False
    # Where `number` is in the row the validator reads.
    number_at: int = 0


@dataclass(frozen=True, slots=True)
class _Newest:
    """The newest version of one page (and language) rendered so far: its number and stamp,
    the key it is kept under, and when what it shows was read from the database."""

    number: int
    stamp: str
    page_key: str
    read_at: float
    # The row its version's validator read (None: no validator): the fast path serves this
    # page as the current one to whoever's validator now reads the same.
    row: tuple[object, ...] | None = None


def page_serve(
    request: HttpRequest,
    *,
    key: str,
    render: Callable[[], HttpResponse],
    personalize: Callable[[bytes], bytes] | None = None,
    validator: Validator | None = None,
    version: PageVersion | None = None,
) -> HttpResponseBase:
    """Serve the page cached under `key` and `version` (with the active language added),
    rendering it with `render` on a miss. `key` and `version` must name everything the page
    shows that can change, the tournament's version above all; `render` must produce the
    page as anyone sees it. `personalize`, for a signed-in user, puts their own parts into
    the cached body (page_splice). A miss in Redis (or Redis down: django-redis ignores its
    errors) falls back on this process's copy, then on rendering: by one process at a time
    while the others serve the version before (_page_obtain). `validator` (else the
    version's) lets PublishedPageMiddleware answer the same request again before the rest
    of the stack, for as long as it holds."""
    if request.method not in ("GET", "HEAD"):
        return render()
    # The build too: a release's templates and serializers make other bytes for the same key.
    # The database's identity is added to every key by the cache (klinzha_site.cache_keys).
    named = f"{key}:{get_language() or settings.LANGUAGE_CODE}"
    stamp = version.stamp if version is not None else "-"
    full_key = f"kz:page:{build_id()}:{stamp}:{named}"
    page = page_get(full_key)
    behind = ""
    if page is None:
        page, behind, rendered = _page_obtain(
            request, full_key=full_key, named=named, version=version, render=render
        )
        if page is None:
            return rendered  # type: ignore[return-value]
    if personalize is not None:
        response: HttpResponseBase = personal_response(page, personalize(page.body))
    else:
        response = page_response(request, page)
    if behind:
        # The number of the version being made: this answer is the one before it
        # (docs/performance.md, "While a round is running").
        response["X-KZ-Stale"] = behind
        return response
    validator = validator or (version.validator if version is not None else None)
    if validator is not None and personalize is None:
        response.kz_fast = (full_key, validator, version, named)  # type: ignore[attr-defined]
    return response


def _page_obtain(
    request: HttpRequest,
    *,
    full_key: str,
    named: str,
    version: PageVersion | None,
    render: Callable[[], HttpResponse],
) -> tuple[CachedPage | None, str, HttpResponse | None]:
    """A page missing from the cache: rendered here when this process takes its render
    lock (one render per page, language and version in the whole deployment); else, while
    another process (or a worker, right after a change: klinzha_site.page_prerender)
    renders it, the version before when it may be served; else the page the other renders,
    once made; else, after RENDER_WAIT_SECONDS, rendered here after all. Without Redis each
    process renders its own. Returns the page (None: not to be cached, the response as
    rendered beside it), the number of the version it stands in for ("" when it is the one
    asked for) and the response."""
    lock_key = "kz:render:" + full_key.removeprefix("kz:page:")
    ahead = (
        version is not None
        and version.prerender
        and pages_ahead_number(request, scope=version.scope) >= version.number
    )
    flight = None if ahead else flight_begin(key=lock_key, seconds=RENDER_LOCK_SECONDS)
    if flight is None or not flight.mine:
        before = _page_before(request, version=version, named=named)
        if before is not None and version is not None:
            if version.prerender:
                page_hot_note(request, scope=version.scope, named=named)
            return before, str(version.number), None
    if flight is None:
        flight = flight_begin(key=lock_key, seconds=RENDER_LOCK_SECONDS)
    if not flight.mine:
        made = flight_wait(
            flight=flight, fetch=lambda: page_get(full_key), seconds=RENDER_WAIT_SECONDS
        )
        if made is not None:
            return made, "", None
        flight = flight_begin(key=lock_key, seconds=RENDER_LOCK_SECONDS)
    return _page_render(
        request, full_key=full_key, named=named, version=version, render=render, flight=flight
    )


def _page_render(
    request: HttpRequest,
    *,
    full_key: str,
    named: str,
    version: PageVersion | None,
    render: Callable[[], HttpResponse],
    flight: Flight,
) -> tuple[CachedPage | None, str, HttpResponse | None]:
    """Render the page, keep it (and mark it the newest of its kind), let the lock go."""
    try:
        read_at = time.time()
        started = time.perf_counter()
        response = render()
        page = page_make(response, version=version.stamp if version is not None else "")
        seconds = time.perf_counter() - started
        page_rendered.send(sender=CachedPage, key=full_key, seconds=seconds)
        logger.debug("rendered %s in %.1f ms", full_key, seconds * 1000)
        if page is None:
            return None, "", response
        cache.set(full_key, page, TIMEOUT)
        _local.put(full_key, page)
        if version is not None:
            _newest_mark(named=named, version=version, page_key=full_key, read_at=read_at)
            if version.prerender:
                page_hot_note(request, scope=version.scope, named=named)
        return page, "", None
    finally:
        flight_end(flight)


def _newest_key(*, scope: str, named: str) -> str:
    return f"kz:page-newest:{build_id()}:{scope}:{named}"


def _newest_mark(*, named: str, version: PageVersion, page_key: str, read_at: float) -> None:
    """Note the page just rendered as its kind's newest, unless a newer one is noted."""
    key = _newest_key(scope=version.scope, named=named)
    known = cache.get(key)
    if known is None or known.number <= version.number:
        row = version.validator[2] if version.validator is not None else None
        cache.set(key, _Newest(version.number, version.stamp, page_key, read_at, row), TIMEOUT)
        if known is not None and known.page_key != page_key:
            # Superseded: served a few seconds more at most, then only memory (a running
            # round makes a version of each page every few seconds).
            cache.touch(known.page_key, SUPERSEDED_SECONDS)


def _page_before(
    request: HttpRequest, *, version: PageVersion | None, named: str
) -> CachedPage | None:
    """The newest page of this kind rendered before the version asked for, while that one
    is made: only if what it shows was read less than STALE_SECONDS ago, and no older than
    the versions the reader's own changes made (klinzha_site.written_versions)."""
    if version is None:
        return None
    newest = cache.get(_newest_key(scope=version.scope, named=named))
    if newest is None or newest.stamp == version.stamp or newest.number > version.number:
        return None
    if not _before_servable(newest, number=version.number):
        return None
    if newest.number < seen_number(request, scope=version.scope):
        return None
    return page_get(newest.page_key)


def _before_servable(newest: _Newest, *, number: int) -> bool:
    """Whether the page `newest` may stand in for version `number` while that one is made:
    the version just before it (never two behind), showing the database as it was less
    than STALE_SECONDS ago (docs/performance.md, "While a round is running")."""
    return number - 1 <= newest.number < number and time.time() - newest.read_at <= STALE_SECONDS


@dataclass(frozen=True, slots=True)
class _FastEntry:
    """How a request was last answered: the page's key, what its freshness is checked by
    and the headers the whole stack gave it (language, framing, Vary)."""

    page_key: str
    validator: Validator
    headers: tuple[tuple[str, str], ...]
    # The version it showed and the page's name with its language (for the version before).
    version: PageVersion | None = None
    named: str = ""


# Requests (path, query, language inputs) to how they were last answered.
_fast: ProcessMemo[_FastEntry] = ProcessMemo(size=10_000)


def page_cache_local_clear() -> None:
    """Forget this process's pages (tests roll the database back, and with it the versions
    the keys carry)."""
    _local.clear()
    _fast.clear()
    page_hot_forget()


def _fast_key(request: HttpRequest) -> str | None:
    """What picks the page and its language, when nothing else can change it: a visitor
    (no session, no token, no pending message) reading it."""
    if request.method not in ("GET", "HEAD"):
        return None
    cookies = request.COOKIES
    if settings.SESSION_COOKIE_NAME in cookies or "messages" in cookies:
        return None
    if "HTTP_AUTHORIZATION" in request.META:
        return None
    return "\n".join(
        (
            build_id(),
            request.path,
            request.META.get("QUERY_STRING", ""),
            cookies.get(settings.LANGUAGE_COOKIE_NAME, ""),
            request.META.get("HTTP_ACCEPT_LANGUAGE", ""),
        )
    )


def _validator_row(sql: str, params: tuple[object, ...]) -> tuple[object, ...] | None:
    """The row the validator's query reads now. On PostgreSQL, with the connection open and
    no transaction under way (a request's), a statement prepared on the connection itself:
    no health check of its own before it (the query is one, see _validator_holds) and no
    planning after its first run (the player page's join took four times longer to plan
    than to run)."""
    raw = connection.connection
    if (
        isinstance(raw, psycopg.Connection)
        and connection.autocommit
        and not connection.in_atomic_block
    ):
        if not VALIDATOR_PREPARED:
            with psycopg.ClientCursor(raw) as cursor:  # as Django's own
                cursor.execute(sql, params)
                return cursor.fetchone()
        # Django turns psycopg's prepared statements off (a threshold of None); they are
        # on for this query only, with a threshold never reached: only it is prepared, and
        # Django's own queries are neither counted nor prepared.
        threshold = raw.prepare_threshold
        if threshold is None:
            raw.prepare_threshold = PREPARE_WHEN_ASKED
        try:
            with psycopg.Cursor(raw) as cursor:
                cursor.execute(sql, params, prepare=True)
                return cursor.fetchone()
        finally:
            raw.prepare_threshold = threshold
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def _validator_read(validator: Validator) -> tuple[object, ...] | None:
    """The row the validator reads now, None when there is none or the query failed: a
    query that fails (a connection the server closed) closes the connection, and the
    request goes through the stack, which opens another."""
    sql, params, _ = validator
    try:
        row = _validator_row(sql, params)
    except (DatabaseError, psycopg.Error):
        if connection.in_atomic_block:
            raise
        logger.warning("a published page's validator failed: served by the stack", exc_info=True)
        with contextlib.suppress(DatabaseError, psycopg.Error):
            connection.close()
        return None
    return tuple(row) if row is not None else None


def _fast_newer(
    request: HttpRequest, key: str, entry: _FastEntry, row: tuple[object, ...]
) -> tuple[CachedPage | None, str]:
    """A page whose validator no longer holds, answered without the stack: the page of the
    version the validator now reads when one is made (another process's render, or a
    worker's ahead; the entry then follows it), else the version before while a worker
    renders the new one ahead (klinzha_site.page_prerender), with the number of the version
    being made, as _page_obtain would serve it. None when the stack must answer."""
    version = entry.version
    if version is None:
        return None, ""
    # Both notes in one round trip: this runs for every reader while a version is made.
    newest_key, ahead_key = _newest_key(scope=version.scope, named=entry.named), ""
    if version.prerender:
        ahead_key = pages_ahead_key(version.scope)
    notes = cache.get_many([newest_key, ahead_key] if ahead_key else [newest_key])
    newest = notes.get(newest_key)
    if newest is None:
        return None, ""
    if newest.row == row and _same_validator(entry, version):
        page = page_get(newest.page_key)
        if page is not None:
            _fast_follow(key, entry, newest)
        return page, ""
    number = row[version.number_at]
    if not version.prerender or not isinstance(number, int):
        return None, ""
    if pages_ahead_read(request, notes.get(ahead_key)) < number:
        return None, ""
    if not _before_servable(newest, number=number):
        return None, ""
    page_hot_note(request, scope=version.scope, named=entry.named)
    return page_get(newest.page_key), str(number)


def _same_validator(entry: _FastEntry, version: PageVersion) -> bool:
    """Whether the entry's validator is its version's (the row the newest page notes)."""
    return version.validator is not None and entry.validator[:2] == version.validator[:2]


def _fast_follow(key: str, entry: _FastEntry, newest: _Newest) -> None:
    """The request `key` is answered next with the page `newest` (its version now the
    current one), as if the stack had answered it."""
    version = entry.version
    if version is None or version.validator is None or newest.row is None:
        return
    sql, params, _ = version.validator
    validator = (sql, params, newest.row)
    moved = PageVersion(
        scope=version.scope,
        stamp=newest.stamp,
        number=newest.number,
        validator=validator,
        prerender=version.prerender,
        number_at=version.number_at,
    )
    _fast.put(key, _FastEntry(newest.page_key, validator, entry.headers, moved, entry.named))


class PublishedPageMiddleware:
    """A visitor's request for a published page answered again before the session, locale,
    CSRF, authentication and message middleware and the view: from the page cache, once its
    validator (one query: the tournament's version) says the page is still current. Anything
    else, or a page no longer current, goes through the whole stack, which stores the answer
    for next time."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method in ("GET", "HEAD"):
            return self._read(request)
        # A change's writer reads their own change next, never a page from before it.
        with versions_written_follow(request):
            return self.get_response(request)

    def _read(self, request: HttpRequest) -> HttpResponseBase:
        key = _fast_key(request)
        if key is not None:
            entry = _fast.get(key)
            if entry is not None:
                # The Host is checked as CommonMiddleware would: one outside ALLOWED_HOSTS
                # raises DisallowedHost, Django's 400, before any page is answered.
                request.get_host()
                page = _local.get(entry.page_key)
                shared = page is None
                if shared:
                    page = cache.get(entry.page_key)
                row = _validator_read(entry.validator) if page is not None else None
                behind = ""
                if row is not None and row != entry.validator[2]:
                    page, behind = _fast_newer(request, key, entry, row)
                elif shared and page is not None:
                    _local.put(entry.page_key, page)
                if page is not None and row is not None:
                    return self._fast_answer(request, page, entry, behind)
        response = self.get_response(request)
        fast = getattr(response, "kz_fast", None)
        # Only a 200 has every header to copy (a 304 has not).
        stored = key is not None and fast is not None and response.status_code == 200
        if stored and not response.cookies:
            headers = tuple(
                (name, value)
                for name, value in response.items()
                if name.lower() not in FAST_SKIPPED_HEADERS
            )
            _fast.put(key, _FastEntry(fast[0], fast[1], headers, fast[2], fast[3]))  # type: ignore[index]
        return response

    @staticmethod
    def _fast_answer(
        request: HttpRequest, page: CachedPage, entry: _FastEntry, behind: str
    ) -> HttpResponseBase:
        response = page_response(request, page)
        for name, value in entry.headers:
            if name.lower() not in response.headers or name.lower() == "vary":
                response[name] = value
        if behind:
            response["X-KZ-Stale"] = behind
        return response
