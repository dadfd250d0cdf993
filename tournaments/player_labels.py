"""How a menu or a preview names a player: enough to tell two players of one name apart."""

from __future__ import annotations

from django.utils.translation import gettext

from tournaments.models import Player


def player_label(player: Player) -> str:
    """A player as a menu names them: enough to tell namesakes apart (site id, club,
    federation, FIDE or national id)."""
    parts = [f"#{player.pk}"]
    club = player.club.name if player.club_id is not None and player.club else ""
    parts += [p for p in (club, player.federation) if p]
    if player.fide_id:
        parts.append(gettext("FIDE %(id)s") % {"id": player.fide_id})
    elif player.national_id:
        parts.append(gettext("national id %(id)s") % {"id": player.national_id})
    return f"{player.name} ({', '.join(parts)})"
