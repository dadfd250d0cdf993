"""Penalties under Article 12, each imposed or revoked by an arbiter."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments import penalty_kinds
from tournaments.models.events import Tournament
from tournaments.models.games import Game
from tournaments.models.people import Player


class Penalty(models.Model):
    """An arbiter's penalty (Art. 12.4 a-g, 12.5; conduct, Art. 11). Never deleted: a
    mistaken one is revoked by a later entry that points at it."""

    # The stubs know TextChoices' functional form with plain names only, not these pairs.
    Kind = models.TextChoices("Kind", penalty_kinds.model_choices())  # type: ignore[call-overload]

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="penalties"
    )
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    article = models.CharField(max_length=10)
    reason = models.TextField()
    amount = models.DecimalField(
        max_digits=8,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("seconds (b, c, 12.5) or points (e)"),
    )
    revokes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="revoked_by"
    )
    arbiter = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise PermissionError("penalties are never deleted; revoke them")
