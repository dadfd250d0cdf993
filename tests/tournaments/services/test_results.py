"""Results, called directly: the game lock, and the second person's confirmation of a result
(two-person entry), with the standings counting a result only once it is confirmed."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from tests.tournaments.services.factories import event_make, round_make
from tournaments import selectors, services
from tournaments.models import AuditEntry, Game, Tournament
from tournaments.services.results import game_lock

pytestmark = pytest.mark.django_db


def scores(t: Tournament) -> dict[str, float]:
    return {r.entrant.name: r.score for r in selectors.standings_compute(tournament=t)}


def version(t: Tournament) -> int:
    return Tournament.objects.values_list("published_version", flat=True).get(pk=t.pk)


@pytest.fixture
def two_person(officials):  # type: ignore[no-untyped-def]
    """A tournament whose results need a second person's confirmation, its round 1 (Ann-Bob,
    Cid-Dax) published, and the game Ann-Bob."""
    t, (a, b, c, d) = event_make(officials, slug="two-open", result_confirmation=True)
    rnd = round_make(t, [(a, b), (c, d)])
    return t, rnd.games.get(board=1)


# game_lock


def test_game_lock_reads_the_game_afresh_with_its_round_and_tournament(
    event, django_assert_num_queries
):
    t, (a, b, c, d) = event
    game = round_make(t, [(a, b), (c, d)]).games.get(board=2)
    Game.objects.filter(pk=game.pk).update(result="draw")
    with transaction.atomic():
        locked = game_lock(game)
    assert locked.pk == game.pk and locked.result == "draw" and game.result == ""
    with django_assert_num_queries(0):
        assert (locked.round.number, locked.round.tournament.slug) == (1, t.slug)


# game_result_countersign


def test_a_second_arbiter_confirms_and_only_then_the_result_counts(officials, two_person):
    t, game = two_person
    entered = services.game_result_set(game=game, result="first_win", user=officials.arbiter)
    assert entered.result_entered_by == officials.arbiter
    assert entered.result_confirmed_by is None and entered.result_confirmed_at is None
    assert scores(t) == {"Ann": 0, "Bob": 0, "Cid": 0, "Dax": 0}
    before = version(t)
    confirmed = services.game_result_countersign(game=game, user=officials.arbiter2)
    assert confirmed.result_confirmed_by == officials.arbiter2
    assert confirmed.result_confirmed_at is not None
    stored = Game.objects.get(pk=game.pk)
    assert (stored.result, stored.result_confirmed_by) == ("first_win", officials.arbiter2)
    assert version(t) == before + 1
    assert scores(t) == {"Ann": 1, "Bob": 0, "Cid": 0, "Dax": 0}
    entry = AuditEntry.objects.get(tournament=t, action="result_confirmed")
    assert (entry.actor, entry.object_type, entry.object_id) == ("arbiter2", "Game", str(game.pk))
    assert entry.after == {"result": "first_win"}


def test_the_one_who_entered_a_result_cannot_confirm_it(officials, two_person):
    t, game = two_person
    services.game_result_set(game=game, result="draw", user=officials.arbiter)
    with pytest.raises(ValidationError) as e:
        services.game_result_countersign(game=game, user=officials.arbiter)
    assert e.value.message_dict == {
        "result": ["a result is confirmed by a second person, not by the one who entered it"]
    }
    assert Game.objects.get(pk=game.pk).result_confirmed_at is None
    assert scores(t)["Ann"] == 0
    assert not AuditEntry.objects.filter(action="result_confirmed").exists()


def test_nothing_entered_is_not_confirmed(officials, two_person):
    t, game = two_person
    with pytest.raises(ValidationError) as e:
        services.game_result_countersign(game=game, user=officials.arbiter2)
    assert e.value.message_dict == {"result": ["no result has been entered"]}


def test_a_confirmed_result_is_not_confirmed_again(officials, two_person):
    t, game = two_person
    services.game_result_set(game=game, result="second_win", user=officials.arbiter)
    services.game_result_countersign(game=game, user=officials.arbiter2)
    with pytest.raises(ValidationError) as e:
        services.game_result_countersign(game=game, user=officials.chief)
    assert e.value.message_dict == {"result": ["the result is confirmed already"]}
    assert Game.objects.get(pk=game.pk).result_confirmed_by == officials.arbiter2


def test_a_correction_waits_for_confirmation_again(officials, two_person):
    t, game = two_person
    services.game_result_set(game=game, result="first_win", user=officials.arbiter)
    services.game_result_countersign(game=game, user=officials.arbiter2)
    assert scores(t)["Ann"] == 1
    # The second arbiter corrects it: the first may now confirm the correction.
    services.game_result_set(game=game, result="second_win", user=officials.arbiter2)
    assert scores(t) == {"Ann": 0, "Bob": 0, "Cid": 0, "Dax": 0}
    services.game_result_countersign(game=game, user=officials.arbiter)
    assert scores(t)["Bob"] == 1 and scores(t)["Ann"] == 0


def test_only_arbiters_confirm(officials, two_person):
    t, game = two_person
    services.game_result_set(game=game, result="first_win", user=officials.arbiter)
    with pytest.raises(PermissionDenied):
        services.game_result_countersign(game=game, user=officials.stranger)
    assert Game.objects.get(pk=game.pk).result_confirmed_at is None


def test_without_two_person_entry_a_result_is_confirmed_as_entered(officials, event):
    t, (a, b, c, d) = event
    game = round_make(t, [(a, b), (c, d)]).games.get(board=1)
    entered = services.game_result_set(game=game, result="first_win", user=officials.arbiter)
    assert entered.result_confirmed_by == officials.arbiter
    assert scores(t)["Ann"] == 1
    with pytest.raises(ValidationError, match="the result is confirmed already"):
        services.game_result_countersign(game=game, user=officials.arbiter2)
