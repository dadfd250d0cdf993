"""Clubs, players, tournaments with their settings, registrations, rounds and bye requests."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    short_name = models.CharField(_("short name"), max_length=20, blank=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    country = models.CharField(_("country"), max_length=3, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    federation = models.CharField(_("federation"), max_length=3, blank=True)
    rating = models.PositiveIntegerField(_("rating"), default=0)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    class PairingSystem(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round robin")
        DOUBLE_ROUND_ROBIN = "double_round_robin", _("Double round robin")
        KNOCKOUT = "knockout", _("Knockout")

    class Ruleset(models.TextChoices):
        LAWS = "laws", _("Laws of Klin Zha")
        LOYD_1989 = "loyd-1989", _("Basic rules (Loyd, 1989)")
        ITALIAN_SOCIETY = "italian-society", _("Italian Klin Zha Society")

    class PlacementOrder(models.TextChoices):
        SPINDLE = "spindle", _("Spindle cast")
        BALANCED = "balanced", _("Balanced by the pairing")

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
        _("time control"), max_length=60, blank=True, help_text=_("Art. 6.4, e.g. 20/1800:1200")
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
    tiebreaks = models.CharField(
        _("tie-breaks"), max_length=200, default="buchholz,sonneborn_berger,wins"
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
    forbid_same_club = models.BooleanField(
        _("no pairings within a club"), default=False, help_text=_("Swiss pairing option")
    )
    accelerated_rounds = models.PositiveSmallIntegerField(
        _("accelerated rounds"),
        default=0,
        help_text=_("Swiss: the top half plays with a virtual point in the first N rounds"),
    )
    standings_version = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Settings that change results: locked once round 1 is paired.
    RESULT_SETTINGS = (
        "ruleset",
        "variants",
        "pairing_system",
        "forfeit_win_points",
        "forfeit_loss_points",
        "bye_points",
        "requested_bye_points",
        "tiebreaks",
        "placement_order",
    )

    class Meta:
        ordering = ["-start_date", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def tiebreak_list(self) -> list[str]:
        return [t.strip() for t in self.tiebreaks.split(",") if t.strip()]


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
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    first_round = models.PositiveSmallIntegerField(
        default=1, help_text=_("late entries join later")
    )
    last_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("last round before withdrawal")
    )

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

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_number"),
        ]
        ordering = ["tournament", "number"]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class ByeRequest(models.Model):
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="bye_requests"
    )
    round_number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "round_number"], name="one_bye_request"
            ),
        ]


class Penalty(models.Model):
    """An arbiter's penalty (Art. 12.4 a-g, 12.5; conduct, Art. 11). Never deleted: a
    mistaken one is revoked by a later entry that points at it."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("a) Warning")
        OPPONENT_TIME = "opponent_time", _("b) More time for the opponent")
        OFFENDER_TIME = "offender_time", _("c) Less time for the offender")
        BATTLE_LOST = "battle_lost", _("d) Battle declared lost")
        REDUCE_POINTS = "reduce_points", _("e) Points in the battle reduced")
        RAISE_OPPONENT = "raise_opponent", _("f) Opponent's points raised to the maximum")
        EXPULSION = "expulsion", _("g) Expulsion")
        EXTRA_TIME = "extra_time", _("12.5 Extra time for outside disturbance")
        DISMISSAL = "dismissal", _("Art. 11 Dismissal from the site")
        REVOCATION = "revocation", _("Revocation of a penalty")

    ARTICLES = {
        "warning": "12.4a",
        "opponent_time": "12.4b",
        "offender_time": "12.4c",
        "battle_lost": "12.4d",
        "reduce_points": "12.4e",
        "raise_opponent": "12.4f",
        "expulsion": "12.4g",
        "extra_time": "12.5",
        "dismissal": "11.1",
        "revocation": "12.4",
    }

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="penalties"
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


class AuditEntry(models.Model):
    """One change, chained to the previous entry of its tournament by SHA-256 so that
    editing or removing an entry shows."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="audit")
    seq = models.PositiveIntegerField()
    actor = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=40)
    object_type = models.CharField(max_length=40)
    object_id = models.CharField(max_length=40, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["tournament", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seq"], name="one_audit_seq"),
        ]

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise PermissionError("the audit trail is append-only")
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise PermissionError("the audit trail is append-only")


class PairingJob(models.Model):
    """A pairing run in a Celery worker for a large field, with its progress for the
    arbiter's page."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for a worker")
        RUNNING = "running", _("Pairing")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pairing_jobs"
    )
    round_number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.FloatField(default=0.0)
    message = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
