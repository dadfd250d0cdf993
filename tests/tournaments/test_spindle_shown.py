"""Art. 2.3 with spindle placement: the cast is computed from the recorded seed and shown on
the pairings, the game page and the API (casts, option, who chose what); the first placer
follows it, and a declared choice recorded by the arbiter moves it."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Game
from tournaments.pairing import spindle_cast

pytestmark = pytest.mark.django_db


def _event(slug: str, *, ruleset: str = "laws", players: int = 6):
    arbiter = get_user_model().objects.create_user(f"arb-{slug}", password="pw-arbiter-1")
    t = services.tournament_create(
        name=slug.title(),
        slug=slug,
        start_date=date(2026, 6, 1),
        ruleset=ruleset,
        placement_order="spindle",
        rounds_planned=3,
    )
    t.arbiters.add(arbiter)
    for i in range(players):
        services.registration_create(
            tournament=t, player=services.player_create(name=f"Kor{i}", rating=2000 - i)
        )
    api = APIClient()
    api.force_authenticate(arbiter)
    resp = api.post(f"/api/tournaments/{slug}/pair/", {"publish": True}, format="json")
    assert resp.status_code in (200, 201), resp.content
    return t, api


def _games(api: APIClient, slug: str) -> list[dict]:
    rounds = api.get(f"/api/tournaments/{slug}/rounds/").json()
    return [g for g in rounds[-1]["games"] if g["kind"] == "game"]


def test_the_api_shows_the_cast_and_the_first_placer_follows_it():
    _, api = _event("spindle-api")
    games = _games(api, "spindle-api")
    assert len(games) == 3
    for g in games:
        s = g["spindle"]
        # Anyone can cast again from the seed and find the same values.
        cast = spindle_cast(s["seed"], "2.3")
        assert s["casts"] == [list(p) for p in cast.casts]
        a, b = s["casts"][-1]
        assert a != b and all(x == y for x, y in s["casts"][:-1])  # ties recast
        assert set(s["casters"]) == {g["first"], g["second"]}
        assert s["option"] == s["casters"][0 if a > b else 1]
        # Art. 2.3's honour, assumed until a choice is declared: the winner grants the option
        # and the one granted takes first placement.
        other = next(p for p in s["casters"] if p != s["option"])
        assert s["granted"] is True and s["chooser"] == other and s["choice"] == "first"
        assert s["first_placer"] == other == g["first"]


def test_a_declared_choice_moves_the_first_placer_and_is_audited():
    t, api = _event("spindle-choice")
    g = _games(api, "spindle-choice")[0]
    s = g["spindle"]
    url = f"/api/games/{g['id']}/spindle-choice/"
    # The option holder keeps the option and takes last placement: the other places first.
    resp = api.post(url, {"chooser": s["option"], "placement": "last"}, format="json")
    assert resp.status_code == 200, resp.content
    after = resp.json()
    other = next(p for p in s["casters"] if p != s["option"])
    assert after["spindle"]["granted"] is False and after["spindle"]["choice"] == "last"
    assert after["first"] == after["spindle"]["first_placer"] == other
    # Taking first placement puts the option holder first.
    resp = api.post(url, {"chooser": s["option"], "placement": "first"}, format="json")
    assert resp.json()["first"] == s["option"] and resp.json()["second"] == other
    entry = t.audit.filter(action="game.spindle_choice").last()
    assert entry.after["chooser"] == s["option"] and entry.after["article"] == "2.3"
    # Bad input and a stranger to the game are refused with 400.
    bad = api.post(url, {"chooser": s["option"], "placement": "grant"}, format="json")
    assert bad.status_code == 400
    stranger = services.player_create(name="Stranger")
    bad = api.post(url, {"chooser": stranger.pk, "placement": "first"}, format="json")
    assert bad.status_code == 400 and "combatants" in str(bad.json())
    # Once the battle has a result, the placement order stands (409).
    assert api.post(f"/api/games/{g['id']}/result/", {"result": "first_win"}).status_code == 200
    late = api.post(url, {"chooser": other, "placement": "first"}, format="json")
    assert late.status_code == 409


def test_pages_show_cast_chooser_and_choice(client):
    t, api = _event("spindle-pages", players=2)
    g = _games(api, "spindle-pages")[0]
    s = g["spindle"]
    game = Game.objects.select_related("first", "second").get(pk=g["id"])
    names = {game.first_id: game.first.name, game.second_id: game.second.name}
    cast_text = "; ".join(f"{x}–{y}" for x, y in s["casts"])
    round_page = client.get(f"/t/{t.slug}/round/1/").content.decode()
    assert cast_text in round_page
    assert f"option {names[s['option']]}" in round_page
    assert f"{names[s['chooser']]} chose first" in round_page
    game_page = client.get(f"/g/{game.pk}/").content.decode()
    assert 'id="spindle"' in game_page and s["seed"] in game_page
    assert f"{names[s['option']]} has the option" in game_page
    assert f"{names[s['chooser']]} chooses to place first" in game_page
    assert f"{names[s['first_placer']]} places first" in game_page


def test_the_italian_society_has_the_higher_cast_place_first_without_a_choice():
    _, api = _event("spindle-italia", ruleset="italian-society", players=4)
    for g in _games(api, "spindle-italia"):
        s = g["spindle"]
        assert s["chooser"] is None and s["granted"] is False
        assert g["first"] == s["option"] == s["first_placer"]
        resp = api.post(
            f"/api/games/{g['id']}/spindle-choice/",
            {"chooser": s["option"], "placement": "last"},
            format="json",
        )
        assert resp.status_code == 400 and "higher cast places first" in str(resp.json())


def test_a_balanced_event_has_no_cast():
    arbiter = get_user_model().objects.create_user("arb-bal", password="pw-arbiter-1")
    t = services.tournament_create(name="Bal", slug="bal", start_date=date(2026, 6, 1))
    t.arbiters.add(arbiter)
    for i in range(2):
        services.registration_create(tournament=t, player=services.player_create(name=f"B{i}"))
    rnd = services.round_pair(tournament=t, user=arbiter)
    services.round_publish(round=rnd, user=arbiter) if rnd.status == "draft" else None
    game = rnd.games.get(kind="game")
    api = APIClient()
    assert api.get(f"/api/games/{game.pk}/").json()["spindle"] is None
