"""The audit trails: an event's hash chain and the site's."""

from __future__ import annotations

from django.db import models

from tournaments.models.events import Tournament


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
