"""The engine's readings (docs/rules.md, Readings) as an event meets them through the REST
API: a record is validated under the event's variants, so its readings decide the verdict."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.models import RecordSubmission
from tests.games.conftest import CAPTURE, done
from tournaments import services
from tournaments.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

# The example battle's setup: green's Fencer is placed on C29, its Lancer on C17.
SETUP = CAPTURE.decode().split("Fl@E49")[0].replace("G→C17\nG→G35\n", "")


def _clouded_game():
    arbiter = get_user_model().objects.create_user("arbiter-clouds", password="pw-clouds-1")
    t = services.tournament_create(
        name="Clouded Open",
        slug="clouded-open",
        start_date=date(2026, 7, 1),
        variants="clouded",
        clouds="C29",
        rounds_planned=1,
    )
    t.arbiters.add(arbiter)
    for name in ("Kor", "Kang"):
        services.registration_create(tournament=t, player=services.player_create(name=name))
    api = APIClient()
    api.force_authenticate(arbiter)
    assert api.post(f"/api/tournaments/{t.slug}/pair/", {"publish": True}).status_code in (200, 201)
    return api, Game.objects.get(round__tournament=t, kind=Game.Kind.GAME)


def _submit(api: APIClient, game: Game, goals: str) -> dict:
    text = SETUP.replace(
        '[Ruleset "laws"]', '[Ruleset "laws"]\n[Variants "clouded"]\n[Clouds "C29"]'
    )
    text = text.replace('[Result "green"]', '[Result "*"]') + goals
    resp = api.post(f"/api/games/{game.pk}/records/", {"text": text}, format="json")
    assert resp.status_code == 201, resp.content
    done(RecordSubmission.objects.get(pk=resp.json()["id"]))
    return api.get(f"/api/records/{resp.json()['id']}/").json()


def test_no_goal_is_placed_on_a_carrier_standing_in_a_cloud(worker):
    api, game = _clouded_game()
    refused = _submit(api, game, "G→C29\n")
    assert refused["valid"] is False
    assert refused["error"]["ply"] == 19 and refused["error"]["article"] == "13.4"
    assert "cloud" in refused["error"]["reason"]
    # The same setup with the Goal on the Lancer, outside the cloud, is a valid record.
    accepted = _submit(api, game, "G→C17\nG→G35\n")
    assert accepted["valid"] is True, accepted["error"]
