"""Published pages as the cache keeps them (body, gzip, ETag, time, version; this process's own
copy beside Redis') and as they are answered (304s, gzip, a signed-in user's own parts)."""

from __future__ import annotations

import functools
import gzip
import hashlib
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date

from klinzha_site.build import build_id

logger = logging.getLogger("klinzha_site.cache")

# A page in the cache is public: if one of these is in it, a secret or a person's session
# leaked into the render, and it is served uncached instead (and logged).
SECRET_MARKERS = (b"csrfmiddlewaretoken", b"csrftoken")
# Headers of the rendered response kept with the body (the rest is set when served).
KEPT_HEADERS = ("Content-Disposition", "Content-Language", "Link")
# Bodies smaller than this are served plain: gzip's header costs more than it saves.
GZIP_MIN_BYTES = 512
# What may make a request conditional (a 304 or 412): without any, no need to ask.
CONDITIONAL_HEADERS = (
    "HTTP_IF_NONE_MATCH",
    "HTTP_IF_MODIFIED_SINCE",
    "HTTP_IF_MATCH",
    "HTTP_IF_UNMODIFIED_SINCE",
)


@dataclass(frozen=True, slots=True)
class CachedPage:
    """One rendered page: its bytes, their gzip, its type and kept headers, ETag and the
    moment it was rendered (Last-Modified)."""

    body: bytes
    gzipped: bytes | None
    content_type: str
    headers: tuple[tuple[str, str], ...]
    etag: str
    rendered_at: float
    # The version it shows (PageVersion.stamp; "" for a page of no version), told to the
    # client in X-KZ-Version.
    version: str = ""

    @property
    def size(self) -> int:
        return len(self.body) + len(self.gzipped or b"")


class _LocalTier:
    """The process's own copy of the pages it served last (least recently used go first,
    bounded in bytes). Safe across processes because every key carries the version of what
    it shows: a change makes a new key, never a different page under an old one. It also
    keeps the site fast while Redis is down."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._pages: OrderedDict[str, CachedPage] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> CachedPage | None:
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
            return page

    def put(self, key: str, page: CachedPage) -> None:
        if page.size > self.max_bytes:
            return
        with self._lock:
            old = self._pages.pop(key, None)
            if old is not None:
                self._bytes -= old.size
            self._pages[key] = page
            self._bytes += page.size
            while self._bytes > self.max_bytes:
                _, dropped = self._pages.popitem(last=False)
                self._bytes -= dropped.size

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
            self._bytes = 0


_local = _LocalTier(int(getattr(settings, "KZ_PAGE_CACHE_LOCAL_BYTES", 64 * 1024 * 1024)))


def _etag(body: bytes) -> str:
    """The body's ETag, under this build: a client's copy from another release is never
    answered 304."""
    digest = hashlib.blake2b(build_id().encode(), digest_size=12)
    digest.update(b"\0")
    digest.update(body)
    return '"' + digest.hexdigest() + '"'


def page_make(response: HttpResponse, *, version: str) -> CachedPage | None:
    """The response as a cache entry, or None when it must not be cached (not a plain 200,
    sets a cookie, or carries a secret)."""
    if response.status_code != 200 or response.streaming or response.cookies:
        return None
    body = response.content
    lowered = body.lower()
    if any(marker in lowered for marker in SECRET_MARKERS):
        logger.warning("a published page carried a CSRF token: served uncached")
        return None
    gzipped = gzip.compress(body, compresslevel=6, mtime=0) if len(body) >= GZIP_MIN_BYTES else None
    return CachedPage(
        body=body,
        gzipped=gzipped if gzipped is not None and len(gzipped) < len(body) else None,
        content_type=response["Content-Type"],
        headers=tuple((h, response[h]) for h in KEPT_HEADERS if response.has_header(h)),
        etag=_etag(body),
        rendered_at=time.time(),
        version=version,
    )


def _accepts_gzip(request: HttpRequest) -> bool:
    accepted = request.META.get("HTTP_ACCEPT_ENCODING", "")
    for part in accepted.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            return params.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


@functools.lru_cache(maxsize=1024)
def _http_date(moment: int) -> str:
    return http_date(moment)


def page_response(request: HttpRequest, page: CachedPage) -> HttpResponseBase:
    """The page as this request wants it: 304 when the client's copy is current, gzip when
    it accepts it."""
    zipped = page.gzipped is not None and _accepts_gzip(request)
    # One ETag per representation, as a cache between us and the client must tell them apart.
    etag = page.etag[:-1] + '-gz"' if zipped else page.etag
    meta = request.META
    not_modified = (
        get_conditional_response(request, etag=etag, last_modified=int(page.rendered_at))
        if any(name in meta for name in CONDITIONAL_HEADERS)
        else None
    )
    if not_modified is not None:
        response: HttpResponseBase = not_modified
    else:
        body = page.gzipped if zipped and page.gzipped is not None else page.body
        response = HttpResponse(body, content_type=page.content_type)
        # Its length said, as the static files' is: without it the server sends the body
        # in chunks, a copy of it on the way (the whole stack's CommonMiddleware sets it,
        # but PublishedPageMiddleware answers before it).
        response["Content-Length"] = str(len(body))
        for name, value in page.headers:
            response[name] = value
        if zipped:
            response["Content-Encoding"] = "gzip"
    response["ETag"] = etag
    response["Last-Modified"] = _http_date(int(page.rendered_at))
    if page.version:
        response["X-KZ-Version"] = page.version
    # Revalidated on every view (a change shows at once), answered 304 while unchanged.
    response["Cache-Control"] = "max-age=0, must-revalidate"
    patch_vary_headers(response, ["Accept-Encoding"])
    return response


def page_splice(body: bytes, name: str, content: bytes) -> bytes:
    """`body` with what stands between `<!--kz:name-->` and `<!--/kz:name-->` replaced by
    `content` (unchanged when the marks are missing)."""
    start_mark, end_mark = f"<!--kz:{name}-->".encode(), f"<!--/kz:{name}-->".encode()
    start = body.find(start_mark)
    end = body.find(end_mark, start + len(start_mark)) if start >= 0 else -1
    if end < 0:
        return body
    return body[: start + len(start_mark)] + content + body[end:]


def personal_response(page: CachedPage, body: bytes) -> HttpResponse:
    """The cached page with one person's parts: never compressed (it may carry their CSRF
    token), never stored, no validators (their copy must not be revalidated as the
    visitors')."""
    response = HttpResponse(body, content_type=page.content_type)
    for name, value in page.headers:
        response[name] = value
    if page.version:
        response["X-KZ-Version"] = page.version
    response["Cache-Control"] = "private, no-cache, no-store"
    patch_vary_headers(response, ["Cookie"])
    return response


def page_get(key: str) -> CachedPage | None:
    """The page kept under `key`: this process's copy, else Redis' (then kept here too)."""
    page = _local.get(key)
    if page is None:
        page = cache.get(key)
        if page is not None:
            _local.put(key, page)
    return page
