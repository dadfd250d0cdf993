"""Live pages (issue 26): the version a page polls answers with an ETag stable while the
event stands and new after a result, 304 for a matching If-None-Match, and renders nothing;
the pages carry the poll and are rendered once per change, whoever reads them."""

from __future__ import annotations

import pytest
from django.test import Client

from klinzha_site.page_cache import page_rendered
from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders():
    seen: list[str] = []

    def receiver(sender: object, key: str, seconds: float, **_: object) -> None:
        seen.append(key)

    page_rendered.connect(receiver)
    yield seen
    page_rendered.disconnect(receiver)


@pytest.fixture
def running():
    officials = officials_make()
    t, (a, b, c, d) = event_make(officials, slug="live-open")
    rnd = round_make(t, [(a, b), (c, d)])
    return t, rnd, officials


def result(t, rnd, officials, board: int) -> None:
    game = rnd.games.get(board=board)
    services.game_result_set(game=game, result=Game.Result.FIRST_WIN, user=officials.arbiter)


def test_the_etag_stands_for_a_version_and_changes_after_a_result(running, renders):
    t, rnd, officials = running
    client = Client()
    url = f"/t/{t.slug}/live/"
    first = client.get(url)
    assert first.status_code == 200
    again = client.get(url)
    assert first["ETag"] == again["ETag"]
    assert first.json() == again.json()
    result(t, rnd, officials, 1)
    after = client.get(url)
    assert after["ETag"] != first["ETag"]
    assert after.json()["version"] > first.json()["version"]
    assert renders == []  # the poll renders no page


def test_a_matching_if_none_match_is_answered_304_with_no_body(running, renders):
    t, rnd, officials = running
    client = Client()
    url = f"/t/{t.slug}/live/"
    etag = client.get(url)["ETag"]
    unchanged = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert unchanged["ETag"] == etag
    result(t, rnd, officials, 2)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert renders == []


def test_an_unknown_event_is_not_found():
    assert Client().get("/t/no-such-event/live/").status_code == 404


@pytest.mark.parametrize("page", ["standings/", "crosstable/", "round/1/"])
def test_the_public_pages_poll_and_render_once_per_change(running, renders, page):
    t, rnd, officials = running
    url = f"/t/{t.slug}/{page}"
    t.refresh_from_db()
    readers = [Client() for _ in range(3)]
    bodies = [reader.get(url).content.decode() for reader in readers]
    assert len(renders) == 1  # three readers, one render
    assert f'data-live-poll="/t/{t.slug}/live/"' in bodies[0]
    assert f'data-live-version="{t.published_version}"' in bodies[0]
    assert "klinzha/live" in bodies[0]
    result(t, rnd, officials, 1)
    t.refresh_from_db()
    bodies = [reader.get(url).content.decode() for reader in readers]
    assert len(renders) == 2  # the change: one more render for all three
    assert all(f'data-live-version="{t.published_version}"' in body for body in bodies)
    # the page's own ETag and 304, as the swap's fetch meets them
    page_etag = readers[0].get(url)["ETag"]
    assert readers[0].get(url, HTTP_IF_NONE_MATCH=page_etag).status_code == 304
    assert len(renders) == 2


def test_the_console_follows_the_poll_instead_of_rendering_every_few_seconds(running):
    t, rnd, officials = running
    client = Client()
    client.force_login(officials.arbiter)
    page = client.get(f"/arbiter/t/{t.slug}/round/1/").content.decode()
    assert f'data-live-poll="/t/{t.slug}/live/"' in page
    assert "data-live-fragment" in page
    assert 'hx-trigger="every' not in page
    partial = client.get(f"/arbiter/t/{t.slug}/round/1/", HTTP_HX_REQUEST="true")
    assert partial.content.decode().lstrip().startswith('<div id="games"')


def test_the_poll_costs_one_query(running, django_assert_num_queries):
    t, _, _ = running
    client = Client()
    url = f"/t/{t.slug}/live/"
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
