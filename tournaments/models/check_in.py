"""Check-in: the windows in which entrants say they are here, and what each said."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Registration, Tournament

# The round number of the event's own window: one check-in for every round that has none.
EVENT_WINDOW = 0


class CheckInWindow(models.Model):
    """When entrants check in for a round (or, round 0, once for the whole event), and
    whether the arbiter has closed it, having seen who did not."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="check_in_windows"
    )
    round_number = models.PositiveSmallIntegerField(
        _("round"), default=EVENT_WINDOW, help_text=_("0 for the whole event")
    )
    opens_at = models.DateTimeField(_("check-in opens"))
    closes_at = models.DateTimeField(_("check-in closes"))
    # Set when the arbiter confirms the list of who did not check in: the round is then
    # paired with them treated as the event's setting says.
    confirmed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round_number"], name="one_check_in_window"
            ),
        ]
        ordering = ["tournament", "round_number"]

    def __str__(self) -> str:
        return f"{self.tournament} check-in {self.round_number}"


class CheckIn(models.Model):
    """An entrant's check-in for a window's round (or the event's): by themselves, signed in
    or by their private link, or set by an arbiter (who may also mark them absent)."""

    class Via(models.TextChoices):
        ACCOUNT = "account", _("signed in")
        LINK = "link", _("private link")
        ARBITER = "arbiter", _("arbiter")

    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="check_ins"
    )
    round_number = models.PositiveSmallIntegerField(default=EVENT_WINDOW)
    present = models.BooleanField(default=True)
    via = models.CharField(max_length=8, choices=Via.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["registration", "round_number"], name="one_check_in"),
        ]
        ordering = ["registration", "round_number"]
