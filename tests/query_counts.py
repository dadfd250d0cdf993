"""The query-count tests' one event and one counter: an event with rounds played, and the
queries a request reads in."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from klinzha_site.page_cache import page_cache_local_clear
from tournaments import services
from tournaments.models import Game, Tournament
from tournaments.selectors import standings_memo_clear


def event_played(
    n: int, slug: str, *, draws: bool = False, third_paired: bool = False, **settings: Any
) -> Tournament:
    """n players and two rounds played, each with a battle declared lost (a penalty) and the
    other games won by the first player (every third a draw with `draws`); the third round
    paired with `third_paired`. `settings` are the tournament's (rounds_planned, ...)."""
    t = services.tournament_create(name=slug, slug=slug, start_date=date(2026, 11, 1), **settings)
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
        for i, g in enumerate(games[1:]):
            drawn = draws and i % 3 == 0
            services.game_result_set(
                game=g, result=Game.Result.DRAW if drawn else Game.Result.FIRST_WIN
            )
    if third_paired:
        services.round_pair(tournament=t)
    return t


def queries(path: str, *, client: APIClient | None = None, caches_emptied: bool = False) -> int:
    """The queries a GET of `path` reads in (it must answer 200); with `caches_emptied` the
    page cache, its local copy and the standings memo are emptied first, so that a page
    read before is read again from the database."""
    if caches_emptied:
        cache.clear()
        page_cache_local_clear()
        standings_memo_clear()
    with CaptureQueriesContext(connection) as ctx:
        response = (client or APIClient()).get(path)
    assert response.status_code == 200, (path, response.status_code)
    return len(ctx.captured_queries)
