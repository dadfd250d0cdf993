"""The bodies of the API's actions that answer with a small object of their own (a
registration, a withdrawal, a round published, an irregularity ruled, ...): their field
names and values, exactly, as clients read them. Each is compared whole, so a field added,
renamed or rendered differently (a date, a number) fails here; and each answer is held to
the API's schema (tests.api_schema), so the output serializers describe exactly these."""

from __future__ import annotations

import io
import json
from datetime import UTC, date, datetime

import pytest
from django.contrib.auth import get_user_model

from games.models import RecordSubmission
from tests.api_schema import SchemaCheckedClient
from tournaments import pairing_selectors, selectors, services
from tournaments.models import Game, PairingJob, Player, Registration, Tournament
from tournaments.rating_event_selectors import crosstable_json_rated
from tournaments.standings import standings_json

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def arbiter():  # type: ignore[no-untyped-def]
    return User.objects.create_user("arb", password="pw-arbiter-1", is_staff=True)


@pytest.fixture
def api(arbiter):  # type: ignore[no-untyped-def]
    client = SchemaCheckedClient()
    client.force_authenticate(arbiter)
    return client


@pytest.fixture
def event():  # type: ignore[no-untyped-def]
    """A Swiss event of four entrants and a fifth player not yet registered."""
    t = services.tournament_create(
        name="Bodies", slug="bodies", start_date=date(2026, 3, 1), rounds_planned=5
    )
    for i in range(4):
        player = services.player_create(name=f"B{i + 1}", rating=2000 - i)
        services.registration_create(tournament=t, player=player)
    services.player_create(name="Late", rating=1500)
    return t


def post(api, path: str, data: dict, status: int = 200):  # type: ignore[no-untyped-def]
    resp = api.post(path, data, format="json")
    assert resp.status_code == status, resp.content
    return resp


def assert_body(resp, expected) -> None:  # type: ignore[no-untyped-def]
    """The body byte for byte: these fields in this order, each value as JSON writes it (1
    is not 1.0), compact as DRF's renderer writes it."""
    compact = json.dumps(expected, separators=(",", ":"), ensure_ascii=False)
    assert resp.content.decode() == compact


def test_entrants_actions(api, event: Tournament) -> None:
    base = f"/api/tournaments/{event.slug}"
    late = Player.objects.get(name="Late")
    resp = post(api, base + "/registrations/", {"player": late.pk}, 201)
    assert_body(resp, {"player": late.pk, "first_round": 1, "start_rank": 5})
    b1 = Player.objects.get(name="B1")
    resp = post(api, base + "/bye-requests/", {"player": b1.pk, "round": 2}, 201)
    assert_body(resp, {"player": b1.pk, "round": 2})
    resp = api.get(base + "/bye-requests/")
    assert resp.status_code == 200
    assert_body(
        resp, [{"player": b1.pk, "name": "B1", "start_rank": 1, "round": 2, "confirmed": True}]
    )
    resp = post(api, base + "/bye-requests/cancel/", {"player": b1.pk, "round": 2})
    assert_body(resp, {"cancelled": 1})
    resp = post(api, base + "/bye-requests/cancel/", {"player": b1.pk, "round": 2})
    assert_body(resp, {"cancelled": 0})
    resp = post(api, base + "/withdrawals/", {"player": late.pk})
    assert_body(resp, {"player": late.pk, "status": "withdrawn", "last_round": 0})
    resp = post(api, base + "/withdrawal-undo/", {"player": late.pk})
    assert_body(resp, {"player": late.pk, "status": "active"})
    assert Registration.objects.get(tournament=event, player=late).status == "active"


def test_player_account(api) -> None:
    player = services.player_create(name="Kor", rating=1800)
    User.objects.create_user("kor", password="pw-kor-12345")
    resp = post(api, f"/api/players/{player.pk}/account/", {"username": "kor"})
    assert_body(resp, {"player": player.pk, "username": "kor"})
    resp = post(api, f"/api/players/{player.pk}/account/", {"username": ""})
    assert_body(resp, {"player": player.pk, "username": None})


def test_officials(api, event: Tournament) -> None:
    for name in ("chief", "zed", "amy"):
        User.objects.create_user(name, password=f"pw-{name}-12345")
    resp = post(
        api,
        f"/api/tournaments/{event.slug}/officials/",
        {"chief_arbiter": "chief", "arbiters": ["zed", "amy"]},
    )
    assert_body(resp, {"chief_arbiter": "chief", "arbiters": ["amy", "zed"]})
    resp = post(api, f"/api/tournaments/{event.slug}/officials/", {"chief_arbiter": None})
    assert_body(resp, {"chief_arbiter": None, "arbiters": []})


def test_rounds_actions(api, event: Tournament) -> None:
    base = f"/api/tournaments/{event.slug}"
    post(api, base + "/pair/", {}, 201)
    rnd = event.rounds.get(number=1)
    pairs = [[g.first_id, g.second_id] for g in rnd.games.order_by("board")]
    resp = post(
        api,
        base + "/schedule/",
        {"round": 1, "starts_at": "2026-03-01T09:30:00Z", "place": "Hall B"},
    )
    assert_body(resp, {"round": 1, "starts_at": "2026-03-01T09:30:00Z", "place": "Hall B"})
    resp = post(api, base + "/schedule/", {"round": 1, "starts_at": None})
    assert_body(resp, {"round": 1, "starts_at": None, "place": ""})
    swapped = [[pairs[0][0], pairs[1][0]], [pairs[0][1], pairs[1][1]]]
    resp = post(api, base + "/edit-pairings/", {"round": 1, "pairings": swapped})
    assert_body(resp, {"warnings": event.rounds.get(number=1).warnings})
    assert isinstance(resp.json()["warnings"], list)
    resp = post(api, base + "/publish/", {"round": 1})
    assert_body(resp, {"round": 1, "status": "published"})
    resp = post(api, base + "/unpublish/", {"round": 1})
    assert_body(resp, {"round": 1, "status": "draft"})
    resp = post(api, base + "/discard/", {"round": 1})
    assert_body(resp, {"discarded": 1})
    assert not event.rounds.exists()


def test_pairing_in_the_background_and_its_job(api, event: Tournament) -> None:
    base = f"/api/tournaments/{event.slug}"
    resp = post(api, base + "/pair/", {"background": True}, 202)
    job = PairingJob.objects.get(tournament=event)
    assert_body(resp, pairing_selectors.pairing_job_state(job=job))
    assert list(resp.json()) == ["id", "round", "status", "progress", "message"]
    resp = api.get(f"{base}/pairing-jobs/{job.pk}/")
    assert resp.status_code == 200
    assert_body(resp, pairing_selectors.pairing_job_state(job=job))


def test_published_bodies(api, event: Tournament) -> None:
    base = f"/api/tournaments/{event.slug}"
    post(api, base + "/pair/", {"publish": True}, 201)
    for g in Game.objects.filter(round__tournament=event, kind=Game.Kind.GAME):
        services.game_result_set(game=g, result="first_win")
    event.refresh_from_db()
    rows = selectors.standings_compute(tournament=event)
    resp = api.get(base + "/standings/")
    assert resp.status_code == 200
    assert_body(resp, standings_json(rows, event.tiebreak_list, extended=True))
    assert set(resp.json()[0]) == {
        "rank",
        "name",
        "score",
        "tiebreaks",
        "start_rank",
        "withdrawn_after_round",
    }
    resp = api.get(base + "/crosstable/")
    assert resp.status_code == 200
    assert_body(resp, crosstable_json_rated(tournament=event))
    body = resp.json()
    assert set(body) == {
        "tournament",
        "audit_head",
        "rounds",
        "tiebreaks",
        "tiebreak_legend",
        "legend",
        "rows",
    }
    assert set(body["tiebreak_legend"]) == set(body["tiebreaks"])
    assert set(body["rows"][0]) == {
        "rank",
        "player",
        "start_rank",
        "name",
        "club",
        "rating",
        "withdrawn_after_round",
        "rounds",
        "score",
        "tiebreaks",
    }
    assert set(body["rows"][0]["rounds"][0]) == {
        "opponent_rank",
        "placed_first",
        "result",
        "points",
        "counted",
        "penalized",
        "rating_change",
        "rating_change_estimate",
    }


def test_game_irregularity(api, event: Tournament) -> None:
    post(api, f"/api/tournaments/{event.slug}/pair/", {"publish": True}, 201)
    game = Game.objects.filter(round__tournament=event, kind=Game.Kind.GAME).first()
    path = f"/api/games/{game.pk}/irregularities/"
    resp = post(api, path, {"kind": "draw", "reason": "x"}, 201)
    assert_body(
        resp,
        {
            "kind": "draw",
            "article": "7.3",
            "ply": None,
            "new_record": None,
            "result": "draw",
            "battles_annulled": 0,
            "replay_from_version": 0,
        },
    )


def test_record_upload(api, event: Tournament) -> None:
    post(api, f"/api/tournaments/{event.slug}/pair/", {"publish": True}, 201)
    upload = io.BytesIO(b'[Round "1"]\n[Green "Nobody"]\n[Gold "Somebody"]\n\n')
    upload.name = "one.kzr"
    resp = api.post(
        f"/api/tournaments/{event.slug}/record-uploads/", {"file": upload}, format="multipart"
    )
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert set(body) == {"stored", "matched", "records"}
    assert body["stored"] == 1 and body["matched"] == 0
    (record,) = body["records"]
    sub = RecordSubmission.objects.get(pk=record["id"])
    expected = {
        "stored": 1,
        "matched": 0,
        "records": [{"id": sub.pk, "file": "one.kzr", "game": None, "match": sub.match_note}],
    }
    assert_body(resp, expected)
    assert record["file"] == "one.kzr" and record["game"] is None
    assert "no game in round 1 between Nobody and Somebody" in record["match"]


def test_a_scheduled_start_keeps_its_microseconds_and_zone(api, event: Tournament) -> None:
    """The schedule's answer renders the stored moment the way DRF's JSON encoder does."""
    post(api, f"/api/tournaments/{event.slug}/pair/", {}, 201)
    resp = post(
        api,
        f"/api/tournaments/{event.slug}/schedule/",
        {"round": 1, "starts_at": "2026-03-01T10:30:00.250000+01:00", "place": "Annex"},
    )
    stored = event.rounds.get(number=1).starts_at
    assert stored == datetime(2026, 3, 1, 9, 30, 0, 250000, tzinfo=UTC)
    assert_body(resp, {"round": 1, "starts_at": "2026-03-01T09:30:00.250000Z", "place": "Annex"})
