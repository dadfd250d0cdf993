"""Pairing is refused with a reason (HTTP 409) when the event cannot have the next round:
a result pending, fewer than two players, no pairing within the hard rules; no empty round
is ever stored; a round with no result can be taken back. Through the API and `kz pair`."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.test import APIClient

from klinzha_site.errors import Conflict
from tournaments import services
from tournaments.models import Game, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def arbiter():
    return get_user_model().objects.create_user("arb", password="pw-arbiter-1", is_staff=True)


def event(n: int, slug: str, **fields) -> Tournament:
    t = services.tournament_create(
        name=slug, slug=slug, start_date=date(2026, 11, 1), rounds_planned=5, **fields
    )
    for i in range(n):
        p = services.player_create(name=f"Warrior {i + 1}", rating=2000 - 10 * i)
        services.registration_create(tournament=t, player=p)
    return t


def pair(api: APIClient, t: Tournament, **body):
    return api.post(f"/api/tournaments/{t.slug}/pair/", {"publish": True, **body}, format="json")


def results_all(t: Tournament, result: str = "first_win") -> None:
    for g in Game.objects.filter(round__tournament=t, kind=Game.Kind.GAME, result=""):
        services.game_result_set(game=g, result=result)


def test_a_pending_result_blocks_the_next_round_and_names_the_boards(arbiter):
    t = event(4, "pending")
    api = APIClient()
    api.force_authenticate(arbiter)
    assert pair(api, t).status_code == 201
    first = Game.objects.get(round__tournament=t, board=1)
    services.game_result_set(game=first, result="draw")
    resp = pair(api, t)
    assert resp.status_code == 409
    message = resp.json()["round"][0]
    assert "round 1 has no result yet on board 2 (Warrior 2 – Warrior 4)" in message
    assert "board 1" not in message
    assert t.rounds.count() == 1
    results_all(t)
    assert pair(api, t).status_code == 201


def test_an_unconfirmed_result_is_pending_under_two_person_confirmation(arbiter):
    t = event(2, "confirm", result_confirmation=True)
    services.round_pair(tournament=t)
    game = Game.objects.get(round__tournament=t)
    services.game_result_set(game=game, result="first_win", user=arbiter)
    with pytest.raises(Conflict) as e:
        services.round_pair(tournament=t)
    assert "enter or confirm" in e.value.messages[0]


def test_fewer_than_two_players_is_refused_and_nothing_is_stored(arbiter):
    api = APIClient()
    api.force_authenticate(arbiter)
    empty = event(0, "empty")
    resp = pair(api, empty)
    assert resp.status_code == 409 and "0 active players" in resp.json()["round"][0]
    alone = event(1, "alone")
    resp = pair(api, alone)
    assert resp.status_code == 409 and "1 active player for round 1" in resp.json()["round"][0]
    assert not Round.objects.exists()
    # the settings stay open: no round was stored
    t = services.tournament_update(tournament=alone, bye_points=0)
    assert t.bye_points == 0


def test_an_exhausted_field_is_refused_with_what_the_arbiter_can_do(arbiter):
    t = event(4, "exhausted")
    api = APIClient()
    api.force_authenticate(arbiter)
    for _ in range(3):
        assert pair(api, t).status_code == 201
        results_all(t)
    resp = pair(api, t)
    assert resp.status_code == 409
    message = resp.json()["round"][0]
    assert "round 4 cannot be paired: no pairing without a rematch exists" in message
    assert "end the event after round 3" in message
    assert t.rounds.count() == 3 and not Round.objects.filter(number=4).exists()


@pytest.mark.parametrize("planned", [3, 5])
def test_a_complete_round_robin_says_so_whatever_the_planned_rounds(arbiter, planned):
    t = event(4, f"rr-done-{planned}", pairing_system="round_robin")
    Tournament.objects.filter(pk=t.pk).update(rounds_planned=planned)
    api = APIClient()
    api.force_authenticate(arbiter)
    for _ in range(3):
        assert pair(api, t).status_code == 201
        results_all(t)
    resp = pair(api, t)
    assert resp.status_code == 409
    message = resp.json()["round"][0]
    assert "the round robin is complete: its table has 3 rounds" in message
    assert "raise the number of rounds" not in message  # raising them would not help
    assert t.rounds.count() == 3


def test_the_same_club_rule_that_blocks_is_named(arbiter):
    t = event(2, "one-club", forbid_same_club=True)
    club = services.club_create(name="House of Mogh")
    for reg in t.registrations.select_related("player"):
        reg.player.club = club
        reg.player.save()
    api = APIClient()
    api.force_authenticate(arbiter)
    resp = pair(api, t)
    assert resp.status_code == 409
    assert "turn off forbid same club" in resp.json()["round"][0]
    assert not t.rounds.exists()


def test_no_empty_round_is_stored():
    t = event(2, "no-empty")
    with pytest.raises(Conflict):
        services.round_create(tournament=t, pairings=[], status=Round.Status.DRAFT)
    assert not t.rounds.exists()


def test_a_round_without_results_is_taken_back_and_paired_again(arbiter):
    t = event(4, "take-back")
    api = APIClient()
    api.force_authenticate(arbiter)
    assert pair(api, t).status_code == 201
    url = f"/api/tournaments/{t.slug}/"
    resp = api.post(url + "unpublish/", {"round": 1}, format="json")
    assert resp.status_code == 200 and resp.json() == {"round": 1, "status": "draft"}
    assert api.post(url + "discard/", {"round": 1}, format="json").json() == {"discarded": 1}
    assert pair(api, t).status_code == 201
    game = Game.objects.get(round__tournament=t, board=1)
    services.game_result_set(game=game, result="draw")
    resp = api.post(url + "unpublish/", {"round": 1}, format="json")
    assert resp.status_code == 409 and "results on board 1" in resp.json()["round"][0]
    assert t.rounds.get().status == Round.Status.PUBLISHED
    other = get_user_model().objects.create_user("other", password="pw-other-123")
    api.force_authenticate(other)
    assert api.post(url + "unpublish/", {"round": 1}, format="json").status_code == 403


def test_kz_pair_says_why_in_json_and_exits_1(capsys):
    t = event(1, "kz-alone")
    with pytest.raises(SystemExit) as e:
        call_command("kz", "pair", t.slug, "--json")
    assert e.value.code == 1
    out = json.loads(capsys.readouterr().out)
    assert "1 active player for round 1" in out["error"]
