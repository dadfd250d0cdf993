"""The arbiter's clock adjustments: corrections, latecomers (Art. 6.8, 6.9) and the clock
effect of penalties (Art. 12.4 b, c, 12.5); each has the latest record adjudicated again."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from games.models import ClockAdjustment
from games.selectors import game_first_colour, submission_latest
from games.services.records import submission_requeue
from rules.clock import latecomer_adjustments
from tournaments.models import Colour, Game, Penalty, colour_other
from tournaments.penalty_kinds import penalty_kind
from tournaments.roles import user_can_arbitrate
from tournaments.services.common import acting_account
from tournaments.services.results import game_lock


@transaction.atomic
def clock_adjustment_add(
    *,
    game: Game,
    side: str,
    seconds: int,
    article: str,
    from_ply: int = 1,
    reason: str = "",
    user: Any = None,
    penalty: Penalty | None = None,
) -> ClockAdjustment:
    """Record an arbiter's time adjustment (or a penalty's, naming it) and validate the
    latest record again with it."""
    if user is not None and not user_can_arbitrate(user=user, tournament=game.round.tournament):
        raise PermissionDenied("only this tournament's arbiters adjust clocks")
    if side not in Colour.values:
        raise ValidationError({"side": "green or gold"})
    # The one lock order: tournament, game, then the record queued again below.
    game = game_lock(game)
    adj = ClockAdjustment(
        game=game,
        side=side,
        seconds=seconds,
        article=article,
        from_ply=from_ply,
        reason=reason,
        created_by=acting_account(user),
        penalty=penalty,
    )
    adj.full_clean()
    adj.save()
    latest = submission_latest(game=game)
    if latest is not None:
        submission_requeue(submission=latest)
    return adj


def penalty_clock_effect_apply(*, penalty: Penalty, sign: int, user: Any) -> ClockAdjustment:
    """A penalty of time (Art. 12.4 b, c, 12.5) imposed (sign 1): the side it falls on gains
    or loses its amount; revoked (-1): what it charged is given back on the same side."""
    game = penalty.game
    assert game is not None
    first = penalty.clock_adjustments.order_by("id").first() if sign < 0 else None
    if first is not None:
        side, seconds = first.side, -first.seconds
    else:
        own, seconds = penalty_kind(penalty.kind).clock_change(int(penalty.amount or 0))
        mine = game.colour_of(penalty.player_id, game_first_colour(game=game))
        side, seconds = (mine if own else colour_other(mine)), sign * seconds
    return clock_adjustment_add(
        game=game,
        side=side,
        seconds=seconds,
        article=penalty.article,
        reason=penalty.reason,
        user=user,
        penalty=penalty,
    )


@transaction.atomic
def latecomers_record(
    *,
    game: Game,
    scheduled: datetime,
    green_arrival: datetime | None,
    gold_arrival: datetime | None,
    user: Any = None,
) -> list[ClockAdjustment]:
    """Charge latecomers' clocks (Art. 6.8, 6.9) from the scheduled start and the arrival
    times (None: on time), as clock adjustments from the first ply; the latest record is
    adjudicated again with them. Recorded once per game."""
    locked = game_lock(game)
    if locked.clock_adjustments.filter(article__in=["6.8", "6.9"]).exists():
        raise ValidationError({"arrival": "latecomers are already recorded for this game"})

    def late(arrival: datetime | None) -> int:
        if arrival is None or arrival <= scheduled:
            return 0
        return int((arrival - scheduled).total_seconds())

    charges = latecomer_adjustments(late(green_arrival), late(gold_arrival))
    if not charges:
        raise ValidationError({"arrival": "nobody arrived after the scheduled start"})
    made = []
    for adj in charges:
        side = Colour.GREEN if adj.side == 0 else Colour.GOLD
        minutes, seconds = divmod(-adj.seconds, 60)
        made.append(
            clock_adjustment_add(
                game=locked,
                side=side,
                seconds=adj.seconds,
                article=adj.article,
                reason=f"{side} arrived {minutes} min {seconds} s after the scheduled start",
                user=user,
            )
        )
    return made
