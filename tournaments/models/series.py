"""Series of events (a season, a Grand Prix, a club championship) with their categories."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Tournament
from tournaments.models.people import Player
from tournaments.models.ratings import POOL_CHOICES


class Series(models.Model):
    """An organizer's group of events, scored per placing (a points table) or per score,
    counting each player's best N (docs/series.md)."""

    class Scoring(models.TextChoices):
        PLACING = "placing", _("points per placing")
        SCORE = "score", _("points per score")

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="organized_series",
    )
    scoring = models.CharField(
        _("scoring"), max_length=10, choices=Scoring.choices, default=Scoring.PLACING
    )
    # The points of places 1, 2, ...; a place beyond the table is worth 0.
    points_table = models.JSONField(_("points table"), default=list, blank=True)
    best_of = models.PositiveSmallIntegerField(_("best N events counted"), null=True, blank=True)
    # Rating bands read the players' ratings in this pool as they stood on `starts_on`.
    pool = models.CharField(_("rating pool"), max_length=20, choices=POOL_CHOICES, default="laws")
    starts_on = models.DateField(_("start of the series"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name


class SeriesEvent(models.Model):
    """An event in a series: the series' organizer's own joins at once; another organizer's
    is invited and counts once that organizer accepts."""

    class Status(models.TextChoices):
        INVITED = "invited", _("invited")
        ACCEPTED = "accepted", _("accepted")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="memberships")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="series_memberships"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.INVITED)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="series_event_once")
        ]

    def __str__(self) -> str:
        return f"{self.series} / {self.tournament}"


class SeriesCategory(models.Model):
    """A category of a series' standings: a rating band (`low` <= rating < `high`) or, with
    players, a named group (juniors, a club's own)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="categories")
    name = models.CharField(_("name"), max_length=60)
    low = models.PositiveIntegerField(_("rating from"), null=True, blank=True)
    high = models.PositiveIntegerField(_("rating below"), null=True, blank=True)
    is_group = models.BooleanField(_("a named group of players"), default=False)
    players = models.ManyToManyField(Player, blank=True, related_name="series_categories")

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["series", "name"], name="series_category_name_once")
        ]

    def __str__(self) -> str:
        return self.name
