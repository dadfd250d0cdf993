"""Results of games: entering or correcting one, and the second person's confirmation."""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, audit_append
from tournaments.models import Game, Round, Tournament
from tournaments.services.common import (
    acting_account,
    published_version_bump,
    require_arbiter,
    tournament_lock,
)
from tournaments.services.notifications import notify_result_to_confirm

# The booklet's "Partita patta": a draw "in caso di torneo ... non è contemplata".
ITALIAN_NO_DRAW = (
    "the Italian Klin Zha Society's rules have no draws in a tournament (italian-society: "
    'tournament, "Partita patta"): a battle is won, decided by the time-out count, or, '
    "when no position can be restored (7.3), annulled and replayed"
)


def game_lock(game: Game) -> Game:
    """The game's row locked after its tournament's (the one lock order of every service),
    with its round and tournament loaded."""
    tournament_id = Game.objects.values_list("round__tournament_id", flat=True).get(pk=game.pk)
    tournament_lock(tournament_id)
    return (
        Game.objects.select_for_update(of=("self",), no_key=True)
        .select_related("round__tournament")
        .get(pk=game.pk)
    )


def game_arbiter_require(*, game: Game, user: AnyUser | None) -> None:
    """PermissionDenied unless `user` arbitrates the game's tournament (read without a
    lock): checked before game_lock, so a caller without the role takes no row lock."""
    if user is not None:
        require_arbiter(user, Tournament.objects.get(rounds__games__pk=game.pk))


@transaction.atomic
def game_result_set(*, game: Game, result: str, user: AnyUser | None = None) -> Game:
    """Enter or correct a result. Entering the same result twice changes nothing. With the
    tournament's result_confirmation on, the result waits for a second account's
    confirmation (game_result_countersign) before it counts. The role is checked before
    any lock; under the locks, the round must still be published."""
    game_arbiter_require(game=game, user=user)
    locked = game_lock(game)
    tournament = locked.round.tournament
    if result not in Game.Result.values:
        raise ValidationError({"result": gettext("unknown result %(result)r") % {"result": result}})
    if locked.kind != Game.Kind.GAME:
        raise ValidationError({"result": gettext("a bye has no result to enter")})
    if locked.round.status == Round.Status.DRAFT:
        raise ValidationError({"result": gettext("the round is not published yet")})
    if result == Game.Result.DRAW and tournament.ruleset == Tournament.Ruleset.ITALIAN_SOCIETY:
        raise ValidationError({"result": ITALIAN_NO_DRAW})
    if locked.result == result:
        return locked
    before = locked.result
    account = acting_account(user)
    now = timezone.now()
    locked.result = result
    locked.result_entered_by = account
    locked.result_entered_at = now
    if tournament.result_confirmation and result and account is not None:
        locked.result_confirmed_by, locked.result_confirmed_at = None, None
    else:
        locked.result_confirmed_by, locked.result_confirmed_at = account, now
    locked.save(
        update_fields=[
            "result",
            "result_entered_by",
            "result_entered_at",
            "result_confirmed_by",
            "result_confirmed_at",
        ]
    )
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.RESULT,
        obj=locked,
        before={"result": before},
        after={"result": result},
    )
    published_version_bump(tournament)
    if locked.result and locked.result_confirmed_at is None:
        notify_result_to_confirm(game=locked, entered_by=account)
    return locked


@transaction.atomic
def game_result_countersign(*, game: Game, user: AnyUser | None) -> Game:
    """The second person's confirmation of an entered result: never the account that
    entered it. The role is checked before any lock."""
    game_arbiter_require(game=game, user=user)
    locked = game_lock(game)
    tournament = locked.round.tournament
    if not locked.result:
        raise ValidationError({"result": gettext("no result has been entered")})
    if locked.result_confirmed_at is not None:
        raise ValidationError({"result": gettext("the result is confirmed already")})
    if locked.result_entered_by_id == getattr(user, "pk", None):
        raise ValidationError(
            {
                "result": gettext(
                    "a result is confirmed by a second person, not by the one who entered it"
                )
            }
        )
    locked.result_confirmed_by = acting_account(user)
    locked.result_confirmed_at = timezone.now()
    locked.save(update_fields=["result_confirmed_by", "result_confirmed_at"])
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.RESULT_CONFIRMED,
        obj=locked,
        after={"result": locked.result},
    )
    published_version_bump(tournament)
    return locked


@transaction.atomic
def round_results_set(
    *, round: Round, results: Mapping[int, str], user: AnyUser | None = None
) -> list[Game]:
    """A round's results entered at once (the console's grid), board by board through
    game_result_set: all or none. Every refused board is named (ValidationError keyed
    "board N") and then no board is saved, so a typo never leaves half a round entered."""
    require_arbiter(user, round.tournament)
    tournament_lock(round.tournament_id)
    games = {g.board: g for g in round.games.all()}
    errors: dict[str, str] = {}
    saved = []
    for board in sorted(results):
        game = games.get(board)
        if game is None:
            errors[f"board {board}"] = f"round {round.number} has no board {board}"
            continue
        try:
            with transaction.atomic():  # a savepoint: the other boards are still tried
                saved.append(game_result_set(game=game, result=results[board], user=user))
        except ValidationError as exc:
            errors[f"board {board}"] = " ".join(exc.messages)
    if errors:
        raise ValidationError(errors)
    return saved
