"""Receivers of Django's own signals: a player who logs in has their mails in that language."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from tournaments.models import Player
from tournaments.services.accounts import player_language_set


@receiver(user_logged_in, dispatch_uid="kz-player-language")
def player_language_remember(
    sender: Any, request: HttpRequest | None, user: User, **_: Any
) -> None:
    """On login, the language of the page logged in from (the /it/, /fr/, /de/ prefix or the
    browser's choice) becomes the player's language of mails."""
    language = getattr(request, "LANGUAGE_CODE", "") if request is not None else ""
    player = Player.objects.filter(user=user).first()
    if player is not None and language:
        player_language_set(player=player, language=language)
