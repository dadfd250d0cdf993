"""A round of an event played online: publishing it opens each of its battles on the site,
and taking it back is refused while one is under way (games.receivers calls these)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from games.live_models import LiveBattle
from games.services.live_battles import live_battle_open
from klinzha_site.errors import Conflict
from tournaments.models import Game, Round, Tournament

ONLINE = (Tournament.Play.ONLINE_LIVE, Tournament.Play.ONLINE_CORRESPONDENCE)


def _games_to_open(round: Round) -> list[Game]:
    """The round's games with two players and no result yet, by board."""
    return list(
        round.games.filter(second__isnull=False, result=Game.Result.PENDING)
        .select_related("first", "second", "round__tournament")
        .order_by("board")
    )


def live_round_open(*, round: Round) -> list[LiveBattle]:
    """Open a battle for each game of a just-published round of an online event (none for an
    event played over the board). ValidationError, naming the board, when one cannot be
    opened (no site key, a player without an account): the caller's transaction then leaves
    the round a proposal."""
    if round.tournament.play not in ONLINE:
        return []
    opened = []
    for game in _games_to_open(round):
        try:
            opened.append(live_battle_open(game=game))
        except ValidationError as exc:
            why = "; ".join(exc.messages)
            raise ValidationError(
                {
                    "round": gettext("board %(board)s cannot be played online: %(why)s")
                    % {"board": game.board, "why": why}
                }
            ) from None
    return opened


def live_round_take_back(*, round: Round) -> None:
    """Before a round goes back to a proposal: Conflict while one of its battles is under
    way (a ply played, or paused); the battles nobody has played yet are closed."""
    battles = LiveBattle.objects.filter(game__round=round)
    under_way = battles.filter(
        status__in=(LiveBattle.Status.PLAYING, LiveBattle.Status.PAUSED)
    ).order_by("game__board")
    boards = [str(b) for b in under_way.values_list("game__board", flat=True)]
    if boards:
        raise Conflict(
            {
                "round": gettext(
                    "round %(number)s has a battle under way on board %(boards)s: it stands"
                )
                % {"number": round.number, "boards": ", ".join(boards)}
            }
        )
    battles.filter(status=LiveBattle.Status.WAITING, plies__isnull=True).delete()
