"""The arbiter's clock adjustments: corrections (Art. 6.12, 6.13), latecomers (6.8, 6.9) and the
clock effect of penalties (12.4 b, c, 12.5), each from a ply or a moment on, audited; each has
the latest record adjudicated again."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.models import ClockAdjustment
from games.selectors import game_first_colour, submission_latest
from games.services.records import submission_requeue
from klinzha_site.errors import Conflict
from klinzha_site.parsing import reason_check
from klinzha_site.user_types import AnyUser
from rules.clock import latecomer_adjustments
from tournaments.audit import Action, audit_append
from tournaments.models import Colour, Game, Penalty, colour_other
from tournaments.penalty_kinds import penalty_kind
from tournaments.roles import user_can_arbitrate
from tournaments.services.common import acting_account
from tournaments.services.results import game_lock

LATECOMER_ARTICLES = ("6.8", "6.9")
# What a penalty's amount can hold (999999.99 s), either way.
MAX_SECONDS = 999_999


def _arbiter_check(game: Game, user: AnyUser | None) -> None:
    if user is not None and not user_can_arbitrate(user=user, tournament=game.round.tournament):
        raise PermissionDenied(gettext("only this tournament's arbiters adjust clocks"))


def _after_latest_record(game: Game) -> int:
    """The ply after the game's latest record (1 with none): where a ruling made now starts
    when nothing places it better, so that no reading already recorded changes."""
    latest = submission_latest(game=game)
    return (latest.plies or 0) + 1 if latest is not None else 1


def _requeue(game: Game) -> None:
    latest = submission_latest(game=game)
    if latest is not None:
        submission_requeue(submission=latest)


def _as_audit(adj: ClockAdjustment) -> dict[str, Any]:
    return {
        "adjustment": adj.pk,
        "game": adj.game_id,
        "side": adj.side,
        "seconds": adj.seconds,
        "article": adj.article,
        "from_ply": adj.from_ply,
        "at": adj.at.isoformat() if adj.at else None,
        "in_readings": adj.in_readings,
        "penalty": adj.penalty_id,
        "reason": adj.reason,
    }


def _store(
    *,
    game: Game,
    side: str,
    seconds: int,
    article: str,
    from_ply: int,
    at: datetime | None,
    reason: str,
    user: AnyUser | None,
    penalty: Penalty | None = None,
    in_readings: bool = False,
) -> ClockAdjustment:
    """Validate, save and audit one adjustment (the game is locked by the caller)."""
    if side not in Colour.values:
        raise ValidationError({"side": gettext("green or gold")})
    if not -MAX_SECONDS <= seconds <= MAX_SECONDS:
        raise ValidationError(
            {
                "seconds": gettext("from -%(MAX_SECONDS)s to %(MAX_SECONDS)s")
                % {"MAX_SECONDS": MAX_SECONDS}
            }
        )
    if from_ply < 1:
        raise ValidationError({"from_ply": gettext("a ply number of the record, from 1")})
    reason_check(reason, missing=None)
    adj = ClockAdjustment(
        game=game,
        side=side,
        seconds=seconds,
        article=article,
        from_ply=from_ply,
        at=at,
        reason=reason,
        created_by=acting_account(user),
        penalty=penalty,
        in_readings=in_readings,
    )
    adj.full_clean()
    adj.save()
    audit_append(
        tournament=game.round.tournament,
        user=user,
        action=Action.CLOCK_ADJUSTMENT,
        obj=game,  # read as "round 1 board 2 (Kor – Worf)" in the trail
        after=_as_audit(adj),
    )
    return adj


@transaction.atomic
def clock_adjustment_add(
    *,
    game: Game,
    side: str,
    seconds: int,
    article: str,
    from_ply: int | None = 1,
    at: datetime | None = None,
    reason: str = "",
    user: AnyUser | None = None,
    penalty: Penalty | None = None,
) -> ClockAdjustment:
    """Record an arbiter's time adjustment (or a penalty's, naming it) from ply `from_ply`
    (the first reading it changes) or from the moment `at` (placed at the first reading
    taken after it, counted from the round's scheduled start; `from_ply`, or the ply after
    the latest record, where the readings cannot tell), audited; the latest record is
    validated again with it."""
    _arbiter_check(game, user)
    if at is not None and game.round.starts_at is None:
        raise ValidationError(
            {
                "at": gettext(
                    "the round has no scheduled start to count a moment from: give from_ply"
                )
            }
        )
    if from_ply is None and at is None:
        raise ValidationError(
            {"from_ply": gettext("say from which ply (or moment, at) it applies")}
        )
    locked = game_lock(game)
    adj = _store(
        game=locked,
        side=side,
        seconds=seconds,
        article=article,
        from_ply=from_ply if from_ply is not None else _after_latest_record(locked),
        at=at,
        reason=reason,
        user=user,
        penalty=penalty,
    )
    _requeue(locked)
    return adj


@transaction.atomic
def clock_adjustment_revoke(
    *, adjustment: ClockAdjustment, reason: str, user: AnyUser | None
) -> ClockAdjustment:
    """Revoke an arbiter's adjustment or latecomer charge: it stays on record and stops
    counting; the latest record is validated again. A penalty's is undone by revoking the
    penalty (its own audited entry)."""
    game = adjustment.game
    _arbiter_check(game, user)
    if user is None:
        raise PermissionDenied(gettext("only this tournament's arbiters revoke clock adjustments"))
    reason_check(reason, missing=gettext("say why"))
    locked = game_lock(game)
    adj = ClockAdjustment.objects.select_for_update().get(pk=adjustment.pk)
    if adj.penalty_id is not None:
        raise Conflict(gettext("this adjustment is a penalty's effect: revoke the penalty instead"))
    if adj.revoked_at is not None:
        raise Conflict(gettext("this adjustment is already revoked"))
    adj.revoked_at, adj.revoked_by, adj.revoke_reason = (
        timezone.now(),
        acting_account(user),
        reason,
    )
    adj.save(update_fields=["revoked_at", "revoked_by", "revoke_reason"])
    audit_append(
        tournament=locked.round.tournament,
        user=user,
        action=Action.CLOCK_ADJUSTMENT_REVOKED,
        obj=locked,
        before=_as_audit(adj),
        after={"reason": reason},
    )
    _requeue(locked)
    return adj


def penalty_clock_effect_apply(
    *, penalty: Penalty, sign: int, user: AnyUser | None, from_ply: int | None = None
) -> ClockAdjustment:
    """A penalty of time (Art. 12.4 b, c, 12.5) imposed (sign 1): the side it falls on gains
    or loses its amount from `from_ply` on, or else from the moment it is imposed; revoked
    (-1): what it charged is given back on the same side from the same ply or moment, so the
    two cancel on every reading."""
    game = penalty.game
    assert game is not None
    first = penalty.clock_adjustments.order_by("id").first() if sign < 0 else None
    at: datetime | None = None
    ply: int | None
    if first is not None:
        side, seconds, ply, at = first.side, -first.seconds, first.from_ply, first.at
    else:
        own, seconds = penalty_kind(penalty.kind).clock_change(int(penalty.amount or 0))
        mine = game.colour_of(penalty.player_id, game_first_colour(game=game))
        side, seconds = (mine if own else colour_other(mine)), sign * seconds
        ply = from_ply
        if ply is None and game.round.starts_at is not None:
            at = penalty.created_at
        elif ply is None:
            ply = _after_latest_record(game)
    return clock_adjustment_add(
        game=game,
        side=side,
        seconds=seconds,
        article=penalty.article,
        from_ply=ply,
        at=at,
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
    user: AnyUser | None = None,
    running: str | None = None,
) -> list[ClockAdjustment]:
    """Charge latecomers (Art. 6.8, 6.9) from the scheduled start and the arrival times
    (None: on time), from the first ply, audited. A charge the absent combatant's own clock
    ran is recorded in the readings and not applied again; with both late, the clock ran
    for `running` (by default the first placer's, whose clock 6.7 starts) and the other's
    is adjusted. Recorded once per game (revoke the charges to record them anew)."""
    _arbiter_check(game, user)
    if running is not None and running not in Colour.values:
        raise ValidationError({"running": gettext("green or gold")})
    locked = game_lock(game)
    live = locked.clock_adjustments.filter(revoked_at__isnull=True)
    if live.filter(article__in=LATECOMER_ARTICLES).exists():
        raise ValidationError({"arrival": gettext("latecomers are already recorded for this game")})

    def late(arrival: datetime | None) -> int:
        if arrival is None or arrival <= scheduled:
            return 0
        return int((arrival - scheduled).total_seconds())

    lateness = {Colour.GREEN: late(green_arrival), Colour.GOLD: late(gold_arrival)}
    ran = running or game_first_colour(game=locked)
    charges = latecomer_adjustments(
        lateness[Colour.GREEN], lateness[Colour.GOLD], 0 if ran == Colour.GREEN else 1
    )
    if not charges:
        raise ValidationError({"arrival": gettext("nobody arrived after the scheduled start")})
    made = []
    for adj in charges:
        side = Colour.GREEN if adj.side == 0 else Colour.GOLD
        minutes, seconds = divmod(lateness[side], 60)
        how = "its own clock ran" if adj.in_readings else "its clock adjusted"
        made.append(
            _store(
                game=locked,
                side=side,
                seconds=adj.seconds,
                article=adj.article,
                from_ply=adj.from_ply,
                at=None,
                reason=f"{side} arrived {minutes} min {seconds} s after the scheduled start: "
                f"{-adj.seconds} s {how}",
                user=user,
                in_readings=adj.in_readings,
            )
        )
    _requeue(locked)
    return made
