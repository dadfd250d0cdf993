"""Battles played online: the battle (its clocks, status and ending) and its plies, each with
the server's clock reading; PostgreSQL holds the truth (docs/online-play.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.live_clock import LAG_QUOTA_START_MS
from tournaments.models import Game


class LiveBattle(models.Model):
    """A battle played on the site: the tags it starts from, who plays which colour, each
    side's clock as of its last ply, and how it ended. Every change is made under this row's
    lock (games.services.live_battles)."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for the first ply")
        PLAYING = "playing", _("Playing")
        PAUSED = "paused", _("Paused by the arbiter")
        OVER = "over", _("Over")

    # The tournament game it plays; a casual battle (no game) comes with the lobby.
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="live_battle"
    )
    green = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    gold = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The record's start tags (Ruleset, Variants, FirstPlacement, TimeControl, names, ...).
    tags = models.JSONField(default=dict)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    # The record format's values: green, gold, draw, * (under way).
    result = models.CharField(max_length=5, default="*")
    termination = models.CharField(max_length=12, blank=True)
    # Each side's time used (its clock's charges) and lag quota (rules.live_clock).
    green_used_ms = models.BigIntegerField(default=0)
    gold_used_ms = models.BigIntegerField(default=0)
    green_quota_ms = models.IntegerField(default=LAG_QUOTA_START_MS)
    gold_quota_ms = models.IntegerField(default=LAG_QUOTA_START_MS)
    # When the clock of the side to act started: the battle's opening, then each ply.
    turn_started_at = models.DateTimeField(default=timezone.now)
    draw_offered_by = models.CharField(max_length=5, blank=True)
    record = models.ForeignKey(
        "games.RecordSubmission",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"live battle {self.pk} ({self.status})"


class LivePly(models.Model):
    """One ply the server accepted: its number, its text in the writer's form, and the
    mover's time left after it (the record's `[%clk]` reading, rounded up to seconds)."""

    battle = models.ForeignKey(LiveBattle, on_delete=models.CASCADE, related_name="plies")
    n = models.PositiveIntegerField()
    text = models.CharField(max_length=40)
    side = models.CharField(max_length=5)
    clock_ms = models.BigIntegerField(null=True, blank=True)
    spent_ms = models.BigIntegerField(default=0)
    lag_ms = models.IntegerField(default=0)
    played_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    played_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["battle", "n"]
        constraints = [
            # Exactly once: a second ply with the same number cannot be stored, whatever
            # the service's checks.
            models.UniqueConstraint(fields=["battle", "n"], name="one_live_ply_per_number"),
        ]

    def __str__(self) -> str:
        return f"{self.n}. {self.text}"
