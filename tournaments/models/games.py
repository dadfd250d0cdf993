"""The games of a round: who places first, the result and how it was entered."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Round
from tournaments.models.people import Player


class Colour(models.TextChoices):
    GREEN = "green", _("green")
    GOLD = "gold", _("gold")


def colour_other(colour: str) -> str:
    """The other side's colour."""
    return str(Colour.GOLD if colour == Colour.GREEN else Colour.GREEN)


class Game(models.Model):
    """A battle of a round: who placed first, the result, and who entered it. Its record,
    clocks and signatures are the games app's; the table keeps its first name."""

    class Kind(models.TextChoices):
        GAME = "game", _("Game")
        BYE = "bye", _("Pairing-allocated bye")
        REQUESTED_BYE = "requested_bye", _("Requested bye")
        FREE = "free", _("Free round of the round robin")

    class Result(models.TextChoices):
        PENDING = "", _("Pending")
        FIRST_WIN = "first_win", _("First placer wins")
        SECOND_WIN = "second_win", _("Second placer wins")
        DRAW = "draw", _("Draw")
        FIRST_FORFEIT_WIN = "first_forfeit_win", _("First placer wins by forfeit")
        SECOND_FORFEIT_WIN = "second_forfeit_win", _("Second placer wins by forfeit")
        DOUBLE_FORFEIT = "double_forfeit", _("Double forfeit")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    board = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.GAME)
    first = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    second = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The colour the first placer had, as the first readable record says (blank until then);
    # first_colour_or_green, or games.selectors.game_first_colour, for the colour to use.
    first_colour_recorded = models.CharField(max_length=5, blank=True, choices=Colour.choices)
    result = models.CharField(
        max_length=20, choices=Result.choices, default=Result.PENDING, blank=True
    )
    result_entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    result_entered_at = models.DateTimeField(null=True, blank=True)
    # With the tournament's result_confirmation on, a result counts once a second account
    # confirms it; otherwise entering it confirms it.
    result_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    result_confirmed_at = models.DateTimeField(null=True, blank=True)
    spindle_seed = models.CharField(max_length=64, blank=True)
    # A bye's own points where they are not the tournament's (a TRF's H or F bye, a late
    # entrant's missed round); None: the tournament's bye or requested-bye points.
    bye_points = models.DecimalField(max_digits=4, decimal_places=2, null=True, blank=True)
    # Italian society: the warrior kind a final's Bach'san replay is played without (0: none).
    bachsan_removed = models.PositiveSmallIntegerField(default=0)
    # Art. 2.3 with spindle placement: the casts are computed from spindle_seed, pairs listed
    # as (spindle_caster's, the other's); who then chose, and which placement they took for
    # themselves ("first" or "last"). A chooser who is not the option holder was granted it.
    spindle_caster = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    spindle_chooser = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    spindle_placement = models.CharField(
        max_length=5, blank=True, choices=[("first", _("first")), ("last", _("last"))]
    )
    # Italian society (7.3 of the booklet): battles of this pairing annulled because no
    # position could be restored; the replay is the same game, its record from
    # replay_from_version on (earlier versions belong to the annulled battles).
    battles_annulled = models.PositiveSmallIntegerField(default=0)
    replay_from_version = models.PositiveIntegerField(default=0)

    class Meta:
        # Moved here from the games app: the table keeps its name, so no row moves.
        db_table = "games_game"
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="one_game_per_board"),
        ]
        ordering = ["round", "board"]

    def __str__(self) -> str:
        if self.second_id is None:
            return f"{self.first} ({self.get_kind_display()})"
        return f"{self.first} – {self.second}"

    @property
    def first_colour_or_green(self) -> str:
        """The first placer's colour as the game keeps it (green until a record says)."""
        return self.first_colour_recorded or Colour.GREEN

    def colour_of(self, player_id: int, first_colour: str) -> str:
        """The colour `player_id` had when the first placer had `first_colour`."""
        return first_colour if player_id == self.first_id else colour_other(first_colour)
