"""Reads the rating pages, the API and `kz ratings` show: a pool's rating list, a player's
ratings with their history per period, each battle's change, and the live estimate."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from tournaments.models import (
    BattleRating,
    PeriodRating,
    Player,
    PoolRating,
    RatingPeriod,
    Tournament,
)
from tournaments.rating_selectors import (
    current_deviation,
    last_closed_sequence,
    pool_battles,
    pool_settings,
    tournament_pool,
)
from tournaments.ratings.glicko import Outcome, Rating, battle_changes
from tournaments.ratings.history import Standing, standings_fingerprint
from tournaments.ratings.pools import POOLS, is_provisional, pool_check, rating_text


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One line of a pool's rating list."""

    rank: int
    player_id: int
    name: str
    club: str
    federation: str
    rating: float
    deviation: float
    volatility: float
    games: int
    last_period: str
    provisional: bool
    text: str

    def as_json(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "player": self.player_id,
            "name": self.name,
            "club": self.club,
            "federation": self.federation,
            "rating": round(self.rating, 1),
            "deviation": round(self.deviation, 1),
            "volatility": round(self.volatility, 6),
            "games": self.games,
            "last_period": self.last_period,
            "provisional": self.provisional,
            "printed": self.text,
        }


def pool_rating_list(*, pool: str, club: str = "", federation: str = "") -> list[RatingRow]:
    """The pool's players by rating (highest first, then name), ranked over the whole pool,
    then kept to those of `club` (its name) and `federation` when given; deviations as they
    stand now (grown for each period closed since a player's last)."""
    pool_check(pool)
    conf = pool_settings(pool=pool)
    closed = last_closed_sequence(pool=pool)
    rows = PoolRating.objects.filter(pool=pool).select_related(
        "player", "player__club", "last_period"
    )
    ordered = sorted(rows, key=lambda r: (-r.rating, r.player.name.casefold(), r.player_id))
    found = []
    for rank, row in enumerate(ordered, start=1):
        player = row.player
        club_name = player.club.name if player.club else ""
        if club and club_name != club or federation and player.federation != federation:
            continue
        deviation = current_deviation(
            row=row, closed_sequence=closed, ceiling=conf.initial_deviation
        )
        found.append(
            RatingRow(
                rank,
                player.pk,
                player.name,
                club_name,
                player.federation,
                row.rating,
                deviation,
                row.volatility,
                row.games,
                row.last_period.label,
                is_provisional(deviation=deviation, settings=conf),
                rating_text(rating=row.rating, deviation=deviation, settings=conf),
            )
        )
    return found


@dataclass(frozen=True, slots=True)
class PeriodLine:
    """A period the player played in: the rating before and after, battles played."""

    label: str
    rating_before: float
    rating: float
    deviation: float
    played: int
    text: str

    @property
    def change(self) -> float:
        return self.rating - self.rating_before


@dataclass(frozen=True, slots=True)
class BattleLine:
    """One battle's change to the player's rating (closed, or estimated)."""

    period: str
    game_id: int
    opponent: str
    opponent_id: int
    score: float
    change: float


@dataclass(frozen=True, slots=True)
class Estimate:
    """What the battles played since the last close would change if it closed now."""

    battles: list[BattleLine]
    total: float
    rating: float


@dataclass(frozen=True, slots=True)
class PoolHistory:
    """A player's rating in one pool, its history and the live estimate."""

    pool: str
    rating: float
    deviation: float
    games: int
    provisional: bool
    text: str
    periods: list[PeriodLine]
    battles: list[BattleLine]
    estimate: Estimate | None


def _periods(*, player: Player, pool: str) -> list[PeriodLine]:
    conf = pool_settings(pool=pool)
    rows = (
        PeriodRating.objects.filter(player=player, period__pool=pool)
        .select_related("period")
        .order_by("period__sequence")
    )
    return [
        PeriodLine(
            r.period.label,
            r.rating_before,
            r.rating,
            r.deviation,
            r.played,
            rating_text(rating=r.rating, deviation=r.deviation, settings=conf),
        )
        for r in rows
    ]


def _battles(*, player: Player, pool: str) -> list[BattleLine]:
    rows = (
        BattleRating.objects.filter(Q(first=player) | Q(second=player), period__pool=pool)
        .select_related("period", "first", "second")
        .order_by("period__sequence", "game_id")
    )
    lines = []
    for r in rows:
        mine = r.first_id == player.pk
        other = r.second if mine else r.first
        lines.append(
            BattleLine(
                r.period.label,
                r.game_id,
                other.name,
                other.pk,
                r.first_score if mine else 1 - r.first_score,
                r.first_change if mine else r.second_change,
            )
        )
    return lines


def current_ratings(*, pool: str, player_ids: set[int]) -> dict[int, Rating]:
    """The players' current ratings in the pool (deviations grown to now)."""
    conf = pool_settings(pool=pool)
    closed = last_closed_sequence(pool=pool)
    rows = PoolRating.objects.filter(pool=pool, player_id__in=player_ids).select_related(
        "last_period"
    )
    return {
        r.player_id: Rating(
            r.rating,
            current_deviation(row=r, closed_sequence=closed, ceiling=conf.initial_deviation),
            r.volatility,
        )
        for r in rows
    }


def _estimate(*, player: Player, pool: str, events: list[Tournament]) -> Estimate | None:
    """The player's battles rated since the pool's last close (of their own events in the
    pool, `events`) as one period against their opponents' current ratings: the change if it
    closed now."""
    if not events:
        return None
    conf = pool_settings(pool=pool)
    last = (
        RatingPeriod.objects.filter(pool=pool)
        .exclude(closed_at=None)
        .order_by("-sequence")
        .values_list("ends_before", flat=True)
        .first()
    )
    found = pool_battles(pool=pool, start=last, tournaments=events, player_id=player.pk)
    mine = [d for d in found.rated if player.pk in (d.battle.white, d.battle.black)]
    if not mine:
        return None
    others = {d.battle.black if d.battle.white == player.pk else d.battle.white for d in mine}
    now = current_ratings(pool=pool, player_ids=others | {player.pk})
    fresh = Rating(conf.initial_rating, conf.initial_deviation, conf.initial_volatility)
    names = dict(Player.objects.filter(pk__in=others).values_list("pk", "name"))
    outcomes, lines = [], []
    for d in mine:
        first = d.battle.white == player.pk
        other = d.battle.black if first else d.battle.white
        score = d.battle.score if first else 1 - d.battle.score
        outcomes.append(Outcome(now.get(other, fresh), score))
        lines.append((d.battle.battle, names.get(other, ""), other, score))
    me = now.get(player.pk, fresh)
    changes = battle_changes(player=me, outcomes=outcomes, tau=conf.tau)
    battles = [
        BattleLine("", game, name, other, score, change)
        for (game, name, other, score), change in zip(lines, changes, strict=True)
    ]
    total = sum(changes)
    return Estimate(battles, total, me.rating + total)


def player_rating_history(*, player: Player) -> list[PoolHistory]:
    """The player's ratings, one per pool they are rated in or have battles waiting in."""
    rows = {
        r.pool: r for r in PoolRating.objects.filter(player=player).select_related("last_period")
    }
    entered: dict[str, list[Tournament]] = {}
    # The player's own events, each in its pool: read once, not each pool's every event.
    for event in Tournament.objects.filter(registrations__player=player).only(
        "id", "ruleset", "variants", "pairing_system"
    ):
        entered.setdefault(tournament_pool(tournament=event), []).append(event)
    found = []
    for pool in POOLS:
        estimate = _estimate(player=player, pool=pool, events=entered.get(pool, []))
        row = rows.get(pool)
        if row is None and estimate is None:
            continue
        conf = pool_settings(pool=pool)
        now = current_ratings(pool=pool, player_ids={player.pk}).get(player.pk)
        rating = now or Rating(conf.initial_rating, conf.initial_deviation, 0.0)
        found.append(
            PoolHistory(
                pool,
                rating.rating,
                rating.deviation,
                row.games if row else 0,
                is_provisional(deviation=rating.deviation, settings=conf),
                rating_text(rating=rating.rating, deviation=rating.deviation, settings=conf),
                _periods(player=player, pool=pool),
                _battles(player=player, pool=pool),
                estimate,
            )
        )
    return found


def history_points(*, periods: list[PeriodLine], width: int = 600, height: int = 160) -> str:
    """The SVG polyline points of a rating history (the plot on the player's page), scaled
    to width × height with the highest rating at the top."""
    if not periods:
        return ""
    ratings = [periods[0].rating_before] + [p.rating for p in periods]
    low, high = min(ratings), max(ratings)
    span = high - low or 1.0
    step = width / max(len(ratings) - 1, 1)
    return " ".join(
        f"{i * step:.1f},{height - (r - low) / span * height:.1f}" for i, r in enumerate(ratings)
    )


def pool_fingerprint(*, pool: str) -> str:
    """The digest of the pool's stored ratings to the last bit of each float (ratings.history
    .standings_fingerprint): two equal digests, two equal pools."""
    rows = PoolRating.objects.filter(pool=pool).select_related("last_period")
    return standings_fingerprint(
        {
            r.player_id: Standing(
                Rating(r.rating, r.deviation, r.volatility), r.games, r.last_period.label
            )
            for r in rows
        }
    )


def pool_last_closed(*, pool: str) -> str | None:
    """The label of the pool's last closed period."""
    return (
        RatingPeriod.objects.filter(pool=pool)
        .exclude(closed_at=None)
        .order_by("-sequence")
        .values_list("label", flat=True)
        .first()
    )
