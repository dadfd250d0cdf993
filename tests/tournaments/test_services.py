"""Tournament services and selectors on the database: scoring, locks, byes, withdrawals."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError

from tournaments import selectors, services
from tournaments.models import Game, Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def arbiter():
    return get_user_model().objects.create_user("arb", password="pw-arbiter-1")


@pytest.fixture
def event(arbiter):
    t = services.tournament_create(
        name="Test Open", slug="test-open", start_date=date(2026, 11, 1), rounds_planned=3
    )
    t.arbiters.add(arbiter)
    players = [
        services.player_create(name=n, rating=r)
        for n, r in [("Ann", 1600), ("Bob", 1500), ("Cid", 1400)]
    ]
    for p in players:
        services.registration_create(tournament=t, player=p, user=arbiter)
    return t, players


def test_draw_is_minus_half_for_both_and_bye_scores_one(event, arbiter):
    t, (a, b, c) = event
    rnd = services.round_create(tournament=t, pairings=[(a.pk, b.pk), (c.pk, None)], user=arbiter)
    game = rnd.games.get(board=1)
    services.game_result_set(game=game, result=Game.Result.DRAW, user=arbiter)
    rows = {r.entrant.name: r.score for r in selectors.standings_compute(tournament=t)}
    assert rows == {"Ann": -0.5, "Bob": -0.5, "Cid": 1.0}


def test_standings_recomputed_after_every_result(event, arbiter):
    t, (a, b, c) = event
    rnd = services.round_create(tournament=t, pairings=[(a.pk, b.pk), (c.pk, None)], user=arbiter)
    game = rnd.games.get(board=1)
    assert selectors.standings_compute(tournament=t)[0].entrant.name == "Cid"
    services.game_result_set(game=game, result=Game.Result.FIRST_WIN, user=arbiter)
    scores = {r.entrant.name: r.score for r in selectors.standings_compute(tournament=t)}
    assert scores["Ann"] == 1 and scores["Bob"] == 0
    services.game_result_set(game=game, result=Game.Result.SECOND_WIN, user=arbiter)
    scores = {r.entrant.name: r.score for r in selectors.standings_compute(tournament=t)}
    assert scores["Ann"] == 0 and scores["Bob"] == 1


def test_result_settings_lock_after_round_one(event, arbiter):
    t, (a, b, c) = event
    chief = get_user_model().objects.create_user("chief", password="pw-chief-1")
    t.chief_arbiter = chief
    t.save()
    with pytest.raises(PermissionDenied):  # settings are the chief arbiter's
        services.tournament_update(tournament=t, user=arbiter, bye_points=0)
    services.tournament_update(tournament=t, user=chief, bye_points=0)
    services.round_create(tournament=t, pairings=[(a.pk, b.pk), (c.pk, None)], user=arbiter)
    with pytest.raises(ValidationError) as e:
        services.tournament_update(tournament=t, user=chief, bye_points=1)
    assert "bye_points" in e.value.message_dict
    services.tournament_update(tournament=t, user=chief, venue="New hall")  # not locked


def test_only_arbiters_write(event):
    t, (a, b, c) = event
    stranger = get_user_model().objects.create_user("x", password="pw-stranger-1")
    with pytest.raises(PermissionDenied):
        services.round_create(tournament=t, pairings=[(a.pk, b.pk)], user=stranger)


def test_paired_twice_and_too_many_rounds(event, arbiter):
    t, (a, b, c) = event
    with pytest.raises(ValidationError):
        services.round_create(tournament=t, pairings=[(a.pk, b.pk), (a.pk, c.pk)], user=arbiter)
    for _ in range(3):
        services.round_create(tournament=t, pairings=[(a.pk, b.pk)], user=arbiter)
    with pytest.raises(ValidationError):
        services.round_create(tournament=t, pairings=[(a.pk, b.pk)], user=arbiter)


def test_late_entry_withdrawal_and_requested_bye(event, arbiter):
    t, (a, b, c) = event
    reg_c = Registration.objects.get(tournament=t, player=c)
    services.bye_request_create(registration=reg_c, round_number=1, user=arbiter)
    services.round_create(
        tournament=t, pairings=[(a.pk, b.pk)], requested_byes=[c.pk], user=arbiter
    )
    late = services.player_create(name="Dax", rating=1300)
    reg = services.registration_create(tournament=t, player=late, user=arbiter)
    assert reg.first_round == 2
    with pytest.raises(ValidationError):
        services.registration_create(tournament=t, player=late, user=arbiter)
    gone = services.registration_withdraw(registration=reg_c, user=arbiter)
    assert gone.status == "withdrawn" and gone.last_round == 1
    rows = {r.entrant.name: r for r in selectors.standings_compute(tournament=t)}
    assert rows["Cid"].score == 0  # a requested bye scores 0 by default
    assert set(rows) == {"Ann", "Bob", "Cid", "Dax"}


def test_same_result_twice_changes_nothing(event, arbiter):
    t, (a, b, c) = event
    rnd = services.round_create(tournament=t, pairings=[(a.pk, b.pk)], user=arbiter)
    game = rnd.games.get()
    first = services.game_result_set(game=game, result=Game.Result.FIRST_WIN, user=arbiter)
    version = type(t).objects.get(pk=t.pk).published_version
    again = services.game_result_set(game=game, result=Game.Result.FIRST_WIN, user=arbiter)
    assert again.result_entered_at == first.result_entered_at
    assert type(t).objects.get(pk=t.pk).published_version == version


def test_unknown_tiebreak_rejected():
    with pytest.raises(ValidationError):
        services.tournament_create(
            name="X", slug="x", start_date=date(2026, 1, 1), tiebreaks="buchholz,bogus"
        )


def test_crosstable_json(event, arbiter):
    t, (a, b, c) = event
    rnd = services.round_create(tournament=t, pairings=[(a.pk, b.pk), (c.pk, None)], user=arbiter)
    services.game_result_set(
        game=rnd.games.get(board=1), result=Game.Result.FIRST_WIN, user=arbiter
    )
    data = selectors.crosstable_json(tournament=t)
    first = data["rows"][0]
    assert first["name"] in ("Ann", "Cid") and first["score"] == 1.0
    ann = next(r for r in data["rows"] if r["name"] == "Ann")
    assert ann["rounds"][0]["result"] == "1" and ann["rounds"][0]["placed_first"] is True
    cid = next(r for r in data["rows"] if r["name"] == "Cid")
    assert cid["rounds"][0]["result"] == "B"


def test_tiebreaks_are_stored_by_fide_code_in_their_order():
    t = services.tournament_create(
        name="X", slug="x", start_date=date(2026, 1, 1), tiebreaks="wins, BH/C1,sonneborn_berger,SB"
    )
    # Today's names and the checker's BH/C1 become codes; FIDE's SB stays beside SSB.
    assert t.tiebreaks == "WON,BH-C1,SSB,SB" and t.tiebreak_rules == "2026"


def test_a_tiebreak_chosen_twice_is_refused():
    with pytest.raises(ValidationError, match="BH chosen twice"):
        services.tournament_create(
            name="X", slug="x", start_date=date(2026, 1, 1), tiebreaks="BH,buchholz"
        )
    assert not Tournament.objects.filter(slug="x").exists()
