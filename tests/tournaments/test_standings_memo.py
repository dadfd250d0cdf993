"""The standings memo shares frozen rows, and keeps nothing read inside a transaction that
may still roll back."""

from __future__ import annotations

import dataclasses

import pytest
from django.db import transaction
from django.test import Client

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import Game
from tournaments.selectors import standings_compute

pytestmark = pytest.mark.django_db(transaction=True)


class Abandoned(Exception):
    """A later step of the arbiter's batch failed: everything in it rolls back."""


def _scores(slug: str) -> dict[str, float]:
    response = Client().get(f"/api/tournaments/{slug}/standings/")
    assert response.status_code == 200
    return {row["name"]: row["score"] for row in response.json()}


def test_what_one_caller_gets_no_caller_can_change():
    officials = officials_make()
    t, (a, b, c, d) = event_make(officials, slug="frozen-rows")
    round_make(t, [(a, b), (c, d)])
    for game in Game.objects.filter(round__tournament=t):
        services.game_result_set(game=game, result=Game.Result.FIRST_WIN, user=officials.arbiter)
    rows = standings_compute(tournament=t)
    first = rows[0]
    with pytest.raises(AttributeError):
        rows.append(rows[-1])  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.score = 99.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        first.tiebreaks["buchholz"] = 99.0  # type: ignore[index]
    with pytest.raises(TypeError):
        del first.rounds[1]  # type: ignore[attr-defined]
    again = standings_compute(tournament=t)
    assert again is rows  # the memo's own rows, as they were
    assert first.score == 1.0 and 1 in first.rounds
    assert _scores(t.slug) == {"Ann": 1.0, "Cid": 1.0, "Bob": 0.0, "Dax": 0.0}


def test_standings_read_in_a_transaction_that_rolls_back_are_never_served():
    """The arbiter enters round 1's results and pairs round 2 in one transaction (the
    pairing reads the standings), and a later step fails: all of it rolls back, the version
    number with it. The results entered next carry the same version: the standings must be
    theirs, not the rolled-back ones."""
    officials = officials_make()
    t, (a, b, c, d) = event_make(officials, slug="rolled-back")
    round_make(t, [(a, b), (c, d)])
    games = list(Game.objects.filter(round__tournament=t).order_by("pk"))
    with pytest.raises(Abandoned), transaction.atomic():
        for game in games:
            services.game_result_set(
                game=game, result=Game.Result.FIRST_WIN, user=officials.arbiter
            )
        services.round_pair(tournament=t, user=officials.arbiter)
        raise Abandoned
    assert not t.rounds.filter(number=2).exists()
    for game in games:
        services.game_result_set(game=game, result=Game.Result.SECOND_WIN, user=officials.arbiter)
    assert _scores(t.slug) == {"Ann": 0.0, "Cid": 0.0, "Bob": 1.0, "Dax": 1.0}
    services.round_pair(tournament=t, user=officials.arbiter)  # and pairs on those scores
    assert _scores(t.slug)["Bob"] == 1.0
