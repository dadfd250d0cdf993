"""Clubs and players."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    short_name = models.CharField(_("short name"), max_length=20, blank=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    country = models.CharField(_("country"), max_length=3, blank=True)
    # Club officials (given by staff) manage the club's members (roles.user_may_manage_player).
    officials = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="clubs_officiated",
        verbose_name=_("club officials"),
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    class RatingSource(models.TextChoices):
        NONE = "", _("none")
        CLUB = "club", _("club")
        NATIONAL = "national", _("national")
        FIDE = "fide", _("FIDE")
        ESTIMATE = "estimate", _("estimate")

    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    federation = models.CharField(_("federation"), max_length=3, blank=True)
    # The declared rating (0: none), from outside the site's own Glicko-2 pools: seeding
    # takes it where the player's pool rating is still provisional (services/ratings_seed).
    rating = models.PositiveIntegerField(_("rating"), default=0)
    # Identity as rating lists and TRF files carry it: a FIDE id and a national id (one
    # field each), the title as written (GM, or TRF16's g), sex and birth date as the file
    # writes them (a year alone, often). Sex and birth date are kept for the TRF export only:
    # no public page or public API read shows them.
    fide_id = models.CharField(_("FIDE id"), max_length=12, blank=True, default="")
    national_id = models.CharField(_("national id"), max_length=20, blank=True, default="")
    title = models.CharField(_("title"), max_length=3, blank=True, default="")
    sex = models.CharField(_("sex"), max_length=1, blank=True, default="")
    birth_date = models.CharField(_("birth date"), max_length=10, blank=True, default="")
    rating_source = models.CharField(
        _("source of the rating"), max_length=10, blank=True, choices=RatingSource.choices
    )
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
