"""axe-core, run in Chromium on every public page at a phone's and a laptop's width, in
English and Italian: no serious or critical accessibility violation."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.test_responsive import WIDTHS, site  # noqa: F401  (the shared event)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SEVERE = {"serious", "critical"}
# Swagger UI draws each operation as a button holding its own copy-link button: its markup, not
# ours, and the same operations are read accessibly in Redoc (/api/redoc/, checked in full).
SWAGGER_OWN_MARKUP = {"rules": {"nested-interactive": {"enabled": False}}}


def severe_violations(page, options: dict | None = None) -> list[str]:
    found = (
        Axe()
        .run(page, options={"resultTypes": ["violations"], **(options or {})})
        .response["violations"]
    )
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in SEVERE
    ]


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_public_pages_have_no_serious_accessibility_violation(site, browser_page, width):  # noqa: F811
    base, public, _, _ = site
    page = browser_page
    page.set_viewport_size({"width": width, "height": WIDTHS[width]})
    paths = dict(public)
    paths["result slips"] = public["pairings"] + "?slips=1"
    paths["log in"] = "/accounts/login/"
    paths["API docs"] = "/api/docs/"
    paths["API reference"] = "/api/redoc/"
    for name in ("standings", "pairings", "game"):
        paths[f"{name} (it)"] = "/it" + public[name]
    problems = {}
    for name, path in paths.items():
        response = page.goto(base + path)
        assert response.status == 200, (name, path, response.status)
        page.wait_for_load_state("networkidle")
        found = severe_violations(page, SWAGGER_OWN_MARKUP if path == "/api/docs/" else None)
        if found:
            problems[name] = found
    assert not problems, problems
