"""Penalties of Art. 11 and 12: imposing one takes its effect at once, revoking undoes it;
what each kind needs and does is read from tournaments.penalty_kinds."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from klinzha_site.parsing import reason_check
from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, audit_append
from tournaments.models import Game, Penalty, Player, Registration, Tournament
from tournaments.penalty_kinds import BY_VALUE, Amount, Effect, PenaltyKind, penalty_kind
from tournaments.roles import Role, penalty_role, role_require
from tournaments.selectors import expulsion_standing
from tournaments.services.common import (
    acting_account,
    published_version_bump,
    require_arbiter,
    tournament_lock,
)
from tournaments.services.entrants import registration_reinstate, registration_withdraw
from tournaments.services.notifications import notify_penalty
from tournaments.signals import penalty_clock_effect

# What Penalty.amount holds (8 digits, 2 of them decimals).
MAX_AMOUNT = Decimal("999999.99")
# What Penalty.round_number holds (a small integer on every database).
ROUND_MAX = 32767


def _amount_parse(kind: PenaltyKind, amount: Any) -> Decimal | None:
    if kind.amount == Amount.NONE:
        return None
    try:
        value = Decimal(str(amount))
    except (InvalidOperation, TypeError, ValueError):
        raise ValidationError({"amount": gettext("a number is needed")}) from None
    if not value.is_finite():
        raise ValidationError({"amount": gettext("a number is needed")})
    if value <= 0:
        raise ValidationError({"amount": gettext("must be positive")})
    if value > MAX_AMOUNT:
        raise ValidationError(
            {"amount": gettext("at most %(MAX_AMOUNT)s") % {"MAX_AMOUNT": MAX_AMOUNT}}
        )
    if value != value.quantize(Decimal("0.01")):
        raise ValidationError({"amount": gettext("at most two decimals")})
    return value


@transaction.atomic
def penalty_impose(
    *,
    tournament: Tournament,
    player: Player,
    kind: str,
    reason: str,
    user: AnyUser | None,
    game: Game | None = None,
    round_number: int | None = None,
    amount: Any = None,
    from_ply: int | None = None,
) -> Penalty:
    """Record a penalty and take its effect at once (tournaments.md, Art. 12.4, 12.5); a
    penalty of time from ply `from_ply` of the game's record on, or else from the moment it
    is imposed (games.services.penalty_clock_effect_apply)."""
    if kind not in BY_VALUE:
        # Checked before the role: which role decides depends on the kind.
        role_require(user=user, tournament=tournament, role=Role.ARBITER)
        raise ValidationError({"kind": gettext("unknown penalty %(kind)r") % {"kind": kind}})
    spec = penalty_kind(kind)
    # The role before any lock: whoever may not impose it takes no row lock.
    role_require(user=user, tournament=tournament, role=penalty_role(spec))
    reason_check(reason, missing=gettext("say why"))
    if round_number is not None and not 1 <= round_number <= ROUND_MAX:
        raise ValidationError(
            {"round_number": gettext("a round from 1 to %(ROUND_MAX)s") % {"ROUND_MAX": ROUND_MAX}}
        )
    if from_ply is not None and (not spec.on_clock or from_ply < 1):
        raise ValidationError({"from_ply": gettext("a ply number from 1, for a penalty of time")})
    value = _amount_parse(spec, amount)
    tournament_lock(tournament.pk)
    # Under the lock, what it protects: the player still an entrant, the game still theirs.
    _target_check(tournament, player, game, spec, user)
    penalty = Penalty.objects.create(
        tournament=tournament,
        player=player,
        game=game,
        kind=kind,
        article=spec.article,
        reason=reason,
        amount=value,
        arbiter=acting_account(user),
        round_number=round_number or (game.round.number if game else None),
    )
    _penalty_effect(penalty, spec, sign=1, user=user, from_ply=from_ply)
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.PENALTY,
        obj=penalty,
        after={
            "kind": kind,
            "player": player.pk,
            "game": game.pk if game else None,
            "amount": str(penalty.amount) if penalty.amount is not None else None,
            "reason": reason,
        },
    )
    published_version_bump(tournament)
    notify_penalty(penalty=penalty)
    return penalty


def _target_check(
    tournament: Tournament,
    player: Player,
    game: Game | None,
    spec: PenaltyKind,
    user: AnyUser | None,
) -> None:
    """The penalty's target read again under the tournament's lock: pairings and entrants
    change under the same lock, so what was checked before it could be stale."""
    if not Registration.objects.filter(tournament=tournament, player=player).exists():
        raise ValidationError({"player": gettext("not a combatant of this tournament")})
    if game is not None:
        game = Game.objects.select_related("round__tournament").filter(pk=game.pk).first()
        if game is None:
            raise ValidationError(
                {"game": gettext("that game is gone: its round's pairings were edited")}
            )
    if game is not None and game.round.tournament_id != tournament.pk:
        # The game is another event's: refused as that event's business (403) to whoever
        # holds no role there, as a wrong choice (400) to its own arbiters (issue 14).
        role_require(user=user, tournament=game.round.tournament, role=Role.ARBITER)
        raise ValidationError({"game": gettext("this penalty applies to a game of the tournament")})
    if spec.needs_game and game is None:
        raise ValidationError({"game": gettext("this penalty applies to a game of the tournament")})
    if game is not None and player.pk not in (game.first_id, game.second_id):
        raise ValidationError({"player": gettext("not a combatant of that game")})


def _penalty_effect(
    penalty: Penalty,
    spec: PenaltyKind,
    *,
    sign: int,
    user: AnyUser | None,
    from_ply: int | None = None,
) -> None:
    """Clock and registration effects; result effects are read by the standings."""
    if spec.on_clock:
        penalty_clock_effect.send(
            sender=Penalty, penalty=penalty, sign=sign, user=user, from_ply=from_ply
        )
    elif spec.effect == Effect.EXPULSION:
        reg = Registration.objects.get(tournament=penalty.tournament, player=penalty.player)
        if sign > 0:
            registration_withdraw(registration=reg, user=user, expelled=True)
        elif not _expulsions_in_force(penalty):
            registration_reinstate(registration=reg)


def _expulsions_in_force(revoked: Penalty) -> bool:
    """Whether the player stays out for another expulsion or dismissal than `revoked`."""
    standing = expulsion_standing(
        tournament_id=revoked.tournament_id, player_id=revoked.player_id, besides=revoked.pk
    )
    return standing is not None


@transaction.atomic
def penalty_revoke(*, penalty: Penalty, reason: str, user: AnyUser | None) -> Penalty:
    """Undo a penalty with a new entry; the original stays on record. Revoking takes the
    role imposing its kind takes (an expulsion is the chief arbiter's to take back)."""
    if penalty.kind == Penalty.Kind.REVOCATION:
        require_arbiter(user, penalty.tournament)
        raise ValidationError({"penalty": gettext("a revocation cannot be revoked")})
    spec = penalty_kind(penalty.kind)
    role_require(user=user, tournament=penalty.tournament, role=penalty_role(spec))
    reason_check(reason, missing=gettext("say why"))
    tournament_lock(penalty.tournament_id)
    if Penalty.objects.filter(revokes=penalty).exists():
        raise ValidationError({"penalty": gettext("already revoked")})
    revocation = Penalty.objects.create(
        tournament=penalty.tournament,
        player=penalty.player,
        game=penalty.game,
        kind=Penalty.Kind.REVOCATION,
        article=penalty.article,
        reason=reason,
        revokes=penalty,
        arbiter=acting_account(user),
        round_number=penalty.round_number,
    )
    _penalty_effect(penalty, spec, sign=-1, user=user)
    audit_append(
        tournament=penalty.tournament,
        user=user,
        action=Action.PENALTY_REVOKED,
        obj=revocation,
        before={"penalty": penalty.pk},
        after={"reason": reason},
    )
    published_version_bump(penalty.tournament)
    return revocation
