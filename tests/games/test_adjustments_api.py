"""Clock adjustments in time through the REST API (issue 13 item 2): list, add and revoke,
who may, the audit trail, readings before an adjustment's ply or moment untouched, penalties
of time from a ply, latecomers not charged twice (Art. 6.8, 6.9), both flags (6.14)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.models import RecordSubmission
from rules.record import write_record
from tests.rules.test_clock import record
from tests.tournaments.services.factories import Officials, event_make, officials_make, round_make
from tournaments.models import Game, Round

pytestmark = pytest.mark.django_db
START = timezone.make_aware(datetime(2026, 11, 22, 10, 0, 0))
TC = "20/1800:1200"


@pytest.fixture
def officials() -> Officials:
    return officials_make()


@pytest.fixture
def game(officials: Officials) -> Game:
    """Ann (first, green) - Bob (gold) of round 1 under 20/1800:1200."""
    t, (a, b, c, d) = event_make(officials, time_control=TC)
    return round_make(t, [(a, b), (c, d)]).games.get(board=1)


def api(user: object = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def submit(game: Game, user: object, clocks: dict[int, str], **tags: str) -> RecordSubmission:
    text = write_record(record(TC, clocks, **tags))
    resp = api(user).post(f"/api/games/{game.pk}/records/", {"text": text}, format="json")
    assert resp.status_code == 201, resp.content
    return judged(game)


def judged(game: Game) -> RecordSubmission:
    """The latest record as the worker leaves it (validated here: no broker in these tests)."""
    latest = RecordSubmission.objects.filter(game=game).order_by("-version").first()
    assert latest is not None
    return services.submission_validate(submission_id=latest.pk)


def clock(game: Game) -> tuple[str | None, str | None, str | None]:
    resp = api().get(f"/api/records/{judged(game).pk}/")
    c = resp.json()["clock"]
    return c["decision"], c["loser"], c["article"]


def adjustments_url(game: Game) -> str:
    return f"/api/games/{game.pk}/clock-adjustments/"


def test_an_adjustment_leaves_the_readings_before_its_ply(officials, game):
    # gold has 8 s after ply 22 and 40 s after ply 26
    submit(game, officials.arbiter, {22: "0:00:08", 26: "0:00:40"})
    assert clock(game) == (None, None, None)
    body = {"side": "gold", "seconds": -10, "article": "6.13", "from_ply": 26, "reason": "x"}
    resp = api(officials.arbiter).post(adjustments_url(game), body, format="json")
    assert resp.status_code == 201, resp.content
    assert (resp.json()["from_ply"], resp.json()["in_readings"]) == (26, False)
    assert clock(game) == (None, None, None)  # 40 - 10 = 30 s at ply 26; 8 s at ply 22
    # the same from ply 1 would flag gold at ply 22
    body["from_ply"] = 1
    early = api(officials.arbiter).post(adjustments_url(game), body, format="json").json()
    assert clock(game) == ("time", "gold", "6.5")
    # revoked: listed with who and why, no longer counted
    url = f"{adjustments_url(game)}{early['id']}/revoke/"
    resp = api(officials.arbiter).post(url, {"reason": "wrong ply"}, format="json")
    assert resp.status_code == 200 and resp.json()["revoked_by"] == "arbiter"
    assert clock(game) == (None, None, None)
    again = api(officials.arbiter).post(url, {"reason": "twice"}, format="json")
    assert again.status_code == 409
    listed = api().get(adjustments_url(game)).json()
    assert [(a["from_ply"], a["seconds"], a["revoke_reason"]) for a in listed] == [
        (26, -10, ""),
        (1, -10, "wrong ply"),
    ]
    actions = list(game.round.tournament.audit.values_list("action", "after"))
    adds = [a for name, a in actions if name == "game.clock_adjustment"]
    assert [(a["from_ply"], a["seconds"], a["article"]) for a in adds] == [
        (26, -10, "6.13"),
        (1, -10, "6.13"),
    ]
    revoked = [a for name, a in actions if name == "game.clock_adjustment_revoked"]
    assert revoked == [{"reason": "wrong ply"}]


def test_a_moment_applies_from_the_first_reading_after_it(officials, game):
    Round.objects.filter(pk=game.round_id).update(starts_at=START)
    # the clocks' used time puts the readings at 60, 1800, 1860, 1870 and 1920 s after the
    # start; gold's flag fell at ply 26
    readings = {19: "0:29:00", 20: "0:01:00", 21: "0:28:00", 22: "0:00:50", 26: "0:00:00"}
    submit(game, officials.arbiter, readings)
    assert clock(game) == ("time", "gold", "6.5")
    late = START + timedelta(seconds=1950)  # after every reading: changes none
    body = {"side": "gold", "seconds": 60, "article": "12.5", "at": late.isoformat()}
    resp = api(officials.arbiter).post(adjustments_url(game), body, format="json")
    assert resp.status_code == 201, resp.content
    assert clock(game) == ("time", "gold", "6.5")
    # a minute for a disturbance noted 1900 s in: from ply 26's reading on, gold's flag holds
    body["at"] = (START + timedelta(seconds=1900)).isoformat()
    resp = api(officials.arbiter).post(adjustments_url(game), body, format="json")
    assert resp.status_code == 201
    assert clock(game) == (None, None, None)


def test_bad_adjustments_are_refused_with_the_reason(officials, game):
    arbiter = api(officials.arbiter)
    body = {"side": "gold", "seconds": 60, "article": "12.5"}
    resp = arbiter.post(adjustments_url(game), body, format="json")
    assert resp.status_code == 400 and "from_ply" in resp.json()
    resp = arbiter.post(adjustments_url(game), {**body, "at": START.isoformat()}, format="json")
    assert resp.status_code == 400 and "scheduled start" in str(resp.json()["at"])
    resp = arbiter.post(adjustments_url(game), {**body, "from_ply": 0}, format="json")
    assert resp.status_code == 400
    resp = arbiter.post(adjustments_url(game), {**body, "article": "9.9", "from_ply": 2})
    assert resp.status_code == 400 and "article" in resp.json()
    other = Game.objects.exclude(pk=game.pk).first()
    made = arbiter.post(adjustments_url(other), {**body, "from_ply": 2}, format="json").json()
    url = f"{adjustments_url(game)}{made['id']}/revoke/"
    assert arbiter.post(url, {"reason": "x"}, format="json").status_code == 404
    assert game.clock_adjustments.count() == 0


@pytest.mark.parametrize("who", ["anonymous", "stranger", "player"])
def test_only_the_events_arbiters_adjust_clocks(officials, game, who):
    from django.contrib.auth import get_user_model

    users = {
        "anonymous": None,
        "stranger": officials.stranger,
        "player": get_user_model().objects.create_user("ann", password="pw-ann-12345"),
    }
    game.first.user = users["player"]
    game.first.save()
    body = {"side": "green", "seconds": 60, "article": "12.5", "from_ply": 3}
    resp = api(users[who]).post(adjustments_url(game), body, format="json")
    assert resp.status_code in (401, 403)
    made = services.clock_adjustment_add(
        game=game, side="green", seconds=30, article="6.12", from_ply=1, user=officials.arbiter
    )
    url = f"{adjustments_url(game)}{made.pk}/revoke/"
    assert api(users[who]).post(url, {"reason": "x"}, format="json").status_code in (401, 403)
    late = {"scheduled": START.isoformat(), "green_arrival": (START + timedelta(minutes=5))}
    resp = api(users[who]).post(f"/api/games/{game.pk}/latecomers/", late, format="json")
    assert resp.status_code in (401, 403)
    # the list is public, as on the game's page
    assert [a["id"] for a in api(users[who]).get(adjustments_url(game)).json()] == [made.pk]
    assert game.clock_adjustments.filter(revoked_at__isnull=True).count() == 1


def test_a_penalty_of_time_applies_from_its_ply(officials, game):
    submit(game, officials.arbiter, {22: "0:00:08", 26: "0:00:40"})
    t = game.round.tournament
    penalty = {
        "player": game.second_id,  # Bob, gold
        "game": game.pk,
        "kind": "offender_time",
        "amount": "10",
        "reason": "noise after ply 25",
        "from_ply": 26,
    }
    resp = api(officials.arbiter).post(f"/api/tournaments/{t.slug}/penalties/", penalty)
    assert resp.status_code == 201, resp.content
    listed = api().get(adjustments_url(game)).json()
    assert [(a["side"], a["seconds"], a["from_ply"], a["penalty"]) for a in listed] == [
        ("gold", -10, 26, resp.json()["id"])
    ]
    assert clock(game) == (None, None, None)  # ply 22's 8 s untouched
    # its adjustment is revoked with the penalty, from the same ply
    url = f"{adjustments_url(game)}{listed[0]['id']}/revoke/"
    assert api(officials.arbiter).post(url, {"reason": "x"}, format="json").status_code == 409
    body = {"penalty": resp.json()["id"], "reason": "mistaken"}
    revoked = api(officials.arbiter).post(f"/api/tournaments/{t.slug}/revocations/", body)
    assert revoked.status_code == 201
    listed = api().get(adjustments_url(game)).json()
    assert [(a["seconds"], a["from_ply"]) for a in listed] == [(-10, 26), (10, 26)]
    # a ply for a penalty that does not touch a clock is refused
    del penalty["amount"]
    penalty["kind"] = "warning"
    bad = api(officials.arbiter).post(f"/api/tournaments/{t.slug}/penalties/", penalty)
    assert bad.status_code == 400 and "from_ply" in bad.json()


def test_a_penalty_without_a_ply_applies_from_the_moment_imposed(officials, game):
    Round.objects.filter(pk=game.round_id).update(starts_at=START)
    t = game.round.tournament
    penalty = {
        "player": game.second_id,
        "game": game.pk,
        "kind": "offender_time",
        "amount": "10",
        "reason": "noise",
    }
    resp = api(officials.arbiter).post(f"/api/tournaments/{t.slug}/penalties/", penalty)
    assert resp.status_code == 201
    (adj,) = api().get(adjustments_url(game)).json()
    assert adj["at"] is not None and adj["from_ply"] == 1
    # imposed now, long after these readings (1870 s in): none of them changes
    submit(game, officials.arbiter, {19: "0:29:00", 20: "0:01:00", 21: "0:28:00", 22: "0:00:05"})
    assert clock(game) == (None, None, None)


def test_a_latecomer_is_not_charged_twice(officials, game):
    # green came 3 minutes late; its clock ran meanwhile and shows 2 minutes at ply 25
    submit(game, officials.arbiter, {25: "0:02:00"})
    late = {"scheduled": START.isoformat(), "green_arrival": START + timedelta(minutes=3)}
    resp = api(officials.arbiter).post(f"/api/games/{game.pk}/latecomers/", late, format="json")
    assert resp.status_code == 201, resp.content
    assert [(a["side"], a["seconds"], a["article"], a["in_readings"]) for a in resp.json()] == [
        ("green", -180, "6.8", True)
    ]
    assert clock(game) == (None, None, None)
    again = api(officials.arbiter).post(f"/api/games/{game.pk}/latecomers/", late, format="json")
    assert again.status_code == 400
    actions = game.round.tournament.audit.filter(action="game.clock_adjustment")
    assert [a.after["in_readings"] for a in actions] == [True]
    # a mistaken arrival: the charge is revoked and the latecomers recorded anew
    url = f"{adjustments_url(game)}{resp.json()[0]['id']}/revoke/"
    revoked = api(officials.arbiter).post(url, {"reason": "it was 2 minutes"}, format="json")
    assert revoked.status_code == 200
    late["green_arrival"] = START + timedelta(minutes=2)
    again = api(officials.arbiter).post(f"/api/games/{game.pk}/latecomers/", late, format="json")
    assert again.status_code == 201 and again.json()[0]["seconds"] == -120
    trail = api(officials.arbiter).get(f"/api/tournaments/{game.round.tournament.slug}/audit/")
    objects = {e["object"] for e in trail.json() if e["action"].startswith("game.clock")}
    assert objects == {"round 1 board 1 (Ann – Bob)"}


@pytest.mark.parametrize(("running", "flagged"), [("green", "gold"), ("gold", None)])
def test_double_latecomers_adjust_the_clock_that_did_not_run(officials, game, running, flagged):
    # green 2 minutes late, gold 5; gold shows 1:50 at ply 22
    submit(game, officials.arbiter, {22: "0:01:50"})
    late = {
        "scheduled": START.isoformat(),
        "green_arrival": START + timedelta(minutes=2),
        "gold_arrival": START + timedelta(minutes=5),
        "running": running,
    }
    resp = api(officials.arbiter).post(f"/api/games/{game.pk}/latecomers/", late, format="json")
    assert resp.status_code == 201, resp.content
    made = [(a["side"], a["seconds"], a["in_readings"]) for a in resp.json()]
    charged = {s: sum(x for side, x, _ in made if side == s) for s in ("green", "gold")}
    assert charged == {"green": -120, "gold": -300}  # each their own lateness, once
    # the clock that ran holds its charge; the other is adjusted by the 2 minutes
    # both were away
    adjusted = [(side, x) for side, x, held in made if not held]
    assert adjusted == [("gold" if running == "green" else "green", -120)]
    assert clock(game)[1] == flagged


def test_both_flags_as_art_6_14_says(officials, game):
    submit(game, officials.arbiter, {}, Flag="both")
    assert clock(game) == ("continue", None, "6.14")
    # noted during ply 22, gold's: gold's flag fell first
    submit(game, officials.arbiter, {}, Flag="both", FlagPly="22")
    assert clock(game) == ("time", "gold", "6.5")
    submit(game, officials.arbiter, {}, Flag="both", FlagPly="25")
    assert clock(game) == ("time", "green", "6.5")
