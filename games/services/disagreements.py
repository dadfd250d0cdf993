"""The arbiter's ruling that ends a disagreement between an entered result and the final
record: the record's result is taken, or the entered one stands for a stated reason."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from games.disagreement_selectors import game_disagreement
from games.models import RecordSubmission
from klinzha_site.errors import Conflict
from klinzha_site.parsing import reason_check
from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, audit_append
from tournaments.models import Game
from tournaments.roles import Role, role_require
from tournaments.services.common import published_version_bump
from tournaments.services.results import game_lock, game_result_set

# The two rulings: the result the final record decides, or the entered result stands.
FROM_RECORD = "record"
ENTERED_STANDS = "entered"
DECISIONS = (FROM_RECORD, ENTERED_STANDS)


@transaction.atomic
def result_disagreement_rule(
    *,
    game: Game,
    decision: str,
    reason: str,
    user: AnyUser | None,
    entered: str | None = None,
) -> Game:
    """End a disagreement between the game's entered result and its final valid record
    (games.disagreement_selectors): `record` enters the result the record decides; `entered`
    keeps the entered result against that record, for `reason` (an Article 7 or 12 ruling,
    say), until a newer final record disagrees again. Audited either way. `entered`: the
    entered result the arbiter ruled on (as the console showed it); when another official
    changed it meanwhile the ruling is refused (409), not applied to a result nobody saw."""
    role_require(user=user, tournament=game.round.tournament, role=Role.ARBITER)
    if decision not in DECISIONS:
        raise ValidationError(
            {"decision": gettext("choose %(choices)s") % {"choices": " or ".join(DECISIONS)}}
        )
    missing = gettext(
        "say why the entered result stands against the signed record (the Article 7 or 12 ruling)"
    )
    reason = reason_check(reason, missing=missing if decision == ENTERED_STANDS else None)
    if entered is not None and entered not in Game.Result.values:
        raise ValidationError({"entered": gettext("not a result")})
    locked = game_lock(game)
    if entered is not None and entered != locked.result:
        raise Conflict(
            {
                "entered": gettext(
                    "board %(board)s: the result was changed meanwhile (now %(result)s); "
                    "look at it again before ruling"
                )
                % {"board": locked.board, "result": locked.get_result_display()}
            }
        )
    found = game_disagreement(game=locked)
    if found is None:
        raise Conflict(
            {
                "result": gettext(
                    "board %(board)s: the entered result agrees with the final record, or no "
                    "final valid record decides one; nothing to rule"
                )
                % {"board": locked.board}
            }
        )
    if decision == FROM_RECORD:
        locked = game_result_set(game=locked, result=found.decided, user=user)
    else:
        RecordSubmission.objects.filter(pk=found.record.pk).update(result_upheld=found.entered)
        published_version_bump(locked.round.tournament)
    audit_append(
        tournament=locked.round.tournament,
        user=user,
        action=Action.RESULT_DISAGREEMENT_RULED,
        obj=locked,
        before={
            "result": found.entered,
            "record": found.record.pk,
            "version": found.record.version,
            "record_result": found.decided,
        },
        after={"decision": decision, "result": locked.result, "reason": reason},
    )
    return locked
