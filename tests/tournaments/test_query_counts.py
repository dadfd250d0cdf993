"""Lists read in a number of queries that does not grow with the games listed (no N+1):
the rounds of a tournament and the games list, penalties and spindle casts included."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db


def event(n: int, slug: str) -> Tournament:
    t = services.tournament_create(
        name=slug,
        slug=slug,
        start_date=date(2026, 11, 1),
        rounds_planned=3,
        placement_order="spindle",
    )
    for i in range(n):
        p = services.player_create(name=f"{slug} {i + 1}", rating=2000 - i)
        services.registration_create(tournament=t, player=p)
    for _ in range(2):
        rnd = services.round_pair(tournament=t)
        games = list(rnd.games.filter(kind=Game.Kind.GAME))
        services.penalty_impose(
            tournament=t,
            player=games[0].first,
            kind="battle_lost",
            reason="q",
            game=games[0],
            user=None,
        )
        for g in games[1:]:
            services.game_result_set(game=g, result=Game.Result.FIRST_WIN)
    return t


def queries(path: str) -> int:
    client = APIClient()
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(path).status_code == 200
    return len(ctx.captured_queries)


def test_rounds_api_reads_in_queries_that_do_not_grow_with_the_games():
    small, big = event(4, "q-small"), event(16, "q-big")
    assert queries(f"/api/tournaments/{big.slug}/rounds/") == queries(
        f"/api/tournaments/{small.slug}/rounds/"
    )


def test_games_list_reads_in_queries_that_do_not_grow_with_the_games():
    event(4, "q-one")
    few = queries("/api/games/")
    event(16, "q-two")
    assert queries("/api/games/") <= few + 2  # one more tournament's penalties, at most
