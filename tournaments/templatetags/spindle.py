"""`{% game_spindle game as s %}`: a battle's spindle cast and choice (Art. 2.3) for the
pairings and the game page, the combatants by name."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Game
from tournaments.selectors import game_spindle as spindle_read

register = template.Library()


@register.simple_tag
def game_spindle(game: Game) -> dict[str, Any] | None:
    """The cast as the API gives it, with each id's name beside it (`*_name`) and the casts
    as (first caster's, second caster's) pairs."""
    summary = spindle_read(game)
    if summary is None:
        return None
    names = {
        game.first_id: game.first.name,
        game.second_id: game.second.name if game.second else "",
    }
    a, b = summary["casters"]
    return {
        **summary,
        "caster_names": (names[a], names[b]),
        "option_name": names[summary["option"]],
        "chooser_name": names.get(summary["chooser"], ""),
        "first_placer_name": names[summary["first_placer"]],
        "cast_text": "; ".join(f"{x}–{y}" for x, y in summary["casts"]),
    }
