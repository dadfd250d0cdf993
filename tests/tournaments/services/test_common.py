"""What every tournament service shares, called directly: the role checks, the tournament
lock, the acting account, the next round's number and its checks, the published pages' version."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from tests.tournaments.services.factories import round_make
from tournaments import selectors
from tournaments.models import Game, Tournament
from tournaments.services.common import (
    acting_account,
    next_round_check,
    next_round_number,
    published_version_bump,
    require_arbiter,
    require_official,
    tournament_lock,
)

pytestmark = pytest.mark.django_db


def version(t: Tournament) -> int:
    return Tournament.objects.values_list("published_version", flat=True).get(pk=t.pk)


def test_require_arbiter_lets_officials_and_the_system_through(officials, event):
    t, _ = event
    for user in (None, officials.arbiter, officials.chief, officials.organizer):
        require_arbiter(user, t)  # no exception
    with pytest.raises(PermissionDenied, match="only this tournament's arbiters may do that"):
        require_arbiter(officials.stranger, t)
    with pytest.raises(PermissionDenied):
        require_arbiter(AnonymousUser(), t)


def test_require_arbiter_refuses_a_combatant(officials, event):
    t, (ann, *_) = event
    ann.user = officials.stranger
    ann.save()
    with pytest.raises(PermissionDenied):
        require_arbiter(officials.stranger, t)


def test_require_official_is_any_tournaments_arbiter(officials, event):
    require_official(None)
    require_official(officials.arbiter)
    require_official(officials.chief)
    with pytest.raises(PermissionDenied, match="only organizers and arbiters may do that"):
        require_official(officials.stranger)
    officials.stranger.is_staff = True
    require_official(officials.stranger)


def test_tournament_lock_reads_the_row_afresh(event):
    t, _ = event
    Tournament.objects.filter(pk=t.pk).update(venue="Moved hall")
    with transaction.atomic():
        locked = tournament_lock(t.pk)
    assert locked.pk == t.pk and locked.venue == "Moved hall" and t.venue == ""


def test_acting_account_is_only_a_signed_in_user(officials):
    assert acting_account(officials.arbiter) == officials.arbiter
    assert acting_account(None) is None
    assert acting_account(AnonymousUser()) is None


def test_next_round_number_counts_stored_rounds(event):
    t, (a, b, c, d) = event
    assert next_round_number(t) == 1
    round_make(t, [(a, b), (c, d)])
    assert next_round_number(t) == 2
    round_make(t, [(a, c), (b, d)], draft=True)
    assert next_round_number(t) == 3


def test_next_round_check_refuses_while_a_round_is_proposed(event):
    t, (a, b, c, d) = event
    next_round_check(t, 1)  # nothing in the way
    round_make(t, [(a, b), (c, d)], draft=True)
    with pytest.raises(ValidationError) as e:
        next_round_check(t, 2)
    assert e.value.message_dict == {"round": ["round 1 is proposed: publish or discard it first"]}


def test_next_round_check_refuses_beyond_the_plan(event):
    t, _ = event
    next_round_check(t, 5)
    with pytest.raises(ValidationError) as e:
        next_round_check(t, 6)
    assert e.value.message_dict == {
        "round": [
            "the tournament has 5 rounds; raise the number of rounds in the settings to "
            "pair another"
        ]
    }


# Outside a test transaction: the standings memo keeps nothing read inside one.
@pytest.mark.django_db(transaction=True)
def test_published_version_bump_invalidates_the_cached_standings(event):
    t, (a, b, c, d) = event
    rnd = round_make(t, [(a, b), (c, d)])
    before = version(t)
    assert {r.entrant.name: r.score for r in selectors.standings_compute(tournament=t)}["Ann"] == 0
    # A change behind the services' back is not seen until the version moves.
    Game.objects.filter(round=rnd, board=1).update(result=Game.Result.FIRST_WIN)
    assert {r.entrant.name: r.score for r in selectors.standings_compute(tournament=t)}["Ann"] == 0
    published_version_bump(t)
    assert version(t) == before + 1
    assert {r.entrant.name: r.score for r in selectors.standings_compute(tournament=t)}["Ann"] == 1
    published_version_bump(t)
    assert version(t) == before + 2


def test_the_tournaments_officiated_are_none_for_the_anonymous(officials, event):
    t, _ = event
    assert [x.pk for x in selectors.tournament_list_officiated(user=officials.arbiter)] == [t.pk]
    assert not selectors.tournament_list_officiated(user=officials.stranger).exists()
    assert not selectors.tournament_list_officiated(user=AnonymousUser()).exists()
