"""The API's writes in bulk: entrants registered in one request
(POST /api/tournaments/{slug}/registrations/bulk/) and a round's results entered in one
(POST /api/tournaments/{slug}/rounds/{n}/results/): their bodies, every refused row named
by its index and field with nothing stored, and thousands of rows in a bounded number of
queries. Every answer is held to the API's schema (tests.api_schema)."""

from __future__ import annotations

import json
import time
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.api_schema import SchemaCheckedClient
from tournaments import services
from tournaments.models import AuditEntry, Game, Player, Registration, Tournament
from tournaments.page_selectors import tournament_version_get

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def arbiter():  # type: ignore[no-untyped-def]
    return User.objects.create_user("arb", password="pw-arbiter-1")


@pytest.fixture
def event(arbiter):  # type: ignore[no-untyped-def]
    """A Swiss event the arbiter runs, two entrants registered."""
    t = services.tournament_create(
        name="Bulk Open", slug="bulk-open", start_date=date(2026, 11, 1), rounds_planned=9
    )
    t.arbiters.add(arbiter)
    for name, rating in (("Kahless", 2400), ("Kor", 1700)):
        services.registration_create(
            tournament=t, player=services.player_create(name=name, rating=rating)
        )
    return t


def client_of(user) -> SchemaCheckedClient:  # type: ignore[no-untyped-def]
    api = SchemaCheckedClient()
    if user is not None:
        api.force_authenticate(user)
    return api


@pytest.fixture
def api(arbiter) -> SchemaCheckedClient:  # type: ignore[no-untyped-def]
    return client_of(arbiter)


def bulk(t: Tournament) -> str:
    return f"/api/tournaments/{t.slug}/registrations/bulk/"


def results_url(t: Tournament, number: int) -> str:
    return f"/api/tournaments/{t.slug}/rounds/{number}/results/"


def version(t: Tournament) -> int:
    found = tournament_version_get(slug=t.slug)
    assert found is not None
    return found[1]


def stored(t: Tournament) -> tuple[int, ...]:
    return (
        Player.objects.count(),
        Registration.objects.filter(tournament=t).count(),
        AuditEntry.objects.filter(tournament=t).count(),
        version(t),
        *Game.objects.filter(round__tournament=t).exclude(result="").values_list("pk", flat=True),
    )


def test_a_batch_registers_and_answers_each_rows_registration(api, event):
    koloth = services.player_create(name="Koloth", rating=2000)
    club = services.club_create(name="House of Duras")
    rows = [
        {"player": koloth.pk},
        {"name": "Lursa", "club": club.pk, "rating": 1900, "federation": "KLI"},
        {"name": "B'Etor", "club_name": "House of Duras", "rating": 1900},
        {"name": "Toral"},
    ]
    resp = api.post(bulk(event), {"rows": rows}, format="json")
    assert resp.status_code == 201, resp.content
    made = {p.name: p.pk for p in Player.objects.all()}
    # Seeded once: Kahless 2400, Koloth 2000, B'Etor and Lursa 1900 (by name), Kor, Toral.
    expected = {
        "registered": 4,
        "registrations": [
            {"player": koloth.pk, "first_round": 1, "start_rank": 2},
            {"player": made["Lursa"], "first_round": 1, "start_rank": 4},
            {"player": made["B'Etor"], "first_round": 1, "start_rank": 3},
            {"player": made["Toral"], "first_round": 1, "start_rank": 6},
        ],
    }
    assert resp.content.decode() == json.dumps(expected, separators=(",", ":"))
    assert Player.objects.get(name="B'Etor").club == club  # the club of that name
    assert Player.objects.get(name="Lursa").federation == "KLI"


def test_every_bad_row_is_refused_with_its_index_and_field_and_nothing_is_stored(api, event):
    kor = Player.objects.get(name="Kor")
    before = stored(event)
    rows = [
        {"name": "Fine", "rating": 1500},
        {"name": "Strong", "rating": 10_000},  # the serializer's bound
        {"player": kor.pk, "name": "Kor"},  # a known player with a new one's fields
        {"rating": 1500},  # no name, no player
        {"name": "Fine Too", "federation": "KLINGON"},
    ]
    resp = api.post(bulk(event), {"rows": rows}, format="json")
    assert resp.status_code == 400
    refused = resp.json()["rows"]
    assert {k: sorted(v) for k, v in refused.items()} == {
        "1": ["rating"],
        "2": ["name"],
        "3": ["name"],
        "4": ["federation"],
    }
    assert stored(event) == before
    # Rows the body's checks let through, refused by the registration's rules.
    rows = [
        {"name": "Fine", "rating": 1500},
        {"player": kor.pk},  # already registered
        {"player": 2**40},
        {"name": "Clubless", "club": 2**40},
        {"name": "Fine", "club_name": "C" * 120},
    ]
    resp = api.post(bulk(event), {"rows": rows}, format="json")
    assert resp.status_code == 400
    assert resp.json() == {
        "rows": {
            "1": {"player": ["already registered"]},
            "2": {"player": [f"no player {2**40}"]},
            "3": {"club": [f"no club {2**40}"]},
        }
    }
    assert stored(event) == before


@pytest.mark.parametrize("body", [[], {"rows": []}, {"rows": "x"}, {"rows": [[1]]}, {}])
def test_a_body_that_is_no_batch_is_refused(api, event, body):
    before = stored(event)
    resp = api.post(bulk(event), body, format="json")
    assert resp.status_code == 400 and stored(event) == before


def test_a_round_robin_under_way_answers_409(api, arbiter):
    t = services.tournament_create(
        name="RR", slug="rr", start_date=date(2026, 11, 1), pairing_system="round_robin"
    )
    t.arbiters.add(arbiter)
    players = [services.player_create(name=f"R{i}", rating=1500 + i) for i in range(4)]
    for p in players:
        services.registration_create(tournament=t, player=p)
    services.round_pair(tournament=t)
    resp = api.post(bulk(t), {"rows": [{"name": "Late"}]}, format="json")
    assert resp.status_code == 409
    assert not Player.objects.filter(name="Late").exists()


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_the_role_is_checked_before_the_body(event, who):
    """A caller who is not the event's arbiter is refused before the rows are read: a bad
    batch is 401/403 for them, not 400."""
    user = None if who == "anonymous" else User.objects.create_user("x", password="pw-x-12345")
    before = stored(event)
    for url in (bulk(event), results_url(event, 1)):
        resp = client_of(user).post(url, {"rows": [{"rating": -1}]}, format="json")
        assert resp.status_code in (401, 403), resp.content
    assert stored(event) == before


def test_two_thousand_rows_in_one_request_in_a_bounded_number_of_queries(api, arbiter):
    """2,000 new entrants with 20 clubs, registered in one request: in seconds, and in a
    number of queries that does not grow with the rows (a few more on SQLite, whose limit
    of bound parameters splits the inserts: never one a row)."""
    counts = []
    for n, slug in ((1, "warm"), (100, "small"), (2000, "large")):
        t = services.tournament_create(name=slug, slug=slug, start_date=date(2026, 11, 1))
        t.arbiters.add(arbiter)
        rows = [
            {
                "name": f"{slug} {i}",
                "rating": 1000 + (i * 7919) % 1500,
                "club_name": f"{slug} C{i % 20}",
            }
            for i in range(n)
        ]
        start = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            resp = api.post(bulk(t), {"rows": rows}, format="json")
        seconds = time.perf_counter() - start
        assert resp.status_code == 201, resp.content[:300]
        counts.append(len(queries))
        regs = Registration.objects.filter(tournament=t).order_by("start_rank")
        assert [r.start_rank for r in regs] == list(range(1, n + 1))
        assert [r.rating for r in regs] == sorted((r.rating for r in regs), reverse=True)
    assert seconds < 30, f"2,000 rows took {seconds:.1f} s"
    counts = counts[1:]  # after a first request that reads what every later one reuses
    if connection.vendor == "postgresql":
        assert counts[0] == counts[1], counts
    else:
        assert counts[1] <= counts[0] + 2000 // 20, counts
    assert counts[0] <= 50, counts


# Results


@pytest.fixture
def round1(event):  # type: ignore[no-untyped-def]
    """Eight entrants, round 1 paired and published: boards 1-4."""
    for i in range(6):
        services.registration_create(
            tournament=event, player=services.player_create(name=f"Q{i}", rating=1600 - i)
        )
    return services.round_pair(tournament=event, publish=True)


def test_a_round_is_entered_in_one_request(api, event, round1):
    games = list(round1.games.order_by("board"))
    rows = [
        {"board": 1, "result": "first_win"},
        {"board": 2, "result": "draw"},
        {"game": games[2].pk, "result": "second_win"},
        {"board": 4, "result": "double_forfeit"},
    ]
    before = version(event)
    resp = api.post(results_url(event, 1), {"rows": rows}, format="json")
    assert resp.status_code == 200, resp.content
    assert resp.content.decode() == '{"round":1,"entered":4,"changed":4}'
    assert list(round1.games.order_by("board").values_list("result", flat=True)) == [
        "first_win",
        "draw",
        "second_win",
        "double_forfeit",
    ]
    assert version(event) == before + 1
    audit = AuditEntry.objects.filter(tournament=event, action="result").order_by("seq")
    assert [a.object_id for a in audit] == [str(g.pk) for g in games]
    # The same again changes nothing: no entry, no bump.
    resp = api.post(results_url(event, 1), {"rows": rows[:2]}, format="json")
    assert resp.json() == {"round": 1, "entered": 2, "changed": 0}
    assert version(event) == before + 1 and audit.count() == 4


def test_every_bad_result_is_refused_with_its_index_and_nothing_is_stored(api, event, round1):
    before = stored(event)
    rows = [
        {"board": 1, "result": "first_win"},
        {"board": 2, "result": "victory"},
        {"board": 2, "game": 1, "result": "draw"},
        {"result": "draw"},
    ]
    resp = api.post(results_url(event, 1), {"rows": rows}, format="json")
    assert resp.status_code == 400
    assert sorted(resp.json()["rows"]) == ["1", "2", "3"]
    assert list(resp.json()["rows"]["1"]) == ["result"]
    rows = [
        {"board": 1, "result": "first_win"},
        {"board": 99, "result": "draw"},
        {"board": 1, "result": "draw"},
    ]
    resp = api.post(results_url(event, 1), {"rows": rows}, format="json")
    assert resp.status_code == 400
    assert resp.json() == {
        "rows": {"1": {"board": ["round 1 has no board 99"]}, "2": {"board": ["given twice"]}}
    }
    assert stored(event) == before


@pytest.mark.parametrize("number", ["2", "0", "99999"])
def test_a_round_not_paired_is_404(api, event, round1, number):
    resp = api.post(
        f"/api/tournaments/{event.slug}/rounds/{number}/results/",
        {"rows": [{"board": 1, "result": "draw"}]},
        format="json",
    )
    assert resp.status_code == 404


def test_a_whole_rounds_queries_do_not_grow_with_its_boards(api, arbiter):
    counts = []
    for n in (8, 200):
        t = services.tournament_create(
            name=f"R{n}", slug=f"r{n}", start_date=date(2026, 11, 1), rounds_planned=3
        )
        t.arbiters.add(arbiter)
        rows = [{"name": f"R{n} {i}", "rating": 2000 - i} for i in range(n)]
        assert api.post(bulk(t), {"rows": rows}, format="json").status_code == 201
        rnd = services.round_pair(tournament=t, publish=True)
        body = {"rows": [{"board": g.board, "result": "first_win"} for g in rnd.games.all()]}
        with CaptureQueriesContext(connection) as queries:
            resp = api.post(results_url(t, 1), body, format="json")
        assert resp.status_code == 200 and resp.json()["changed"] == n // 2
        counts.append(len(queries))
    if connection.vendor == "postgresql":
        assert counts[0] == counts[1], counts
    else:
        assert counts[1] <= counts[0] + 200 // 20, counts
    assert counts[0] <= 30, counts
