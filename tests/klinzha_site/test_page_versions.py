"""Published pages while their data changes: one render per page, language and version at a
time, the version before served meanwhile (marked, and only while recent), a bounded wait
when there is nothing to serve, a writer never served a page from before their own change
(through the pages and the API), every key the database's own, and Redis down still
answering."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.db import connection
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings
from rest_framework.authtoken.models import Token

from klinzha_site import page_cache
from klinzha_site.cache_keys import cache_key_make, database_identity
from klinzha_site.page_cache import PageVersion, page_cache_local_clear, page_rendered, page_serve
from klinzha_site.page_prerender import pages_ahead_mark
from tests.klinzha_site.test_page_cache import DEAD_REDIS
from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import views
from tournaments.models import Game, Tournament
from tournaments.published import tournament_pages_prerender


def _version(n: int) -> PageVersion:
    return PageVersion(scope="t999", stamp=f"t999:v{n}", number=n)


def _serve(n: int, renders: list[int], *, seconds: float = 0.0) -> Any:
    """Version `n` of one page, `renders` told of each render (which takes `seconds`)."""
    request = RequestFactory().get("/t/x/standings/")
    request.user = AnonymousUser()

    def render() -> HttpResponse:
        renders.append(n)
        time.sleep(seconds)
        return HttpResponse(f"<p>standings, version {n}</p>".encode())

    return page_serve(request, key="standings:/t/x/standings/", render=render, version=_version(n))


def _in_threads(count: int, work: Any) -> list[Any]:
    """`work()` in `count` threads started together; what each returned."""
    start = threading.Barrier(count)
    out: list[Any] = [None] * count

    def run(i: int) -> None:
        start.wait()
        out[i] = work()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return out


# Through the shared cache (Redis in the PostgreSQL pass): a database test though it opens none.
@pytest.mark.database
def test_one_render_per_version_the_version_before_meanwhile():
    renders: list[int] = []
    assert _serve(1, renders).content == b"<p>standings, version 1</p>"
    answers = _in_threads(8, lambda: _serve(2, renders, seconds=1.0))
    assert renders == [1, 2]  # eight readers of version 2, one render
    fresh = [a for a in answers if "X-KZ-Stale" not in a]
    stale = [a for a in answers if "X-KZ-Stale" in a]
    assert fresh and all(a.content == b"<p>standings, version 2</p>" for a in fresh)
    assert all(a["X-KZ-Version"] == "t999:v2" for a in fresh)
    assert stale  # those that came while it rendered: the version before, marked
    for answer in stale:
        assert answer.content == b"<p>standings, version 1</p>"
        assert answer["X-KZ-Version"] == "t999:v1" and answer["X-KZ-Stale"] == "2"
    again = _serve(2, renders)
    assert again.content == b"<p>standings, version 2</p>" and renders == [1, 2]


@pytest.mark.database
def test_a_version_before_read_too_long_ago_is_waited_for_not_served(monkeypatch):
    """Past KZ_PAGE_STALE_SECONDS the version before is not served: the reader waits for
    the render under way (no second render)."""
    renders: list[int] = []
    _serve(1, renders)
    monkeypatch.setattr(page_cache, "STALE_SECONDS", 0.05)
    time.sleep(0.1)
    other = threading.Thread(target=_serve, args=(2, renders), kwargs={"seconds": 0.4})
    other.start()
    time.sleep(0.1)  # the other one holds the render lock
    answer = _serve(2, renders)
    other.join()
    assert answer.content == b"<p>standings, version 2</p>" and "X-KZ-Stale" not in answer
    assert renders == [1, 2]


@pytest.mark.database
def test_a_reader_waits_a_bounded_time_then_renders_itself(monkeypatch):
    renders: list[int] = []
    monkeypatch.setattr(page_cache, "RENDER_WAIT_SECONDS", 0.1)
    other = threading.Thread(target=_serve, args=(1, renders), kwargs={"seconds": 1.0})
    other.start()
    time.sleep(0.1)
    started = time.monotonic()
    answer = _serve(1, renders)  # nothing before it to serve
    waited = time.monotonic() - started
    other.join()
    assert answer.content == b"<p>standings, version 1</p>" and renders == [1, 1]
    assert 0.1 <= waited < 0.9


@pytest.mark.database
def test_renders_are_told(monkeypatch):
    told: list[str] = []

    def receiver(sender: object, key: str, seconds: float, **_: object) -> None:
        told.append(key)

    page_rendered.connect(receiver)
    try:
        _serve(7, [])
        _serve(7, [])
    finally:
        page_rendered.disconnect(receiver)
    assert len(told) == 1 and ":t999:v7:standings:" in told[0]


def test_keys_carry_the_database_identity():
    """Two databases (another name, another host) never make the same key; the same one
    always does."""
    base = {"ENGINE": "django.db.backends.postgresql", "HOST": "db", "PORT": 5432, "NAME": "a"}
    one = database_identity(settings_dict=base)
    assert one == database_identity(settings_dict=dict(base))
    assert one != database_identity(settings_dict={**base, "NAME": "b"})
    assert one != database_identity(settings_dict={**base, "HOST": "db2"})
    with override_settings(KZ_DEPLOYMENT_ID="site-b"):
        assert one != database_identity(settings_dict=base)
    key = cache_key_make("kz:page:x", "kz", 1)
    assert database_identity() in key
    saved = connection.settings_dict["NAME"]
    connection.settings_dict["NAME"] = f"{saved}-other"
    try:
        assert cache_key_make("kz:page:x", "kz", 1) != key
    finally:
        connection.settings_dict["NAME"] = saved
    assert cache_key_make("kz:page:x", "kz", 1) == key
    assert database_identity() in caches["default"].make_key("kz:page:x")


@pytest.mark.django_db
def test_redis_down_every_process_renders_its_own_and_keeps_it():
    t, (a, b) = event_make(officials_make(), slug="no-redis", names=("Ann", "Bob"))
    round_make(t, [(a, b)])
    renders: list[str] = []

    def receiver(sender: object, key: str, seconds: float, **_: object) -> None:
        renders.append(key)

    page_rendered.connect(receiver)
    try:
        with override_settings(CACHES=DEAD_REDIS):
            client = Client()
            first = client.get(f"/t/{t.slug}/standings/")
            Tournament.objects.filter(pk=t.pk).update(published_version=t.published_version + 5)
            after = client.get(f"/t/{t.slug}/standings/")  # no lock to take: rendered here
            again = client.get(f"/t/{t.slug}/standings/")  # this process's copy
    finally:
        page_rendered.disconnect(receiver)
    assert first.status_code == after.status_code == again.status_code == 200
    assert "X-KZ-Stale" not in after and after["X-KZ-Version"] != first["X-KZ-Version"]
    assert again.content == after.content and len(renders) == 2


def _result_page_and_api(t: Tournament) -> tuple[str, str]:
    return f"/t/{t.slug}/standings/", f"/api/tournaments/{t.slug}/standings/"


@pytest.mark.django_db(transaction=True)
def test_the_writer_reads_their_own_result_through_the_pages_and_the_api():
    """A worker renders the new version ahead (marked as it is right after a commit): a
    visitor is served the version before meanwhile; the arbiter who entered the result,
    through the console's form or the API (session or token), is served their result."""
    officials = officials_make()
    t, (a, b, c, d) = event_make(officials, slug="own-write")
    r1 = round_make(t, [(a, b), (c, d)])
    page, api = _result_page_and_api(t)
    visitor = Client()
    before = {path: visitor.get(path).content for path in (page, api)}
    arbiter = Client()
    arbiter.force_login(officials.arbiter)
    token = Token.objects.create(user=officials.arbiter2)
    api_user = Client(HTTP_AUTHORIZATION=f"Token {token.key}")

    def entered(game: Game, how: str) -> None:
        if how == "form":
            path = f"/arbiter/t/{t.slug}/game/{game.pk}/result/"
            assert arbiter.post(path, {"result": "first_win"}).status_code == 302
        else:
            path = f"/api/games/{game.pk}/result/"
            body = {"result": "first_win"}
            assert api_user.post(path, body, content_type="application/json").status_code == 200
        number = Tournament.objects.get(pk=t.pk).published_version
        pages_ahead_mark(scope=f"t{t.pk}", number=number)  # a worker is making them

    entered(r1.games.get(board=1), "form")
    stale = visitor.get(page)
    assert stale.content == before[page] and stale["X-KZ-Stale"]
    mine = arbiter.get(page)
    assert "X-KZ-Stale" not in mine and b'class="num score">1</td>' in mine.content
    assert b'class="num score">1</td>' not in before[page]

    tournament_pages_prerender(tournament_id=t.pk)  # the worker made the first result's pages
    entered(r1.games.get(board=2), "api")
    assert visitor.get(api)["X-KZ-Stale"]  # one version behind, never two
    mine = api_user.get(api)
    assert "X-KZ-Stale" not in mine
    scores = {row["name"]: row["score"] for row in mine.json()}
    assert scores == {"Ann": 1.0, "Cid": 1.0, "Bob": 0.0, "Dax": 0.0}


@pytest.mark.django_db(transaction=True)
def test_a_page_made_ahead_is_served_without_a_render_on_the_request():
    """What the worker's task does (called here directly): the pages read lately, made for
    the new version before anyone asks."""
    officials = officials_make()
    t, (a, b) = event_make(officials, slug="made-ahead", names=("Ann", "Bob"))
    r1 = round_make(t, [(a, b)])
    paths = [f"/t/{t.slug}/standings/", f"/it/t/{t.slug}/round/1/", f"/t/{t.slug}/crosstable/"]
    visitor = Client()
    for path in paths:
        assert visitor.get(path).status_code == 200
    game = r1.games.get()
    game.result = Game.Result.DRAW
    game.save(update_fields=["result"])
    Tournament.objects.filter(pk=t.pk).update(published_version=t.published_version + 1)
    renders: list[str] = []

    def receiver(sender: object, key: str, seconds: float, **_: object) -> None:
        renders.append(key)

    page_rendered.connect(receiver)
    try:
        assert tournament_pages_prerender(tournament_id=t.pk) == len(paths)
        made = len(renders)
        page_cache_local_clear()  # another process: from Redis
        answers = [visitor.get(path) for path in paths]
    finally:
        page_rendered.disconnect(receiver)
    assert made == len(paths) and len(renders) == made  # none on the readers' requests
    assert all(a.status_code == 200 and "X-KZ-Stale" not in a for a in answers)
    assert all(a["X-KZ-Version"] == f"t{t.pk}:v{t.published_version + 1}" for a in answers)


@pytest.mark.database
def test_a_page_two_versions_behind_is_never_served():
    """Version 3 asked while another process renders it and the newest made is version 1:
    two behind, so the reader waits for version 3 rather than being served version 1."""
    renders: list[int] = []
    _serve(1, renders)
    other = threading.Thread(target=_serve, args=(3, renders), kwargs={"seconds": 0.4})
    other.start()
    time.sleep(0.1)  # the other one holds version 3's render lock
    answer = _serve(3, renders)
    other.join()
    assert answer.content == b"<p>standings, version 3</p>" and "X-KZ-Stale" not in answer
    assert renders == [1, 3]


@pytest.mark.django_db(transaction=True)
def test_the_fast_path_follows_a_version_another_process_made(
    django_assert_max_num_queries, monkeypatch
):
    """A visitor's page made anew by another process (here the worker's render ahead) is
    answered from the fast path, its validator's one query at most (on PostgreSQL a
    prepared statement Django does not count), not through the whole stack (the view is
    not called); the next request too, the entry following the new version."""
    officials = officials_make()
    t, (a, b) = event_make(officials, slug="fast-follows", names=("Ann", "Bob"))
    r1 = round_make(t, [(a, b)])
    path = f"/t/{t.slug}/standings/"
    visitor = Client()
    visitor.get(path)
    t.refresh_from_db()
    assert visitor.get(path)["X-KZ-Version"] == f"t{t.pk}:v{t.published_version}"
    game = r1.games.get()
    game.result = Game.Result.DRAW
    game.save(update_fields=["result"])
    Tournament.objects.filter(pk=t.pk).update(published_version=t.published_version + 1)
    assert tournament_pages_prerender(tournament_id=t.pk) == 1
    viewed: list[str] = []
    through = views._published
    monkeypatch.setattr(views, "_published", lambda *a, **k: viewed.append("") or through(*a, **k))
    for _ in range(2):
        with django_assert_max_num_queries(1):
            answer = visitor.get(path)
        assert not viewed
        assert answer.status_code == 200 and "X-KZ-Stale" not in answer
        assert answer["X-KZ-Version"] == f"t{t.pk}:v{t.published_version + 1}"
