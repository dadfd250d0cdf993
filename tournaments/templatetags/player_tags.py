"""`{{ player|player_label }}`: a player as a menu names them, namesakes told apart."""

from __future__ import annotations

from django import template

from tournaments.models import Player
from tournaments.player_labels import player_label as label_of

register = template.Library()


@register.filter
def player_label(player: Player) -> str:
    """The name with the site id, club, federation and FIDE or national id (the club read
    through the relation: select_related("player__club") keeps it one query)."""
    return label_of(player)
