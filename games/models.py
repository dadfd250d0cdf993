"""A battle's record: submissions and their verdicts, signing keys and signatures, clock
adjustments and the arbiter's rulings on irregularities."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Colour, Game, Penalty
from tournaments.penalty_kinds import CLOCK_ARTICLES


class RecordSubmission(models.Model):
    """A game record as it came (kept even when it cannot be read) and its verdict."""

    class Source(models.TextChoices):
        PASTE = "paste", _("Pasted text")
        FILE = "file", _("Uploaded file")
        API = "api", _("API")
        BULK = "bulk", _("Bulk upload")
        ARBITER = "arbiter", _("Restored by the arbiter")
        RULING = "ruling", _("Corrected by the arbiter's ruling (Art. 7)")
        ONLINE = "online", _("Played online, written by the server")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for validation")
        VALIDATING = "validating", _("Validating")
        DONE = "done", _("Validated")
        # Its validation raised (or its worker stopped) KZ_VALIDATION_MAX_ATTEMPTS times: it
        # waits for an arbiter to queue it again, `failure_reason` says why.
        FAILED = "failed", _("Validation failed")

    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="submissions"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="record_submissions",
    )
    version = models.PositiveIntegerField(default=1)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.PASTE)
    filename = models.CharField(max_length=255, blank=True)
    raw = models.BinaryField()
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    queued_at = models.DateTimeField(null=True, blank=True)
    # When a worker last claimed it (queued -> validating): the sweep times a validation
    # from here, a wait in the queue from `queued_at`.
    claimed_at = models.DateTimeField(null=True, blank=True)
    # Bumped whenever the record is claimed from the queue or sent back to it: a worker
    # stores its verdict only if the record still has the generation it claimed it with.
    generation = models.PositiveIntegerField(default=0)
    # How often the sweep sent it again; each re-send doubles its wait (KZ_REQUEUE_AFTER).
    resends = models.PositiveIntegerField(default=0)
    # Why its validation failed (the last error), shown to the arbiter.
    failure_reason = models.TextField(blank=True)
    validated_at = models.DateTimeField(null=True, blank=True)
    # the verdict
    readable = models.BooleanField(null=True)
    valid = models.BooleanField(null=True)
    plies = models.PositiveIntegerField(null=True, blank=True)
    error = models.JSONField(null=True, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    termination = models.CharField(max_length=12, blank=True)
    winner = models.CharField(max_length=5, blank=True)
    result_tag = models.CharField(max_length=8, blank=True)
    clock = models.JSONField(null=True, blank=True)
    locked = models.BooleanField(default=False)
    # For records of a bulk upload: how it was matched to its game, or why it was not.
    match_note = models.CharField(max_length=200, blank=True)
    # The entered result the arbiter ruled stands although this final record decides
    # otherwise (games.disagreement_selectors): blank until such a ruling.
    result_upheld = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "queued_at"])]

    def __str__(self) -> str:
        return f"record {self.pk} v{self.version} ({self.status})"

    @property
    def text(self) -> str:
        """The submission decoded for display (undecodable bytes replaced)."""
        return bytes(self.raw).decode("utf-8", errors="replace")


class SigningKey(models.Model):
    """A public key a user registered (made and kept in the browser with WebCrypto)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="signing_keys"
    )
    public_key = models.CharField(max_length=100, unique=True)
    label = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)


class RecordSignature(models.Model):
    class Role(models.TextChoices):
        FIRST = "first", _("First placer")
        SECOND = "second", _("Second placer")
        ARBITER = "arbiter", _("Arbiter")
        # The site's key on the record of a battle played online (games.site_key).
        SITE = "site", _("The site")

    submission = models.ForeignKey(
        RecordSubmission, on_delete=models.CASCADE, related_name="signatures"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    signer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    public_key = models.CharField(max_length=100)
    signature = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["submission", "role"], name="one_signature_per_role"),
        ]


class ClockAdjustment(models.Model):
    """An arbiter's change to a side's remaining time from a ply on: latecomers (Art. 6.8,
    6.9), corrections (6.12, 6.13), penalties (12.4 b, c) and disturbance (12.5)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="clock_adjustments")
    # Those of Art. 12 that change a clock, then the clock rules' own.
    ARTICLES = (*CLOCK_ARTICLES, "6.8", "6.9", "6.12", "6.13")

    side = models.CharField(max_length=5, choices=Colour.choices)
    from_ply = models.PositiveIntegerField(default=1)
    seconds = models.IntegerField(help_text=_("positive adds time, negative takes it away"))
    article = models.CharField(max_length=10)
    reason = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The penalty of time (Art. 12.4 b, c, 12.5) this adjustment is the effect of, or of whose
    # revocation it is (then its seconds are the opposite); blank for the arbiter's own.
    penalty = models.ForeignKey(
        Penalty, null=True, blank=True, on_delete=models.PROTECT, related_name="clock_adjustments"
    )
    # The moment it applies from, when the arbiter gave one (a penalty's, by default): the
    # first ply whose reading was taken after it (rules.clock.ply_at_moment), `from_ply`
    # where the record's readings cannot tell.
    at = models.DateTimeField(null=True, blank=True)
    # A latecomer's charge the clock itself ran (Art. 6.8, and the running clock of 6.9):
    # recorded and shown, never applied to the readings again.
    in_readings = models.BooleanField(default=False)
    # Revoked adjustments stay on record and stop counting.
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    revoke_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["created_at", "id"]


class Irregularity(models.Model):
    """An arbiter's ruling on an irregularity (Art. 7): a new battle after an illegal
    placement (7.1), the battle restored to its last legal position (7.3), or drawn when no
    position can be restored (7.3). Kept for good; the records it replaced stay too."""

    class Kind(models.TextChoices):
        NEW_BATTLE = "new_battle", _("7.1 Illegal placement: a new battle")
        RESTORE = "restore", _("7.3 Restored to the last legal position")
        DRAW = "draw", _("7.3 No legal position can be restored: drawn")
        # A record signed by both combatants (Art. 8.2) is final: only this ruling, with its
        # reason and the corrected record, gives it a new version.
        CORRECTION = "correction", _("7 The signed record corrected by the arbiter")

    ARTICLES = {"new_battle": "7.1", "restore": "7.3", "draw": "7.3", "correction": "7"}

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="irregularities")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    article = models.CharField(max_length=10)
    reason = models.TextField()
    ply = models.PositiveIntegerField(null=True, blank=True, help_text=_("the illegal ply"))
    from_submission = models.ForeignKey(
        RecordSubmission, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    new_submission = models.ForeignKey(
        RecordSubmission, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    arbiter = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]


# The battles played online live in a module of their own; imported here so that Django
# finds them as the app's models.
from games.live_models import LiveBattle, LivePly  # noqa: E402

__all__ = [
    "ClockAdjustment",
    "Irregularity",
    "LiveBattle",
    "LivePly",
    "RecordSignature",
    "RecordSubmission",
    "SigningKey",
]
