"""The Content-Security-Policy (issue 22 item 8): on every kind of response, and templates
the policy lets work (no style="", no inline script, no on*= handler, no <style> block)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import Client, RequestFactory

from klinzha_site.security import POLICY, policy_for
from tests.tournaments.services.factories import event_make, officials_make, round_make

HEADER = "Content-Security-Policy"
TAG = re.compile(r"<[a-zA-Z][^>]*>", re.S)
HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I)


def _directives(response) -> dict[str, set[str]]:
    policy = response[HEADER]
    out = {}
    for part in policy.split(";"):
        name, *values = part.split()
        out[name] = set(values)
    return out


def _strict(response) -> None:
    d = _directives(response)
    assert d["default-src"] == {"'self'"}
    assert d["script-src"] == {"'self'"} and d["style-src"] == {"'self'"}
    assert d["frame-ancestors"] == {"'none'"} and d["object-src"] == {"'none'"}
    assert d["form-action"] == {"'self'"} and d["base-uri"] == {"'self'"}
    assert "unsafe" not in response[HEADER]


@pytest.mark.django_db(transaction=True)
def test_every_kind_of_response_carries_the_policy():
    t, (a, b) = event_make(officials_make(), slug="csp", names=("Ann", "Bob"))
    round_make(t, [(a, b)])
    client = Client()
    for path in ("/", f"/t/{t.slug}/", "/accounts/login/", "/api/tournaments/", "/nowhere/"):
        response = client.get(path)
        assert response.status_code in (200, 404), path
        _strict(response)
    # A published page twice: the second answer comes from the fast path.
    for path in (f"/t/{t.slug}/standings/", f"/api/tournaments/{t.slug}/rounds/"):
        for _ in range(3):
            response = client.get(path)
            assert response.status_code == 200
            _strict(response)
        _strict(client.get(path, HTTP_IF_NONE_MATCH=response["ETag"]))
    _strict(client.get("/", HTTP_HOST="attacker.example"))  # Django's 400
    _strict(client.get("/static/klinzha/site.css"))
    for path in ("/api/docs/", "/api/docs/?script="):
        response = client.get(path)
        assert response.status_code == 200, path
        _strict(response)
    assert "worker-src" not in _directives(client.get("/api/docs/"))
    # Redoc's page: its script-made styles carry this response's nonce (a new one each
    # time), its search builds a worker from a blob:; scripts stay the site's own.
    pages = [client.get("/api/redoc/") for _ in range(2)]
    nonces = []
    for page in pages:
        d = _directives(page)
        assert d["script-src"] == {"'self'"} and "unsafe" not in page[HEADER]
        assert d["worker-src"] == {"'self'", "blob:"}
        (nonce,) = d["style-src"] - {"'self'"}
        nonces.append(nonce)
        assert f'data-style-nonce="{nonce[7:-1]}"' in page.content.decode()
    assert nonces[0] != nonces[1]


def test_the_api_docs_start_from_scripts_of_their_own():
    page = Client().get("/api/docs/").content.decode()
    assert re.search(r'<script src="/api/docs/\?script="', page), page
    script = Client().get("/api/docs/?script=")
    assert script["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in script.content


def _templates() -> list[Path]:
    roots = [Path(d) for t in settings.TEMPLATES for d in t["DIRS"]]
    roots += [Path(settings.BASE_DIR) / app / "templates" for app in ("tournaments", "games")]
    return sorted(p for root in roots if root.exists() for p in root.rglob("*.html"))


def test_no_template_has_inline_style_script_or_handlers():
    found = _templates()
    assert len(found) > 20
    faults = []
    for path in found:
        text = path.read_text(encoding="utf-8")
        if "style=" in text.replace("{% ", "").lower():
            faults.append(f"{path}: a style attribute")
        if re.search(r"<style\b", text, re.I):
            faults.append(f"{path}: a <style> block")
        if INLINE_SCRIPT.search(text):
            faults.append(f"{path}: an inline <script>")
        faults += [
            f"{path}: a handler {tag[:60]}" for tag in TAG.findall(text) if HANDLER.search(tag)
        ]
    assert faults == []


def test_a_board_svg_opened_by_itself_may_run_nothing():
    """A standalone SVG keeps its own <style> and nothing else (the e2e game page checks the
    board inside the page)."""
    request = RequestFactory().get("/g/1/board.svg")
    svg = policy_for(request, HttpResponse(b"<svg/>", content_type="image/svg+xml"))
    assert "default-src 'none'" in svg and "script-src" not in svg
    assert policy_for(request, HttpResponse(b"x")) == POLICY.replace(
        "connect-src 'self'", "connect-src 'self' ws://testserver"
    )


def test_pages_may_open_sockets_to_the_site_itself_only():
    """The live board's socket: ws: beside http:, wss: beside https:, the request's own host;
    a host the site does not serve adds nothing."""
    plain = policy_for(RequestFactory().get("/g/1/"), HttpResponse(b"x"))
    assert "connect-src 'self' ws://testserver;" in plain
    secure = policy_for(RequestFactory().get("/g/1/", secure=True), HttpResponse(b"x"))
    assert "connect-src 'self' wss://testserver;" in secure
    stranger = RequestFactory().get("/g/1/", HTTP_HOST="evil.example")
    assert "connect-src 'self';" in policy_for(stranger, HttpResponse(b"x"))


def test_htmx_runs_without_eval_and_injected_styles():
    base = (Path(settings.BASE_DIR) / "templates" / "base.html").read_text()
    assert '"includeIndicatorStyles": false' in base and '"allowEval": false' in base
    css = (Path(settings.BASE_DIR) / "static" / "klinzha" / "site.css").read_text()
    assert ".htmx-indicator" in css
