"""The API docs (Swagger UI and Redoc) load everything from our own static files: nothing
from a CDN, so they work offline (issue 15, item 8)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ASSET = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_docs_pages_use_only_our_static_files(path: str) -> None:
    client = Client()
    page = client.get(path)
    assert page.status_code == 200
    html = page.content.decode()
    assets = [a for a in ASSET.findall(html) if not a.startswith(("#", "data:"))]
    scripts = [a for a in assets if a.endswith(".js")]
    assert scripts, "the docs page loads its viewer from a script"
    for url in assets:
        assert not re.match(r"^(https?:)?//", url), f"{path} loads {url} from another site"
        if url.startswith("/static/"):
            resp = client.get(url)
            assert resp.status_code == 200, url
            body = b"".join(resp.streaming_content) if resp.streaming else resp.content
            assert body, url
    assert "cdn.jsdelivr" not in html and "unpkg.com" not in html


def test_schema_is_served_to_the_docs() -> None:
    resp = Client().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert resp.status_code == 200
