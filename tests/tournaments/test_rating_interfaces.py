"""The ratings through `kz ratings`, the API (GET /api/ratings/{pool}/, POST .../close/,
GET /api/players/{id}/ratings/) and who may close by hand."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command
from rest_framework.test import APIClient

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import Game, RatingPeriod, Round

SEP = dt.datetime(2025, 9, 10, 18, tzinfo=dt.UTC)


@pytest.fixture
def officials(db):  # type: ignore[no-untyped-def]
    return officials_make()


@pytest.fixture
def season(officials):  # type: ignore[no-untyped-def]
    t, (ann, bob, cid, dax) = event_make(officials)
    rnd = round_make(t, [(ann, bob), (cid, dax)])
    Round.objects.filter(pk=rnd.pk).update(starts_at=SEP)
    g1, g2 = rnd.games.order_by("board")
    services.game_result_set(game=g1, result=Game.Result.FIRST_WIN)
    services.game_result_set(game=g2, result=Game.Result.DRAW)
    return t, (ann, bob, cid, dax), (g1, g2)


def kz(*args: str) -> str:
    out = io.StringIO()
    call_command("kz", "ratings", *args, stdout=out)
    return out.getvalue()


def test_kz_close_list_and_recompute(season) -> None:  # type: ignore[no-untyped-def]
    t, (ann, bob, cid, dax), _ = season
    assert json.loads(kz("close", "laws", "2025-09", "--json")) == {
        "pool": "laws",
        "closed": ["2025-09"],
    }
    listed = json.loads(kz("list", "laws", "--json"))
    assert listed["pool"] == "laws" and listed["last_period"] == "2025-09"
    rows = listed["players"]
    assert [r["name"] for r in rows][0] == "Ann" and [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["provisional"] and rows[0]["printed"].endswith("?")
    assert set(rows[0]) == {
        "rank", "player", "name", "club", "federation", "rating", "deviation", "volatility",
        "games", "last_period", "provisional", "printed",
    }  # fmt: skip
    first = json.loads(kz("recompute", "--pool", "laws", "--json"))["pools"]["laws"]
    again = json.loads(kz("recompute", "--pool", "laws", "--json"))["pools"]["laws"]
    assert first["fingerprint"] == again["fingerprint"]
    assert first["periods"] >= 1
    # The recompute also closed every month since, empty: ratings stand, deviations grew.
    assert first["closed"][-1] >= "2026-10"
    now = json.loads(kz("list", "laws", "--json"))["players"]
    assert [(r["player"], r["rating"]) for r in now] == [(r["player"], r["rating"]) for r in rows]
    assert all(n["deviation"] > r["deviation"] for n, r in zip(now, rows, strict=True))


def test_kz_close_refuses_a_period_it_cannot_read(season) -> None:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("kz", "ratings", "close", "laws", "2025-W37", "--json", stdout=out)
    assert exit_.value.code == 1
    assert json.loads(out.getvalue()) == {
        "error": {"period": ["period '2025-W37': a month period is written like 2026-11"]}
    }


def test_api_rating_list_paged_and_filtered(season) -> None:  # type: ignore[no-untyped-def]
    kz("close", "laws", "2025-09")
    client = APIClient()
    body = client.get("/api/ratings/laws/?limit=2").json()
    assert body["count"] == 4 and [r["rank"] for r in body["results"]] == [1, 2]
    assert client.get("/api/ratings/laws/?federation=ZZZ").json()["count"] == 0
    assert client.get("/api/ratings/chess/").status_code == 404
    pools = client.get("/api/ratings/").json()
    assert {"pool": "laws", "last_period": "2025-09"} in pools


def test_api_player_ratings(season) -> None:  # type: ignore[no-untyped-def]
    t, (ann, *_), (g1, _) = season
    client = APIClient()
    # Before the close: only the estimate, marked as one.
    before = client.get(f"/api/players/{ann.pk}/ratings/").json()
    assert [h["pool"] for h in before] == ["laws"]
    assert before[0]["periods"] == [] and before[0]["estimate"]["battles"][0]["game"] == g1.pk
    assert before[0]["estimate"]["total"] > 0
    kz("close", "laws", "2025-09")
    after = client.get(f"/api/players/{ann.pk}/ratings/").json()[0]
    assert [p["period"] for p in after["periods"]] == ["2025-09"]
    assert after["battles"][0]["change"] == pytest.approx(before[0]["estimate"]["total"])
    assert after["estimate"] is None
    assert client.get("/api/players/999999/ratings/").status_code == 404


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("anonymous", 401),
        ("stranger", 403),
        ("arbiter", 403),
        ("chief", 403),
        ("organizer", 403),
        ("officer", 200),
        ("staff", 200),
    ],
)
def test_who_may_close_through_the_api(season, officials, who, status) -> None:  # type: ignore[no-untyped-def]
    client = APIClient()
    User = get_user_model()
    if who == "officer":
        user = User.objects.create_user("officer", password="pw-officer-12345")
        user.user_permissions.add(Permission.objects.get(codename="close_ratingperiod"))
    elif who == "staff":
        user = User.objects.create_user("boss", password="pw-boss-12345", is_staff=True)
    elif who != "anonymous":
        user = getattr(officials, who)
    if who != "anonymous":
        client.force_authenticate(User.objects.get(pk=user.pk))
    response = client.post("/api/ratings/laws/close/", {"period": "2025-09"}, format="json")
    assert response.status_code == status
    closed = RatingPeriod.objects.filter(pool="laws", label="2025-09").exclude(closed_at=None)
    assert closed.exists() == (status == 200)


def test_api_close_refuses_with_the_field(season) -> None:  # type: ignore[no-untyped-def]
    client = APIClient()
    client.force_authenticate(
        get_user_model().objects.create_user("boss", password="pw-boss-12345", is_staff=True)
    )
    response = client.post("/api/ratings/laws/close/", {"period": "2099-01"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"period": ["period 2099-01 is not over yet"]}
