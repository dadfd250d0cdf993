"""Reads for the exported bundles: an event's results with its round dates and what each
result counts for the ratings, and a pool's whole history (every event's results, the closed
periods, the published ratings) that `kz ratings verify DIR` rates again."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.db.models import Q

from tournaments.models import Game, Player, PoolRating, RatingPeriod, Round, Tournament
from tournaments.rating_page_selectors import pool_fingerprint
from tournaments.rating_selectors import (
    game_day,
    pool_battles,
    pool_settings,
    pool_tournaments,
    tournament_pool,
)
from tournaments.ratings.verify import HISTORY_FORMAT


def _day(moment: Any) -> str | None:
    day = game_day(starts_at=moment, entered_at=None)
    return None if day is None else day.isoformat()


def event_results_export(*, tournament: Tournament) -> dict[str, Any]:
    """The event's pool, its published rounds with their dates, and every game of them: the
    result, and the score the pool rates it at (`rated_score`; null: not rated, as forfeits,
    byes and results that do not count) on its rating day (`day`)."""
    pool = tournament_pool(tournament=tournament)
    rounds = (
        Round.objects.filter(tournament=tournament)
        .exclude(status=Round.Status.DRAFT)
        .order_by("number")
    )
    rated = {d.battle.battle: d for d in pool_battles(pool=pool, tournaments=[tournament]).rated}
    games = (
        Game.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round")
        .order_by("round__number", "board")
    )
    results = []
    for g in games:
        d = rated.get(g.pk)
        results.append(
            {
                "game": g.pk,
                "round": g.round.number,
                "board": g.board,
                "kind": g.kind,
                "first": g.first_id,
                "second": g.second_id,
                "result": g.result,
                "rated_score": None if d is None else d.battle.score,
                "day": None if d is None else d.day.isoformat(),
            }
        )
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "pool": pool,
        "rounds": [{"number": r.number, "date": _day(r.starts_at)} for r in rounds],
        "results": results,
    }


def pool_history_export(*, pool: str) -> dict[str, Any]:
    """A pool's whole history as `kz ratings verify` reads it (ratings.verify)."""
    events = pool_tournaments(pool=pool)
    exported = [event_results_export(tournament=t) for t in sorted(events, key=lambda t: t.pk)]
    periods = RatingPeriod.objects.filter(pool=pool).order_by("sequence")
    rows = PoolRating.objects.filter(pool=pool).select_related("last_period").order_by("player")
    ids = {r["first"] for e in exported for r in e["results"]} | {
        r["second"] for e in exported for r in e["results"] if r["second"] is not None
    }
    names = dict(Player.objects.filter(Q(pk__in=ids)).values_list("pk", "name"))
    return {
        "format": HISTORY_FORMAT,
        "pool": pool,
        "settings": dataclasses.asdict(pool_settings(pool=pool)),
        "periods": [
            {
                "label": p.label,
                "sequence": p.sequence,
                "closed": p.is_closed,
                "needs_rating": p.needs_rating,
                "ratings_version": p.ratings_version,
            }
            for p in periods
        ],
        "players": {str(pid): name for pid, name in sorted(names.items())},
        "events": exported,
        "published": [
            {
                "player": r.player_id,
                "rating": r.rating,
                "deviation": r.deviation,
                "volatility": r.volatility,
                "games": r.games,
                "last_period": r.last_period.label,
            }
            for r in rows
        ],
        "fingerprint": pool_fingerprint(pool=pool),
    }
