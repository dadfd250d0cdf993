"""A release never serves another's pages: cache keys and ETags carry the build, named by
KZ_BUILD_ID or hashed from the code, templates and translations."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings

from klinzha_site.build import build_hash, build_id, build_roots
from tests.tournaments.services.factories import event_make, officials_make, round_make

MARK = "<!-- the next release -->"


def _templates_with(folder: Path) -> list[dict[str, object]]:
    """The site's template settings with `folder` searched first."""
    engine = dict(settings.TEMPLATES[0])
    engine["DIRS"] = [folder, *engine["DIRS"]]
    return [engine]


def _release(tmp_path: Path) -> Path:
    """The next release's templates: the standings page with one line more."""
    folder = tmp_path / "templates"
    (folder / "tournaments").mkdir(parents=True)
    original = Path(settings.BASE_DIR, "templates", "tournaments", "standings.html")
    text = original.read_text(encoding="utf-8").replace(
        "{% block content %}", "{% block content %}" + MARK, 1
    )
    (folder / "tournaments" / "standings.html").write_text(text, encoding="utf-8")
    return folder


@pytest.mark.django_db
def test_two_builds_sharing_one_cache_never_serve_each_others_pages(tmp_path):
    """The same cache (Redis in the PostgreSQL pass, and this process's own tiers) behind
    two releases: the second, with a changed template, serves its own bytes and ETag, and a
    client's copy from the first is never answered 304."""
    t, (a, b, c, d) = event_make(officials_make(), slug="two-builds")
    round_make(t, [(a, b), (c, d)])
    client = Client()
    path, api = f"/t/{t.slug}/standings/", f"/api/tournaments/{t.slug}/standings/"
    with override_settings(KZ_BUILD_ID="release-1"):
        old = [client.get(path), client.get(path)]  # through the stack, then the fast path
        old_api = client.get(api)
    assert MARK.encode() not in old[0].content and old[0]["ETag"] == old[1]["ETag"]
    templates = _templates_with(_release(tmp_path))
    with override_settings(KZ_BUILD_ID="release-2", TEMPLATES=templates):
        for _ in range(2):
            new = client.get(path)
            assert new.status_code == 200 and MARK.encode() in new.content
            assert new["ETag"] != old[0]["ETag"]
        again = client.get(path, HTTP_IF_NONE_MATCH=old[0]["ETag"])
        assert again.status_code == 200 and MARK.encode() in again.content
        # The same JSON under another release: its own ETag all the same (a serializer
        # change shows at once, and no 304 crosses a release).
        new_api = client.get(api, HTTP_IF_NONE_MATCH=old_api["ETag"])
        assert new_api.status_code == 200 and new_api["ETag"] != old_api["ETag"]
    with override_settings(KZ_BUILD_ID="release-1"):  # the first release still running
        assert client.get(path).content == old[0].content


def test_the_hash_changes_when_a_template_changes(tmp_path):
    folder = _release(tmp_path)
    with override_settings(TEMPLATES=_templates_with(folder), KZ_BUILD_ID=""):
        before = build_hash(roots=build_roots())
        assert build_id() == before  # no name: the hash stands for the build
        page = folder / "tournaments" / "standings.html"
        page.write_text(page.read_text(encoding="utf-8") + "<p>fixed</p>", encoding="utf-8")
        assert build_hash(roots=build_roots()) != before
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    # Where the tree lies does not matter, only what is in it.
    assert build_hash(roots=[copy]) == build_hash(roots=[folder])


def test_a_named_build_wins_over_the_hash():
    with override_settings(KZ_BUILD_ID="v2026.11.26"):
        assert build_id() == "v2026.11.26"
    with override_settings(KZ_BUILD_ID=""):
        # Hashed once per process: the same for every page it serves.
        assert re.fullmatch(r"[0-9a-f]{16}", build_id()) and build_id() == build_id()
