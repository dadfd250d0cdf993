"""The Content-Security-Policy on every response: scripts and styles from the site only."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase

HEADER = "Content-Security-Policy"
# No 'unsafe-inline' and no 'unsafe-eval': templates carry no inline script, no style=""
# and no on*= handler (tests/test_csp.py reads them all); htmx runs without eval and without
# its injected indicator styles (templates/base.html). data: images are Swagger UI's icons.
POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
# Redoc (styled-components and its bundled CSS) writes its styles into <style> elements
# from its script, and builds its search index in a worker made from a blob:. That page
# alone gets a nonce for its styles (klinzha/redoc-nonce.js puts it on each <style> Redoc
# makes) and blob: workers; its scripts stay the site's own.
POLICY_REDOC = (
    POLICY.replace("style-src 'self'", "style-src 'self' 'nonce-{nonce}'")
    + "; worker-src 'self' blob:"
)
REDOC_PATH = "/api/redoc/"
# A board's SVG opened by itself is a document of its own: nothing in it may run or load,
# only its own <style> applies (inside a page, games/static/games/game.js drops it).
POLICY_SVG = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"


def _with_sockets(policy: str, request: HttpRequest) -> str:
    """`policy` letting the page open sockets to the site's own origin (ws: beside http:,
    wss: beside https:), which 'self' does not cover in every browser; the host is one
    Django validated against ALLOWED_HOSTS, else the policy is left as it is."""
    try:
        host = request.get_host()
    except DisallowedHost:
        return policy
    scheme = "wss" if request.is_secure() else "ws"
    return policy.replace("connect-src 'self'", f"connect-src 'self' {scheme}://{host}", 1)


def policy_for(request: HttpRequest, response: HttpResponseBase) -> str:
    """The policy of one response."""
    if response.get("Content-Type", "").startswith("image/svg+xml"):
        return POLICY_SVG
    nonce = getattr(request, "csp_style_nonce", "")
    if request.path == REDOC_PATH and nonce:
        return _with_sockets(POLICY_REDOC.format(nonce=nonce), request)
    return _with_sockets(POLICY, request)


class ContentSecurityPolicyMiddleware:
    """First in MIDDLEWARE, so every response has the header: static files, the published
    pages' fast path, refusals (400, 404) and the API included."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.path == REDOC_PATH:
            request.csp_style_nonce = secrets.token_urlsafe(18)  # type: ignore[attr-defined]
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = policy_for(request, response)
        return response
