"""The REST API and the public pages of the demo event."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tournaments.demo import DEMO_SLUG, demo_load
from tournaments.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    tournament, login, password, _ = demo_load()
    return tournament, login, password


def test_public_pages(client, demo):
    t, _, _ = demo
    for url in [
        "/",
        f"/t/{t.slug}/",
        f"/t/{t.slug}/round/1/",
        f"/t/{t.slug}/standings/",
        f"/t/{t.slug}/crosstable/",
        f"/t/{t.slug}/crosstable.csv",
        f"/t/{t.slug}/crosstable.json",
    ]:
        resp = client.get(url)
        assert resp.status_code == 200, url
    assert client.get(f"/t/{t.slug}/round/99/").status_code == 404
    assert client.get("/t/nope/standings/").status_code == 404
    page = client.get(f"/t/{t.slug}/standings/").content.decode()
    assert "Sonneborn-Berger" in page and "Kang" in page
    csv_text = client.get(f"/t/{t.slug}/crosstable.csv").content.decode()
    assert csv_text.splitlines()[0].startswith("rank,name,club,rating,R1,R2,R3,R4,score")
    # The tie-breaks by code, then today's names of the same values.
    head, first = csv_text.splitlines()[:2]
    assert head.endswith(",score,BH,SSB,WON,buchholz,sonneborn_berger,wins,withdrawn_after_round")
    cells = first.split(",")[:-1]  # the withdrawn column last
    assert cells[-6:-3] == cells[-3:]


def test_api_reads_and_standings_form(demo):
    api = APIClient()
    t, _, _ = demo
    data = api.get(f"/api/tournaments/{t.slug}/standings/").json()
    assert [row["rank"] for row in data] == list(range(1, 11))
    assert set(data[0]) == {
        "rank",
        "name",
        "score",
        "tiebreaks",
        "start_rank",
        "withdrawn_after_round",
    }
    # By FIDE code, then today's names kept as aliases of the same values.
    tbs = data[0]["tiebreaks"]
    assert list(tbs) == ["BH", "SSB", "WON", "buchholz", "sonneborn_berger", "wins"]
    assert (tbs["BH"], tbs["SSB"], tbs["WON"]) == (
        tbs["buchholz"],
        tbs["sonneborn_berger"],
        tbs["wins"],
    )
    rounds = api.get(f"/api/tournaments/{t.slug}/rounds/").json()
    assert len(rounds) == 4 and len(rounds[0]["games"]) == 5
    assert api.get("/api/players/").status_code == 200
    assert api.get("/api/clubs/").json()["count"] == 3


def test_api_result_entry_permissions_and_errors(demo):
    t, login, password = demo
    game = Game.objects.filter(round__tournament=t).first()
    api = APIClient()
    url = f"/api/games/{game.pk}/result/"
    assert api.post(url, {"result": "draw"}, format="json").status_code in (401, 403)
    stranger = get_user_model().objects.create_user("s", password="pw-stranger-2")
    api.force_authenticate(stranger)
    assert api.post(url, {"result": "draw"}, format="json").status_code == 403
    api.force_authenticate(get_user_model().objects.get(username=login))
    bad = api.post(url, {"result": "banana"}, format="json")
    assert bad.status_code == 400 and "result" in bad.json()
    ok = api.post(url, {"result": "draw"}, format="json")
    assert ok.status_code == 200 and ok.json()["result"] == "draw"
    locked = api.patch(f"/api/tournaments/{t.slug}/", {"bye_points": "0.5"}, format="json")
    assert locked.status_code == 400 and "bye_points" in locked.json()
    bad_date = api.post(
        "/api/tournaments/", {"name": "X", "slug": "x", "start_date": "soon"}, format="json"
    )
    assert bad_date.status_code == 400 and "start_date" in bad_date.json()


def test_kz_standings_json(demo, capsys):
    from django.core.management import call_command

    call_command("kz", "standings", DEMO_SLUG, "--json")
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["rank"] == 1 and isinstance(rows[0]["tiebreaks"]["wins"], int)
    scores = [r["score"] for r in rows]
    assert scores == sorted(scores, reverse=True)
    call_command("kz", "standings", DEMO_SLUG)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[-3:] == ["BH", "SSB", "WON"]
    # The last line names the codes (the one-line legend).
    assert lines[-1] == "BH Buchholz; SSB Shifted Sonneborn-Berger; WON Number of Games Won"


def test_demo_is_idempotent(demo):
    again = demo_load()
    assert again[3] is False and again[0].pk == demo[0].pk


@pytest.mark.parametrize(
    "lang,word",
    [("it", "Classifica"), ("fr", "Classement"), ("de", "Tabelle"), ("en", "Standings")],
)
def test_public_pages_in_four_languages(client, demo, lang, word):
    t, _, _ = demo
    prefix = "" if lang == "en" else f"/{lang}"
    page = client.get(f"{prefix}/t/{t.slug}/standings/")
    assert page.status_code == 200
    assert word in page.content.decode()


def test_api_withdrawal_and_bye_request(demo):
    t, login, _ = demo
    api = APIClient()
    api.force_authenticate(get_user_model().objects.get(username=login))
    player = t.registrations.first().player_id
    resp = api.post(
        f"/api/tournaments/{t.slug}/bye-requests/", {"player": player, "round": 5}, format="json"
    )
    assert resp.status_code == 201 and resp.json() == {"player": player, "round": 5}
    resp = api.post(
        f"/api/tournaments/{t.slug}/bye-requests/", {"player": player, "round": 2}, format="json"
    )
    assert resp.status_code == 409 and "round_number" in resp.json()  # round 2 is paired
    resp = api.post(f"/api/tournaments/{t.slug}/withdrawals/", {"player": player}, format="json")
    assert resp.status_code == 200 and resp.json()["status"] == "withdrawn"
    resp = api.post(f"/api/tournaments/{t.slug}/withdrawals/", {"player": 999999}, format="json")
    assert resp.status_code == 400 and "player" in resp.json()


def test_api_takes_tiebreaks_by_code_or_todays_name(demo):
    t, login, _password = demo
    api = APIClient()
    api.force_authenticate(get_user_model().objects.get(username=login))
    body = {"name": "Y", "slug": "y", "start_date": "2026-12-01"}
    made = api.post(
        "/api/tournaments/",
        {**body, "tiebreaks": "wins,BH-C1,TPR", "tiebreak_rules": "2024"},
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert (made.json()["tiebreaks"], made.json()["tiebreak_rules"]) == ("WON,BH-C1,TPR", "2024")
    bad = api.patch("/api/tournaments/y/", {"tiebreaks": "BH,XYZ"}, format="json")
    assert bad.status_code == 400 and "XYZ" in str(bad.json()["tiebreaks"])
    rules = api.patch("/api/tournaments/y/", {"tiebreak_rules": "1999"}, format="json")
    assert rules.status_code == 400 and "tiebreak_rules" in rules.json()
