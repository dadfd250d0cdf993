"""Reads of an event's rating changes for its crosstable: what each battle added to both
players' ratings at its period's close, or, for battles since the pool's last close, the live
estimate (the change if the period closed now, each battle's part in the period's order)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tournaments.models import BattleRating, Game, RatingPeriod, Registration, Tournament
from tournaments.rating_page_selectors import current_ratings
from tournaments.rating_selectors import (
    DatedBattle,
    pool_battles,
    pool_settings,
    pool_tournaments,
    tournament_pool,
)
from tournaments.ratings.glicko import Outcome, Rating, battle_changes
from tournaments.ratings.pools import PoolSettings
from tournaments.selectors import crosstable_json


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One battle's change to one player's rating; `estimate`: not closed yet."""

    change: float
    estimate: bool

    def text(self) -> str:
        """The change as the crosstable prints it: signed, one decimal, `~` when estimated."""
        return f"{'~' if self.estimate else ''}{self.change:+.1f}"


def _last_close_end(*, pool: str) -> dt.date | None:
    return (
        RatingPeriod.objects.filter(pool=pool)
        .exclude(closed_at=None)
        .order_by("-sequence")
        .values_list("ends_before", flat=True)
        .first()
    )


def _estimated(
    *, players: set[int], battles: Iterable[DatedBattle], conf: PoolSettings, pool: str
) -> dict[tuple[int, int], float]:
    """Per (battle, player) of `players`, the battle's part in the player's change if the
    period closed now: their battles in order against their opponents' current ratings."""
    mine: dict[int, list[tuple[int, int, float]]] = {}
    for d in battles:
        b = d.battle
        if b.white in players:
            mine.setdefault(b.white, []).append((b.battle, b.black, b.score))
        if b.black in players:
            mine.setdefault(b.black, []).append((b.battle, b.white, 1 - b.score))
    everyone = set(mine) | {other for rows in mine.values() for _, other, _ in rows}
    now = current_ratings(pool=pool, player_ids=everyone)
    fresh = Rating(conf.initial_rating, conf.initial_deviation, conf.initial_volatility)
    found: dict[tuple[int, int], float] = {}
    for pid, rows in mine.items():
        outcomes = [Outcome(now.get(other, fresh), score) for _, other, score in rows]
        changes = battle_changes(player=now.get(pid, fresh), outcomes=outcomes, tau=conf.tau)
        for (battle, _, _), change in zip(rows, changes, strict=True):
            found[(battle, pid)] = change
    return found


def event_rating_changes(*, tournament: Tournament) -> dict[tuple[int, int], RatingChange]:
    """Per (round number, player), the rating change of the player's battle in that round:
    closed, or estimated when played since the pool's last close (the estimate takes the
    player's battles of every event of the pool in the open period, in their order)."""
    pool = tournament_pool(tournament=tournament)
    rounds = dict(
        Game.objects.filter(round__tournament=tournament).values_list("pk", "round__number")
    )
    found: dict[tuple[int, int], RatingChange] = {}
    closed = BattleRating.objects.filter(game__round__tournament=tournament).values_list(
        "game_id", "first_id", "second_id", "first_change", "second_change"
    )
    for game, first, second, first_change, second_change in closed:
        found[(rounds[game], first)] = RatingChange(first_change, False)
        found[(rounds[game], second)] = RatingChange(second_change, False)
    start = _last_close_end(pool=pool)
    here = pool_battles(pool=pool, start=start, tournaments=[tournament])
    if not here.rated:
        return found
    players = {p for d in here.rated for p in (d.battle.white, d.battle.black)}
    # The players' other events in the pool: their battles there come before or after these.
    entered = set(
        Registration.objects.filter(player_id__in=players).values_list("tournament_id", flat=True)
    )
    events = [t for t in pool_tournaments(pool=pool) if t.pk in entered]
    everything = pool_battles(pool=pool, start=start, tournaments=events)
    changes = _estimated(
        players=players, battles=everything.rated, conf=pool_settings(pool=pool), pool=pool
    )
    for d in here.rated:
        number = rounds[d.battle.battle]
        for pid in (d.battle.white, d.battle.black):
            found.setdefault((number, pid), RatingChange(changes[(d.battle.battle, pid)], True))
    return found


def event_rating_totals(*, changes: dict[tuple[int, int], RatingChange]) -> dict[int, RatingChange]:
    """Each player's sum of the changes shown (an estimate when any part is)."""
    totals: dict[int, RatingChange] = {}
    for (_, pid), c in changes.items():
        old = totals.get(pid, RatingChange(0.0, False))
        totals[pid] = RatingChange(old.change + c.change, old.estimate or c.estimate)
    return totals


def crosstable_json_rated(*, tournament: Tournament) -> dict[str, Any]:
    """The crosstable's JSON (selectors.crosstable_json), each round of a row with its
    battle's `rating_change` (null: none) and `rating_change_estimate`."""
    body = crosstable_json(tournament=tournament)
    changes = event_rating_changes(tournament=tournament)
    for row in body["rows"]:
        for number, cell in enumerate(row["rounds"], start=1):
            change = changes.get((number, row["player"]))
            cell["rating_change"] = None if change is None else change.change
            cell["rating_change_estimate"] = change is not None and change.estimate
    return body
