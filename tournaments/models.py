"""Clubs, players, tournaments with their settings, registrations, rounds and their games,
bye requests, penalties, the audit trail and pairing jobs."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from rules.position import RULESET_ITALIAN, RULESET_LAWS, RULESET_LOYD_1989
from tournaments import penalty_kinds
from tournaments.validators import time_control_validate


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
    # The language the player's mails are written in: the one they last logged in with, or
    # the arbiter's when invited; blank until then (the site's default).
    language = models.CharField(_("language of mails"), max_length=8, blank=True, default="")
    # Who manages the player (edits them, links their account, invites them): the organizer
    # who made them, or whose event's page an arbiter made them on; null, staff only.
    # Registering the player into an event neither gives nor takes this (roles.py).
    managed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="managed_players",
        verbose_name=_("managed by"),
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

    class FreeRound(models.TextChoices):
        DID_NOT_PLAY = "did_not_play", _("Did not play: no points")
        BYE = "bye", _("A pairing-allocated bye with its points")

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
    # The version of everything the event publishes (its page, standings, crosstable,
    # pairings, its players' pages, their CSV, JSON and API forms): their cache keys carry it,
    # and every service that changes what they show bumps it (published_version_bump).
    published_version = models.PositiveIntegerField(default=0, editable=False)
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
    # The player's rating when registered: the event seeds by it, whatever the rating later.
    rating = models.PositiveIntegerField(_("rating"), default=0)
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


class AuditEntry(models.Model):
    """One change, chained to the previous entry of its tournament by a keyed hash
    (HMAC-SHA256 under the audit key `key_id`) so that editing or removing an entry shows.
    Entries of no tournament (players' accounts) form the site's own chain."""

    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.PROTECT, related_name="audit"
    )
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
    # Which audit key (KZ_AUDIT_KEY_ID) hashed the entry, so that keys can be rotated; empty
    # for a plain SHA-256 written before keyed hashes, which no longer verifies.
    key_id = models.CharField(max_length=32, blank=True, default="")
    # What the hash covers (audit.entry_hash): 1, the entry's fields (entries written before
    # issue 22); 2, also the chain it belongs to, so that chains cannot be swapped.
    hash_version = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["tournament", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seq"], name="one_audit_seq"),
            models.UniqueConstraint(
                fields=["seq"],
                condition=models.Q(tournament__isnull=True),
                name="one_site_audit_seq",
            ),
        ]

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise PermissionError("the audit trail is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise PermissionError("the audit trail is append-only")


class SiteAudit(models.Model):
    """The site's audit chain has no tournament row to lock: this one row is locked instead
    while an entry is appended, so that its entries are numbered one by one."""


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
    # When the job last showed life in the database (queued, started); a running pairing's
    # progress goes to the cache with its time (pairing_selectors.pairing_job_moved_at).
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
