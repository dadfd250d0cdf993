"""The published pages from the cache are never stale: after every kind of change each page
and API form served equals a fresh render (and the change shows); the cached body is a
visitor's (no CSRF token, no user name); 304s; gzip only where cached; a hit reads at most
one query; the rounds list's opt-in paging."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from klinzha_site.page_cache import page_cache_local_clear
from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import page_selectors, services
from tournaments.audit import Action, audit_append
from tournaments.models import Game, Player, Round, Tournament
from tournaments.selectors import game_spindle, standings_memo_clear

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> dict[str, Any]:
    """Ann, Bob, Cid, Dax, Eve (Swiss, spindle casts); round 1 published: Ann – Bob won by
    Ann, Cid – Dax pending, Eve's bye."""
    officials = officials_make()
    t, players = event_make(
        officials,
        slug="cache-open",
        names=("Ann", "Bob", "Cid", "Dax", "Eve"),
        placement_order="spindle",
    )
    a, b, c, d, e = players
    r1 = round_make(t, [(a, b), (c, d), (e, None)])
    services.game_result_set(game=r1.games.get(board=1), result=Game.Result.FIRST_WIN)
    return {"t": t, "players": players, "officials": officials, "r1": r1}


def urls(t: Tournament, players: list[Player]) -> list[str]:
    s = t.slug
    return [
        f"/t/{s}/",
        f"/t/{s}/standings/",
        f"/t/{s}/standings/?round=1",
        f"/t/{s}/crosstable/",
        f"/t/{s}/crosstable.csv",
        f"/t/{s}/crosstable.json",
        f"/t/{s}/round/1/",
        f"/t/{s}/round/1/?slips=1",
        *(f"/p/{p.pk}/" for p in players),
        f"/it/t/{s}/standings/",
        f"/de/t/{s}/round/1/",
        f"/api/tournaments/{s}/standings/",
        f"/api/tournaments/{s}/crosstable/",
        f"/api/tournaments/{s}/rounds/",
        f"/api/tournaments/{s}/rounds/?round=1",
        f"/api/tournaments/{s}/rounds/?limit=1",
    ]


def body(response: Any) -> bytes:
    content = b"".join(response) if response.streaming else response.content
    if response.get("Content-Encoding") == "gzip":
        return gzip.decompress(content)
    return content


def served(client: Client, paths: list[str]) -> dict[str, bytes]:
    out = {}
    for path in paths:
        response = client.get(path)
        assert response.status_code in (200, 404), path
        out[path] = body(response)
    return out


def fresh(client: Client, paths: list[str]) -> dict[str, bytes]:
    """Each page as rendered now, with nothing cached: not the pages, and not the standings
    this process computed either (a stale memo would be served by both sides alike)."""
    cache.clear()
    page_cache_local_clear()
    standings_memo_clear()
    return served(client, paths)


def check_change(event: dict[str, Any], change: Callable[[], None], shows: dict[str, str]) -> None:
    """Warm every page, make the change, then every page served equals a fresh render, and
    the pages in `shows` changed and carry the given text."""
    client = Client()
    paths = urls(event["t"], event["players"])
    before = served(client, paths)
    assert served(client, paths) == before  # from the cache now
    change()
    after = served(client, paths)
    assert after == fresh(client, paths)
    for path, text in shows.items():
        assert after[path] != before[path], path
        assert text.encode() in after[path], (path, text)


def test_a_result_entered_and_changed_shows_on_every_page(event):
    t, g = event["t"], event["r1"].games.get(board=2)
    s = t.slug

    def enter() -> None:
        services.game_result_set(game=g, result=Game.Result.SECOND_WIN)

    check_change(event, enter, {f"/t/{s}/round/1/": "0 – 1", f"/api/tournaments/{s}/rounds/": ""})

    def change() -> None:
        services.game_result_set(game=Game.objects.get(pk=g.pk), result=Game.Result.DRAW)

    check_change(event, change, {f"/t/{s}/crosstable.csv": "", f"/p/{g.first_id}/": "½"})


def test_a_round_paired_edited_published_unpublished_and_discarded_shows(event):
    t = event["t"]
    s = t.slug
    a, b, c, d, e = event["players"]
    services.game_result_set(game=event["r1"].games.get(board=2), result=Game.Result.DRAW)
    rounds = f"/api/tournaments/{s}/rounds/"
    draft: list[Round] = []

    def pair_draft() -> None:
        draft.append(round_make(t, [(a, c), (b, e), (d, None)], draft=True))

    # A proposal is not published: the pages do not change, and nothing stale is served.
    check_change(event, pair_draft, {})

    def edit_and_publish() -> None:
        services.round_pairings_edit(
            round=draft[0],
            pairings=[(a.pk, e.pk), (b.pk, c.pk), (d.pk, None)],
            user=event["officials"].chief,
        )
        services.round_publish(round=draft[0], user=event["officials"].chief)

    check_change(event, edit_and_publish, {rounds: '"number":2', f"/t/{s}/standings/": "Ann"})
    assert Client().get(f"/t/{s}/round/2/").status_code == 200

    def unpublish() -> None:
        services.round_unpublish(round=draft[0], user=event["officials"].chief)

    check_change(event, unpublish, {rounds: '"number":1'})
    assert b'"number":2' not in Client().get(rounds).content

    def discard() -> None:
        services.round_discard(
            round=Round.objects.get(pk=draft[0].pk), user=event["officials"].chief
        )

    check_change(event, discard, {})

    def pair() -> None:
        services.round_pair(tournament=t, user=event["officials"].chief)

    check_change(event, pair, {rounds: '"number":2'})


def test_a_penalty_given_and_revoked_shows(event):
    t, officials = event["t"], event["officials"]
    s = t.slug
    g = event["r1"].games.get(board=2)
    given: list[Any] = []

    def give() -> None:
        given.append(
            services.penalty_impose(
                tournament=t,
                player=g.first,
                kind="battle_lost",
                reason="left the hall",
                game=g,
                user=officials.chief,
            )
        )

    check_change(event, give, {f"/t/{s}/round/1/": "*", f"/t/{s}/standings/": "Dax"})

    def revoke() -> None:
        services.penalty_revoke(penalty=given[0], reason="mistaken", user=officials.chief)

    check_change(event, revoke, {f"/t/{s}/crosstable/": "Cid"})


def test_players_registered_renamed_withdrawn_and_reinstated_show(event):
    t, officials = event["t"], event["officials"]
    s = t.slug
    ann = event["players"][0]

    def register() -> None:
        fay = services.player_create(name="Fay Newcomer", rating=1500)
        services.registration_create(tournament=t, player=fay, user=officials.organizer)

    check_change(event, register, {f"/t/{s}/standings/": "Fay Newcomer"})

    def rename() -> None:
        services.player_update(player=ann, name="Annabel Renamed", user=officials.organizer)

    bob = event["players"][1]
    check_change(
        event,
        rename,
        {
            f"/t/{s}/crosstable/": "Annabel Renamed",
            f"/p/{ann.pk}/": "Annabel Renamed",
            f"/p/{bob.pk}/": "Annabel Renamed",  # Bob's opponent in round 1
            f"/api/tournaments/{s}/standings/": "Annabel Renamed",
        },
    )
    reg = t.registrations.get(player=event["players"][2])

    def withdraw() -> None:
        services.registration_withdraw(registration=reg, user=officials.chief)

    check_change(event, withdraw, {f"/api/tournaments/{s}/standings/": ""})

    def undo() -> None:
        services.registration_withdrawal_undo(registration=reg, user=officials.chief)

    check_change(event, undo, {f"/api/tournaments/{s}/standings/": ""})


def test_a_renamed_player_of_no_event_shows_on_their_page(event):
    lone = services.player_create(name="Lone Wolf", rating=1200)
    client = Client()
    assert b"Lone Wolf" in client.get(f"/p/{lone.pk}/").content
    services.player_update(player=lone, name="Lone Lion")
    assert b"Lone Lion" in client.get(f"/p/{lone.pk}/").content


def test_settings_and_the_schedule_show(event):
    t, officials = event["t"], event["officials"]
    s = t.slug

    def rename_event() -> None:
        services.tournament_update(tournament=t, user=officials.organizer, name="Renamed Open")

    check_change(event, rename_event, {f"/t/{s}/standings/": "Renamed Open"})

    def schedule() -> None:
        services.round_schedule(
            round=event["r1"], starts_at=None, place="Hall B", user=officials.chief
        )

    check_change(
        event, schedule, {f"/t/{s}/round/1/": "Hall B", f"/api/tournaments/{s}/rounds/": "Hall B"}
    )


def test_a_spindle_choice_shows(event):
    g = event["r1"].games.get(board=2)
    summary = game_spindle(g)
    assert summary is not None
    s = event["t"].slug

    def choose() -> None:
        services.game_spindle_choose(
            game=g, chooser=summary["option"], placement="last", user=event["officials"].chief
        )

    check_change(event, choose, {f"/t/{s}/round/1/": "chose last"})


def test_each_language_has_its_own_page(event):
    s = event["t"].slug
    client = Client()
    en, it, de = (client.get(f"{p}/t/{s}/standings/") for p in ("", "/it", "/de"))
    assert en.content != it.content != de.content
    assert b'lang="it"' in it.content and b'lang="de"' in de.content
    again = [client.get(f"{p}/t/{s}/standings/").content for p in ("/de", "/it", "")]
    assert again == [de.content, it.content, en.content]


def test_the_cached_page_has_no_csrf_token_and_no_user_name(event, django_user_model):
    s = event["t"].slug
    user = django_user_model.objects.create_user("zorro-the-user", password="pw-zorro-12345")
    event["t"].arbiters.add(user)
    client = Client()
    client.force_login(user)
    for path in (f"/t/{s}/standings/", f"/t/{s}/crosstable/", f"/t/{s}/round/1/"):
        mine = client.get(path, HTTP_ACCEPT_ENCODING="gzip")
        # Their own links, put into the cached page: never compressed, stored or revalidated.
        assert b"zorro-the-user" in mine.content and b"csrfmiddlewaretoken" in mine.content
        assert b'href="/arbiter/"' in mine.content
        assert "Content-Encoding" not in mine and "ETag" not in mine
        assert "no-store" in mine["Cache-Control"] and "Cookie" in mine["Vary"]
        # What the cache holds is the visitors' page, compressed for them.
        visitors = Client().get(path, HTTP_ACCEPT_ENCODING="gzip")
        content = body(visitors)
        assert visitors["Content-Encoding"] == "gzip"
        assert b"zorro-the-user" not in content and b"csrfmiddlewaretoken" not in content
        assert b"Log in" in content and b'href="/arbiter/"' not in content
        # The same page but for the header's account links.
        assert mine.content.replace(b"zorro", b"") != content
        assert (
            mine.content.split(b"<!--/kz:account-nav-->")[1]
            == content.split(b"<!--/kz:account-nav-->")[1]
        )
        assert client.get(path, HTTP_IF_NONE_MATCH=visitors["ETag"]).status_code == 200


def test_a_signed_in_player_sees_their_penalties_on_their_page(event, django_user_model):
    t, officials = event["t"], event["officials"]
    ann = event["players"][0]
    user = django_user_model.objects.create_user("ann-account", password="pw-ann-12345")
    services.player_link_user(player=ann, account=user, user=officials.organizer)
    services.penalty_impose(
        tournament=t, player=ann, kind="warning", reason="noise", user=officials.chief
    )
    visitor = Client().get(f"/p/{ann.pk}/")
    assert b'id="penalties"' not in visitor.content
    client = Client()
    client.force_login(user)
    mine = client.get(f"/p/{ann.pk}/", HTTP_ACCEPT_ENCODING="gzip")
    assert b'id="penalties"' in mine.content and "Content-Encoding" not in mine
    assert b'id="penalties"' not in Client().get(f"/p/{ann.pk}/").content


def test_conditional_get_answers_304_until_a_change(event):
    s = event["t"].slug
    client = Client()
    for path in (f"/t/{s}/standings/", f"/api/tournaments/{s}/rounds/", f"/t/{s}/crosstable.csv"):
        first = client.get(path)
        assert first.status_code == 200 and first["ETag"] and first["Last-Modified"]
        assert "Accept-Encoding" in first["Vary"]
        etag, modified = first["ETag"], first["Last-Modified"]
        assert client.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 304
        assert client.get(path, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304
        assert client.get(path, HTTP_IF_NONE_MATCH='"other"').status_code == 200
    g = event["r1"].games.get(board=2)
    services.game_result_set(game=g, result=Game.Result.DRAW)
    changed = client.get(f"/t/{s}/standings/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200


def test_gzip_is_stored_and_served_to_who_accepts_it(event):
    s = event["t"].slug
    client = Client()
    plain = client.get(f"/t/{s}/crosstable/")
    zipped = client.get(f"/t/{s}/crosstable/", HTTP_ACCEPT_ENCODING="br, gzip;q=0.8")
    refused = client.get(f"/t/{s}/crosstable/", HTTP_ACCEPT_ENCODING="gzip;q=0, identity")
    assert "Content-Encoding" not in plain and "Content-Encoding" not in refused
    assert zipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.content) == plain.content == refused.content
    assert zipped["ETag"] != plain["ETag"]
    # Pages that are not cached are never compressed (the login form carries a CSRF token).
    for path in ("/accounts/login/", "/"):
        response = client.get(path, HTTP_ACCEPT_ENCODING="gzip")
        assert "Content-Encoding" not in response, path
    # The tournament's own page is cached like the others.
    assert client.get(f"/t/{s}/", HTTP_ACCEPT_ENCODING="gzip")["Content-Encoding"] == "gzip"


@pytest.mark.parametrize(
    "path",
    [
        "/t/{s}/",
        "/t/{s}/standings/",
        "/t/{s}/crosstable/",
        "/t/{s}/crosstable.csv",
        "/t/{s}/crosstable.json",
        "/t/{s}/round/1/",
        "/p/{p}/",
        "/api/tournaments/{s}/standings/",
        "/api/tournaments/{s}/crosstable/",
        "/api/tournaments/{s}/rounds/",
    ],
)
def test_a_cached_hit_reads_at_most_one_query(event, path):
    path = path.format(s=event["t"].slug, p=event["players"][0].pk)
    client = Client()
    assert client.get(path).status_code == 200
    page_cache_local_clear()  # from the shared cache (Redis in production)
    with CaptureQueriesContext(connection) as shared:
        assert client.get(path).status_code == 200
    with CaptureQueriesContext(connection) as local:
        assert client.get(path).status_code == 200
    assert len(shared) <= 1 and len(local) <= 1, [q["sql"] for q in local.captured_queries]


def test_an_unknown_query_parameter_is_answered_uncached(event):
    s = event["t"].slug
    client = Client()
    response = client.get(f"/t/{s}/standings/?utm_source=x")
    assert response.status_code == 200 and "ETag" not in response
    assert client.get(f"/t/{s}/standings/?round=9").status_code == 404
    assert client.get(f"/t/{s}/standings/?round=x").status_code == 400
    assert client.get("/t/no-such-event/standings/").status_code == 404
    assert client.get("/p/999999/").status_code == 404


def test_the_rounds_list_pages_on_request_only(event):
    t = event["t"]
    a, b, c, d, e = event["players"]
    services.game_result_set(game=event["r1"].games.get(board=2), result=Game.Result.DRAW)
    round_make(t, [(a, c), (b, e), (d, None)])
    round_make(t, [(a, d), (c, e), (b, None)])
    client = Client()
    base = f"/api/tournaments/{t.slug}/rounds/"
    everything = client.get(base).json()
    assert [r["number"] for r in everything] == [1, 2, 3]
    assert client.get(base + "?round=2").json() == [everything[1]]
    assert client.get(base + "?round=7").json() == []
    first = client.get(base + "?limit=2")
    assert first.json() == everything[:2]
    assert first["Link"] == f'<{base}?limit=2&cursor=2>; rel="next"'
    last = client.get(base + "?limit=2&cursor=2")
    assert last.json() == everything[2:] and "Link" not in last
    for bad in ("?limit=0", "?limit=x", "?cursor=-1", "?round=1x", "?limit=101"):
        assert client.get(base + bad).status_code == 400, bad


def test_a_visitors_repeat_request_is_answered_before_the_view(event, monkeypatch):
    """PublishedPageMiddleware: the second request of a visitor never reaches the view, yet
    carries the same body and headers, and a change sends it through the view again."""
    s = event["t"].slug
    client = Client()
    paths = [
        f"/t/{s}/standings/",
        f"/it/t/{s}/crosstable/",
        f"/api/tournaments/{s}/rounds/?round=1",
        f"/p/{event['players'][0].pk}/",
    ]
    first = {path: client.get(path, HTTP_ACCEPT_LANGUAGE="fr") for path in paths}
    calls: list[str] = []
    real = page_selectors.tournament_version_get

    def counted(**kwargs: Any) -> Any:
        calls.append(kwargs["slug"])
        return real(**kwargs)

    monkeypatch.setattr(page_selectors, "tournament_version_get", counted)
    for path, response in first.items():
        again = client.get(path, HTTP_ACCEPT_LANGUAGE="fr")
        assert again.content == response.content
        for header in ("Content-Type", "Content-Language", "Vary", "ETag", "X-Frame-Options"):
            assert again.get(header) == response.get(header), (path, header)
    assert calls == []
    # Another language asked for is another request: through the stack, then fast too.
    assert client.get(f"/api/tournaments/{s}/rounds/?round=1", HTTP_ACCEPT_LANGUAGE="de")
    assert calls == [s]
    services.game_result_set(game=event["r1"].games.get(board=2), result=Game.Result.DRAW)
    assert b"-\xc2\xbd" in client.get(f"/t/{s}/standings/", HTTP_ACCEPT_LANGUAGE="fr").content
    assert calls == [s, s]


def test_a_player_or_club_renamed_in_the_admin_shows(event, django_user_model):
    s = event["t"].slug
    ann = event["players"][0]
    root = django_user_model.objects.create_superuser("root", password="pw-root-12345")
    admin = Client()
    admin.force_login(root)
    visitor = Client()
    assert b"Ann" in visitor.get(f"/t/{s}/standings/").content
    response = admin.post(
        f"/admin/tournaments/player/{ann.pk}/change/",
        {"name": "Ann From Admin", "federation": "", "rating": ann.rating},
    )
    assert response.status_code == 302
    assert b"Ann From Admin" in visitor.get(f"/t/{s}/standings/").content
    club = services.club_create(name="Old Club")
    services.player_update(player=ann, club=club)
    assert b"Old Club" in visitor.get(f"/t/{s}/standings/").content
    response = admin.post(
        f"/admin/tournaments/club/{club.pk}/change/",
        {"name": "New Club", "city": "", "country": ""},
    )
    assert response.status_code == 302
    page = visitor.get(f"/t/{s}/standings/").content
    assert b"New Club" in page and b"Old Club" not in page


def test_an_audit_entry_alone_shows_where_the_head_is_published(event):
    """A record, a signature or a clock adjustment adds an audit entry and changes no
    version: the pages that publish the trail's head (the tournament's page, the crosstable
    JSON) show the new head, the others stay cached."""
    t, officials = event["t"], event["officials"]
    s = t.slug
    client = Client()
    paths = urls(t, event["players"])
    before = served(client, paths)
    version = Tournament.objects.get(pk=t.pk).published_version
    entry = audit_append(
        tournament=t, user=officials.chief, action=Action.SETTINGS, obj=t, after={"x": 1}
    )
    assert Tournament.objects.get(pk=t.pk).published_version == version
    after = served(client, paths)
    assert after == fresh(client, paths)
    head = entry.hash.encode()
    for path in (f"/t/{s}/", f"/t/{s}/crosstable.json", f"/api/tournaments/{s}/crosstable/"):
        assert head in after[path] and head not in before[path], path
    assert after[f"/t/{s}/standings/"] == before[f"/t/{s}/standings/"]


def test_the_tournament_page_is_served_before_the_view_and_has_the_users_links(
    event, django_user_model
):
    s = event["t"].slug
    visitor = Client()
    first = visitor.get(f"/t/{s}/")
    with CaptureQueriesContext(connection) as queries:
        again = visitor.get(f"/t/{s}/")
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert len(queries) <= 1
    user = django_user_model.objects.create_user("reader", password="pw-reader-12345")
    signed_in = Client()
    signed_in.force_login(user)
    mine = signed_in.get(f"/t/{s}/")
    assert mine.status_code == 200 and b"reader" in mine.content  # Log out reader
    assert "ETag" not in mine and "no-store" in mine["Cache-Control"]
    assert b"reader" not in visitor.get(f"/t/{s}/").content
