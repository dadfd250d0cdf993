"""Lists read in a number of queries that does not grow with the games listed (no N+1):
the rounds of a tournament and the games list, penalties and spindle casts included."""

from __future__ import annotations

import pytest

from tests.query_counts import event_played, queries

pytestmark = pytest.mark.django_db


# Three rounds planned, two played; the combats' placement decided by spindle casts.
SETTINGS = {"rounds_planned": 3, "placement_order": "spindle"}


def test_rounds_api_reads_in_queries_that_do_not_grow_with_the_games():
    small, big = event_played(4, "q-small", **SETTINGS), event_played(16, "q-big", **SETTINGS)
    assert queries(f"/api/tournaments/{big.slug}/rounds/") == queries(
        f"/api/tournaments/{small.slug}/rounds/"
    )


def test_games_list_reads_in_queries_that_do_not_grow_with_the_games():
    event_played(4, "q-one", **SETTINGS)
    few = queries("/api/games/")
    event_played(16, "q-two", **SETTINGS)
    assert queries("/api/games/") <= few + 2  # one more tournament's penalties, at most
