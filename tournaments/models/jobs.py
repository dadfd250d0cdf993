"""Pairing jobs run by the worker."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Tournament


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
