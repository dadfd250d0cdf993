"""Reads of a club's page: its members with their ratings, its events and series, and its
own rating list per pool."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, QuerySet

from tournaments.models import Club, Player, Series, SeriesEvent, Tournament
from tournaments.rating_page_selectors import RatingRow, pool_rating_list
from tournaments.ratings.pools import POOLS


@dataclass
class ClubMember:
    player: Player
    ratings: dict[str, RatingRow] = field(default_factory=dict)  # by pool


@dataclass
class ClubPage:
    club: Club
    members: list[ClubMember]
    # Per pool: (rank in the club, the pool's row with its rank over the whole pool).
    rating_lists: list[tuple[str, list[tuple[int, RatingRow]]]]
    events: list[Tournament]
    series: list[Series]
    officials: list[str]


def club_list() -> QuerySet[Club]:
    """Every club by name, with how many players it has (`members`)."""
    return Club.objects.annotate(members=Count("players")).order_by("name", "pk")


def club_events(*, club: Club) -> QuerySet[Tournament]:
    """The events the club's members entered, the latest first."""
    return Tournament.objects.filter(registrations__player__club=club).distinct()


def club_series(*, club: Club) -> QuerySet[Series]:
    """The series in which one of those events counts."""
    return (
        Series.objects.filter(
            memberships__tournament__registrations__player__club=club,
            memberships__status=SeriesEvent.Status.ACCEPTED,
        )
        .distinct()
        .order_by("name")
    )


def club_page(*, club: Club) -> ClubPage:
    members = [ClubMember(p) for p in Player.objects.filter(club=club).order_by("name", "pk")]
    by_id = {m.player.pk: m for m in members}
    lists = []
    for pool in POOLS:
        rows = pool_rating_list(pool=pool, club=club.name)
        if rows:
            lists.append((pool, list(enumerate(rows, start=1))))
        for row in rows:
            if row.player_id in by_id:
                by_id[row.player_id].ratings[pool] = row
    return ClubPage(
        club=club,
        members=members,
        rating_lists=lists,
        events=list(club_events(club=club)),
        series=list(club_series(club=club)),
        officials=sorted(club.officials.values_list("username", flat=True)),
    )
