"""Tournaments with their settings, registrations, rounds, bye requests and forbidden pairs."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from rules.position import RULESET_ITALIAN, RULESET_LAWS, RULESET_LOYD_1989
from tournaments.models.people import Player
from tournaments.validators import time_control_validate


class Tournament(models.Model):
    class PairingSystem(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round robin")
        DOUBLE_ROUND_ROBIN = "double_round_robin", _("Double round robin")
        KNOCKOUT = "knockout", _("Knockout")

    # The engine's rule sets (rules.position.RULESETS), with the names the pages show. The
    # stubs know the functional form with plain names only, not (name, (value, label)) pairs.
    Ruleset = models.TextChoices(  # type: ignore[call-overload]
        "Ruleset",
        [
            ("LAWS", (RULESET_LAWS, _("Laws of Klin Zha"))),
            ("LOYD_1989", (RULESET_LOYD_1989, _("Basic rules (Loyd, 1989)"))),
            ("ITALIAN_SOCIETY", (RULESET_ITALIAN, _("Italian Klin Zha Society"))),
        ],
    )

    class PlacementOrder(models.TextChoices):
        SPINDLE = "spindle", _("Spindle cast")
        BALANCED = "balanced", _("Balanced by the pairing")

    class WithdrawalResults(models.TextChoices):
        # FIDE's practice in round robins, per player.
        ANNUL_BEFORE_HALF = (
            "annul_before_half",
            _(
                "Annulled if the player played fewer than half of their games; else they stand "
                "and the rest are forfeits"
            ),
        )
        STAND = "stand", _("Played games stand; the rest are the opponents' forfeit wins")

    class Notation(models.TextChoices):
        GEOMETRIC = "geometric", _("Geometric (Appendix C)")
        DESCRIPTIVE = "descriptive", _("Descriptive")

    class CheckInMissing(models.TextChoices):
        ABSENT = "absent", _("Absent this round")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        PAIRED = "paired", _("Paired anyway")

    class FreeRound(models.TextChoices):
        DID_NOT_PLAY = "did_not_play", _("Did not play: no points")
        BYE = "bye", _("A pairing-allocated bye with its points")

    class Play(models.TextChoices):
        OVER_THE_BOARD = "over_the_board", _("Over the board")
        ONLINE_LIVE = "online_live", _("Online, live")
        ONLINE_CORRESPONDENCE = "online_correspondence", _("Online, by correspondence")

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=160, blank=True)
    ruleset = models.CharField(
        _("ruleset"), max_length=20, choices=Ruleset.choices, default=Ruleset.LAWS
    )
    variants = models.CharField(_("variants"), max_length=200, blank=True)
    time_control = models.CharField(
        _("time control"),
        max_length=60,
        blank=True,
        help_text=_("Art. 6.4, e.g. 20/1800:1200"),
        validators=[time_control_validate],
    )
    # The variants' parameters every record must name as the event fixes them (Art. 13.3,
    # 13.4, 13.6): blank or 0 is the Laws' default (no clouds, the empty region's corner, no
    # ablation limit).
    clouds = models.CharField(
        _("clouded triangles"), max_length=200, blank=True, help_text=_("Art. 13.4, e.g. E37,F36")
    )
    crown = models.CharField(
        _("Kagga's crown"),
        max_length=10,
        blank=True,
        help_text=_("Art. 13.3: the designated apex (A19, I11, I99 or apex/west/east)"),
    )
    ablation_limit = models.PositiveSmallIntegerField(
        _("ablation limit"), default=0, help_text=_("Art. 13.6; 0 for none")
    )
    pairing_system = models.CharField(
        _("pairing system"),
        max_length=20,
        choices=PairingSystem.choices,
        default=PairingSystem.SWISS,
    )
    rounds_planned = models.PositiveSmallIntegerField(
        _("rounds"), default=5, validators=[MinValueValidator(1)]
    )
    forfeit_win_points = models.DecimalField(max_digits=4, decimal_places=2, default=Decimal(1))
    forfeit_loss_points = models.DecimalField(max_digits=4, decimal_places=2, default=Decimal(0))
    bye_points = models.DecimalField(max_digits=4, decimal_places=2, default=Decimal(1))
    requested_bye_points = models.DecimalField(max_digits=4, decimal_places=2, default=Decimal(0))
    tiebreaks = models.CharField(_("tie-breaks"), max_length=200, default="BH,SSB,WON")
    # The revision of FIDE's Tie-Break Regulations (C.07) the tie-breaks follow.
    tiebreak_rules = models.CharField(
        _("tie-break regulations"),
        max_length=4,
        choices=[
            ("2026", _("FIDE C.07 of 2026")),
            ("2024", _("FIDE C.07 of 2024")),
        ],
        default="2026",
    )
    placement_order = models.CharField(
        _("placement order"),
        max_length=10,
        choices=PlacementOrder.choices,
        default=PlacementOrder.BALANCED,
    )
    local_rules = models.TextField(_("local rules"), blank=True, help_text=_("Art. 9.1"))
    resignation_allowed = models.BooleanField(
        _("resignation allowed"), default=False, help_text=_("Art. 9.2")
    )
    resignation_after_moves = models.PositiveSmallIntegerField(
        _("moves before resigning"),
        default=0,
        validators=[MaxValueValidator(1000)],
        help_text=_(
            "Art. 9.2: the moves a combatant must have made before resigning, the setup "
            "counting as move 1 (Art. 6.7); 0 for none"
        ),
    )
    notation = models.CharField(
        _("required notation"),
        max_length=12,
        blank=True,
        choices=Notation.choices,
        help_text=_("Art. 8.3: the records' notation; blank accepts either"),
    )
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="organized_tournaments",
    )
    chief_arbiter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chief_arbitrated_tournaments",
        verbose_name=_("chief arbiter"),
    )
    arbiters = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="arbitrated_tournaments"
    )
    result_confirmation = models.BooleanField(
        _("results confirmed by a second person"),
        default=False,
        help_text=_("one account enters a result, another confirms it before it counts"),
    )
    # Where the battles are played: publishing a round of an online event opens each of its
    # battles on the site (games.receivers).
    play = models.CharField(
        _("where the battles are played"),
        max_length=24,
        choices=Play.choices,
        default=Play.OVER_THE_BOARD,
    )
    # Spectators of a battle played online see its plies this many minutes late while it is
    # under way (its players and the event's officials live), the whole record once it ends.
    broadcast_delay_minutes = models.PositiveSmallIntegerField(
        _("broadcast delay (minutes)"),
        default=0,
        validators=[MaxValueValidator(1440)],
        help_text=_("spectators of an online battle see its moves this many minutes late; 0: live"),
    )
    forbid_same_club = models.BooleanField(
        _("no pairings within a club"), default=False, help_text=_("Swiss pairing option")
    )
    accelerated_rounds = models.PositiveSmallIntegerField(
        _("accelerated rounds"),
        default=0,
        help_text=_("Swiss: the top half plays with a virtual point in the first N rounds"),
    )
    withdrawal_results = models.CharField(
        _("results of a withdrawn player (round robin)"),
        max_length=20,
        choices=WithdrawalResults.choices,
        default=WithdrawalResults.ANNUL_BEFORE_HALF,
    )
    free_round = models.CharField(
        _("the free round of an odd round robin"),
        max_length=14,
        choices=FreeRound.choices,
        default=FreeRound.DID_NOT_PLAY,
    )
    late_entry_points = models.DecimalField(
        _("points for each round a late entrant missed"),
        max_digits=4,
        decimal_places=2,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("-9")), MaxValueValidator(Decimal("9"))],
    )
    # Who has not checked in when a check-in window closes (tournaments.services.check_in).
    check_in_missing = models.CharField(
        _("who did not check in"),
        max_length=10,
        choices=CheckInMissing.choices,
        default=CheckInMissing.ABSENT,
        help_text=_("how those who did not check in are treated once the window closes"),
    )
    # The version of everything the event publishes (its page, standings, crosstable,
    # pairings, its players' pages, their CSV, JSON and API forms): their cache keys carry it,
    # and every service that changes what they show bumps it (published_version_bump).
    published_version = models.PositiveIntegerField(default=0, editable=False)
    # What a TRF import read and the tournament has no field for, so that the export loses
    # nothing: {"dialect": "TRF16" or "TRF-2025", "header": {code: text as read},
    # "derived": {code: the field's value the import made of it}, "lines": [records kept
    # as read]}; empty for events made here.
    trf_source = models.JSONField(default=dict, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Settings that change results: locked once round 1 is paired.
    RESULT_SETTINGS = (
        "ruleset",
        "variants",
        "clouds",
        "crown",
        "ablation_limit",
        "pairing_system",
        "forfeit_win_points",
        "forfeit_loss_points",
        "bye_points",
        "requested_bye_points",
        "tiebreaks",
        "tiebreak_rules",
        "placement_order",
        "withdrawal_results",
        "free_round",
        "late_entry_points",
    )

    class Meta:
        ordering = ["-start_date", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_round_robin(self) -> bool:
        """Whether the pairings were determined in advance (single or double round robin)."""
        robins = (self.PairingSystem.ROUND_ROBIN, self.PairingSystem.DOUBLE_ROUND_ROBIN)
        return self.pairing_system in robins

    @property
    def standings_options(self) -> dict[str, Any]:
        """The settings the standings are computed under (tournaments.standings)."""
        return {
            "tiebreaks": self.tiebreak_list,
            "rules": self.tiebreak_rules,
            "round_robin": self.is_round_robin,
        }

    @property
    def tiebreak_list(self) -> list[str]:
        return [t.strip() for t in self.tiebreaks.split(",") if t.strip()]


class RatingBasis(models.TextChoices):
    """What a registration's rating snapshot is (blank: the declared rating, before pools)."""

    POOL = "pool", _("pool rating")
    DECLARED = "declared", _("declared rating")
    PROVISIONAL = "provisional", _("provisional pool rating")


class Registration(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        EXPELLED = "expelled", _("Expelled")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    start_rank = models.PositiveIntegerField(null=True, blank=True)
    # The player's rating when registered: the event seeds by it, whatever the rating later.
    rating = models.PositiveIntegerField(_("rating"), default=0)
    # Where that rating came from (tournaments.services.rating_seeds): the player's rating in
    # the event's pool, their declared rating (Player.rating), or the pool's provisional one.
    rating_basis = models.CharField(
        _("rating basis"), max_length=12, blank=True, choices=RatingBasis.choices
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    first_round = models.PositiveSmallIntegerField(
        default=1, help_text=_("late entries join later")
    )
    last_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("last round before withdrawal")
    )
    # An expelled player who had already withdrawn: revoking the expulsion gives back the
    # withdrawal (and its last round), not a place in later rounds.
    withdrew_before_expulsion = models.BooleanField(default=False, editable=False)
    # The player asked (on their own page) to withdraw: an arbiter confirms by withdrawing
    # them (registration_withdraw clears it); until then they are paired as before.
    withdrawal_asked_at = models.DateTimeField(_("withdrawal asked"), null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_registration"),
        ]
        ordering = ["tournament", "start_rank", "id"]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Proposed")
        PUBLISHED = "published", _("Published")
        COMPLETED = "completed", _("Completed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PUBLISHED)
    explanation = models.JSONField(default=list, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The scheduled start (Art. 6.8, 6.9 count lateness from it) and where it is played.
    starts_at = models.DateTimeField(_("scheduled start"), null=True, blank=True)
    place = models.CharField(_("place"), max_length=120, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_number"),
        ]
        ordering = ["tournament", "number"]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class RoundPlan(models.Model):
    """A round's scheduled start and place set ahead, before it is paired (a round robin's
    whole schedule is public from round 1): pairing the round copies them to it, and
    scheduling a paired round keeps its plan in step (a round discarded and paired again
    keeps its date)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_plans")
    number = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField(_("scheduled start"), null=True, blank=True)
    place = models.CharField(_("place"), max_length=120, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_plan"),
        ]
        ordering = ["tournament", "number"]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number} (planned)"


class ByeRequest(models.Model):
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="bye_requests"
    )
    round_number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    # False: asked by the player on their own page, not yet confirmed by an arbiter (the
    # pairing leaves it out until then); an arbiter's own request is confirmed as made.
    confirmed = models.BooleanField(_("confirmed"), default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "round_number"], name="one_bye_request"
            ),
        ]


class ForbiddenPair(models.Model):
    """Two entrants the pairing must not put together (relatives, a team's members): a hard
    rule of the Swiss pairing, written as TRF's XXP."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs"
    )
    first = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "first", "second"], name="one_forbidden_pair"
            ),
            models.CheckConstraint(
                condition=models.Q(first__lt=models.F("second")), name="forbidden_pair_ordered"
            ),
        ]
        ordering = ["tournament", "first", "second"]
