"""Glicko-2 ratings by pool: rating periods and their close, each player's rating per pool
and per period played, and what each rated battle changed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Tournament
from tournaments.models.games import Game
from tournaments.models.people import Player

# The pools of tournaments.ratings.pools.POOLS, with the names the pages show.
POOL_CHOICES = [
    ("laws", _("Laws of Klin Zha")),
    ("loyd-1989", _("Basic rules (Loyd, 1989)")),
    ("italian-society", _("Italian Klin Zha Society")),
    ("tri-level", _("Tri-level")),
    ("reflective", _("Reflective")),
    ("kinta", _("Klin Zha Kinta")),
]


class RatingPool(models.Model):
    """A pool's own row: how long its periods are, and the row its closes and checks lock
    (one at a time per pool, so that a correction is never missed by a close in progress)."""

    class Kind(models.TextChoices):
        MONTH = "month", _("month")
        WEEK = "week", _("week")

    pool = models.CharField(_("pool"), max_length=20, choices=POOL_CHOICES, unique=True)
    # Set before the pool's first period: its periods are numbered by it.
    period_kind = models.CharField(
        _("rating period"), max_length=5, choices=Kind.choices, default=Kind.MONTH
    )

    def __str__(self) -> str:
        return self.pool


class RatingPeriod(models.Model):
    """One period of a pool (a month `2026-11` or an ISO week `2026-W47`, UTC): open until
    closed, then its battles are rated. A pool's periods are numbered without a gap from its
    first (`sequence`), every one closed in turn, those with no battle too (idle players'
    deviation grows in each). `needs_rating`: a result in it (or in an earlier one) changed
    after it closed, so it is rated again (tournaments.services.ratings)."""

    Kind = RatingPool.Kind

    pool = models.CharField(_("pool"), max_length=20, choices=POOL_CHOICES)
    label = models.CharField(_("period"), max_length=10)
    kind = models.CharField(max_length=5, choices=Kind.choices, default=Kind.MONTH)
    # The period's number counted from year 0 (months: year × 12 + month - 1; weeks: ISO weeks
    # since 1 January of year 1): consecutive periods have consecutive numbers, with no row
    # to renumber when an older period appears (tournaments.ratings.pools.period_index).
    sequence = models.PositiveIntegerField()
    starts_on = models.DateField()
    # The first day after the period.
    ends_before = models.DateField()
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Closed with a result still pending (by hand, or the forced close after the grace days).
    closed_with_pending = models.PositiveIntegerField(default=0)
    needs_rating = models.BooleanField(default=False)
    # How many times its battles were rated (1 at the close, +1 per re-rating).
    ratings_version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["pool", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "label"], name="one_rating_period_label"),
            models.UniqueConstraint(fields=["pool", "sequence"], name="one_rating_period_seq"),
        ]
        permissions = [("close_ratingperiod", "Can close rating periods (rating officer)")]

    def __str__(self) -> str:
        return f"{self.pool} {self.label}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class PoolRating(models.Model):
    """A player's rating in a pool as of the last period they played in: their current
    deviation grows from it by each closed period since (ratings.glicko.grown_deviation)."""

    pool = models.CharField(_("pool"), max_length=20, choices=POOL_CHOICES)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="pool_ratings")
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    last_period = models.ForeignKey(RatingPeriod, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["pool", "-rating", "player"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "player"], name="one_pool_rating"),
        ]
        indexes = [models.Index(fields=["pool", "-rating"], name="pool_rating_rank")]


class PeriodRating(models.Model):
    """A player's rating after a period they played in: the history table and plot."""

    period = models.ForeignKey(RatingPeriod, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="period_ratings")
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    # Rated battles in the period, and in the pool up to and with it.
    played = models.PositiveIntegerField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["period", "player"]
        constraints = [
            models.UniqueConstraint(fields=["period", "player"], name="one_period_rating"),
        ]


class BattleRating(models.Model):
    """What one rated battle added to each player's rating at its period's close (in the
    period's order: tournaments.ratings.glicko.battle_changes), and the score it counted."""

    period = models.ForeignKey(RatingPeriod, on_delete=models.CASCADE, related_name="battles")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rating_change")
    # The players as rated (a correction that changes them is found by comparing).
    first = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    # The first placer's score for the formula: 1, 0.5 or 0.
    first_score = models.FloatField()
    first_change = models.FloatField()
    second_change = models.FloatField()

    class Meta:
        ordering = ["period", "game"]


class RatedEventVersion(models.Model):
    """The published version of an event when its battles in a pool's closed periods were
    last compared with what was rated: an event whose version moved since is compared again
    (a corrected result, a penalty, a rescheduled round), and a difference re-rates."""

    pool = models.CharField(max_length=20, choices=POOL_CHOICES)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pool", "tournament"], name="one_rated_event_version"),
        ]
