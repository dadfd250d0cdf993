"""Seeding (issue 12): start ranks follow the rating kept on each registration (then name),
the arbiter re-ranks until round 1 is paired, and the start rank shows in the registrations
API, the standings, the crosstable and the TRF."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.test import APIClient

from tournaments import selectors, services
from tournaments.models import Game, Player, Registration, Tournament
from tournaments.trf_export import tournament_trf

pytestmark = pytest.mark.django_db

RATINGS = [("Kor", 1700), ("Worf", 2000), ("Martok", 1900), ("Gowron", 1500), ("Kang", 1900)]


@pytest.fixture
def api():
    client = APIClient()
    user = get_user_model().objects.create_user("arb", password="pw-arbiter-1", is_staff=True)
    client.force_authenticate(user)
    return client


def event(slug: str, **fields) -> Tournament:
    t = services.tournament_create(
        name=slug, slug=slug, start_date=date(2026, 11, 1), rounds_planned=3, **fields
    )
    for name, rating in RATINGS:
        services.registration_create(
            tournament=t, player=services.player_create(name=name, rating=rating)
        )
    return t


def ranks(t: Tournament) -> list[str]:
    return [r.player.name for r in selectors.entrant_list(tournament=t)]


def test_start_ranks_follow_rating_then_name_whatever_the_registration_order(api):
    t = event("seeded")
    assert ranks(t) == ["Worf", "Kang", "Martok", "Kor", "Gowron"]
    rows = api.get(f"/api/tournaments/{t.slug}/registrations/").json()
    assert [(r["name"], r["start_rank"], r["rating"]) for r in rows] == [
        ("Worf", 1, 2000),
        ("Kang", 2, 1900),
        ("Martok", 3, 1900),
        ("Kor", 4, 1700),
        ("Gowron", 5, 1500),
    ]


def test_round_1_pairs_top_half_against_bottom_half_and_gives_the_bye_to_the_lowest(api):
    t = event("round-one", placement_order="balanced")
    resp = api.post(f"/api/tournaments/{t.slug}/pair/", {"publish": True}, format="json")
    assert resp.status_code == 201
    games = Game.objects.filter(round__tournament=t).select_related("first", "second")
    bye = games.get(kind=Game.Kind.BYE)
    assert bye.first.name == "Gowron"  # the lowest rated, not the last registered
    pairs = {frozenset({g.first.name, g.second.name}) for g in games if g.second}
    assert pairs == {frozenset({"Worf", "Martok"}), frozenset({"Kang", "Kor"})}


def test_the_rating_is_a_snapshot_per_event():
    t = event("snapshot")
    worf = Player.objects.get(name="Worf")
    worf.rating = 1000
    worf.save()
    assert Registration.objects.get(tournament=t, player=worf).rating == 2000
    assert ranks(t)[0] == "Worf"
    later = services.tournament_create(name="Later", slug="later", start_date=date(2026, 12, 1))
    for player in Player.objects.all():
        services.registration_create(tournament=later, player=player)
    assert ranks(later)[-1] == "Worf"  # a new event seeds by today's rating


def test_the_arbiter_moves_and_re_sorts_until_round_1(api):
    t = event("moves")
    gowron = Player.objects.get(name="Gowron")
    url = f"/api/tournaments/{t.slug}/start-ranks/"
    rows = api.post(url, {"player": gowron.pk, "rank": 1}, format="json").json()
    assert [r["name"] for r in rows] == ["Gowron", "Worf", "Kang", "Martok", "Kor"]
    # a newcomer goes by rating among the order set by hand
    services.registration_create(
        tournament=t, player=services.player_create(name="Koloth", rating=1800)
    )
    assert ranks(t) == ["Gowron", "Worf", "Kang", "Martok", "Koloth", "Kor"]
    assert api.post(url, {"player": gowron.pk, "rank": 9}, format="json").status_code == 400
    rows = api.post(url, {"sort": True}, format="json").json()
    assert [r["name"] for r in rows] == ["Worf", "Kang", "Martok", "Koloth", "Kor", "Gowron"]
    assert t.audit.filter(action="start_ranks").count() == 2
    services.round_pair(tournament=t)
    resp = api.post(url, {"sort": True}, format="json")
    assert resp.status_code == 409 and "round 1 is paired" in str(resp.json())


def test_a_late_entry_is_ranked_below_everyone():
    t = event("late")
    services.round_pair(tournament=t)
    late = services.registration_create(
        tournament=t, player=services.player_create(name="Kurn", rating=2500)
    )
    assert late.start_rank == 6 and late.first_round == 2


def test_an_entrant_without_a_start_rank_neither_blocks_nor_moves_with_a_newcomer():
    # The admin's registration inline leaves start_rank blank when not given one.
    t = event("unranked")
    blank = Registration.objects.create(
        tournament=t, player=services.player_create(name="Kahless", rating=1800), rating=1800
    )
    newcomer = services.registration_create(
        tournament=t, player=services.player_create(name="Koloth", rating=1800)
    )
    # Ahead of Koloth: Worf 1, Kang and Martok 2-3 (1900) and Kahless (1800, before Koloth by
    # name), who has no rank to count: Koloth takes 4, Kor and Gowron move down one each.
    assert newcomer.start_rank == 4
    blank.refresh_from_db()
    assert blank.start_rank is None
    assert dict(t.registrations.values_list("player__name", "start_rank")) == {
        "Worf": 1,
        "Kang": 2,
        "Martok": 3,
        "Koloth": 4,
        "Kor": 5,
        "Gowron": 6,
        "Kahless": None,
    }


def test_start_rank_in_standings_crosstable_and_trf(api, capsys):
    t = event("exports")
    rows = api.get(f"/api/tournaments/{t.slug}/standings/").json()
    assert {r["name"]: r["start_rank"] for r in rows}["Worf"] == 1
    call_command("kz", "standings", t.slug, "--json")  # the spec's shape stays as it is
    assert set(json.loads(capsys.readouterr().out)[0]) == {"rank", "name", "score", "tiebreaks"}
    table = selectors.crosstable_json(tournament=t)
    assert {r["name"]: r["start_rank"] for r in table["rows"]}["Gowron"] == 5
    trf = tournament_trf(tournament=t)
    lines = [line for line in trf.splitlines() if line.startswith("001")]
    assert lines[0][4:8].strip() == "1" and "Worf" in lines[0]
