"""Who may do what: organizers, chief arbiters, arbiters, players and the public."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from tournaments.models import Player, Tournament
from tournaments.penalty_kinds import PenaltyKind


class Role(IntEnum):
    """A user's standing in one tournament; each role includes those below it."""

    PUBLIC = 0
    PLAYER = 1
    ARBITER = 2
    CHIEF_ARBITER = 3
    ORGANIZER = 4


def user_is_organizer(user: Any) -> bool:
    """Organizers create tournaments: staff, or users given the add-tournament permission
    (the "Organizers" group of `kz demo` has it)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or user.has_perm("tournaments.add_tournament"))


def user_is_official(user: Any) -> bool:
    """Organizers and anyone arbitrating some tournament may create players and clubs."""
    if user_is_organizer(user):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.arbitrated_tournaments.exists() or user.chief_arbitrated_tournaments.exists())


def user_role(*, user: Any, tournament: Tournament) -> Role:
    if not getattr(user, "is_authenticated", False):
        return Role.PUBLIC
    if user.is_staff or tournament.organizer_id == user.pk:
        return Role.ORGANIZER
    if tournament.chief_arbiter_id == user.pk:
        return Role.CHIEF_ARBITER
    if tournament.arbiters.filter(pk=user.pk).exists():
        return Role.ARBITER
    if tournament.registrations.filter(player__user=user).exists():
        return Role.PLAYER
    return Role.PUBLIC


def user_can_arbitrate(*, user: Any, tournament: Tournament) -> bool:
    return user_role(user=user, tournament=tournament) >= Role.ARBITER


def tournaments_arbitrated(*, user: Any) -> QuerySet[Tournament]:
    """The tournaments where user_can_arbitrate holds, as one query (for filtering lists):
    every one for staff, none for the anonymous."""
    if not getattr(user, "is_authenticated", False):
        return Tournament.objects.none()
    if user.is_staff:
        return Tournament.objects.all()
    return Tournament.objects.filter(Q(organizer=user) | Q(chief_arbiter=user) | Q(arbiters=user))


def penalty_role(kind: PenaltyKind) -> Role:
    """Who imposes a penalty of `kind` (tournaments.penalty_kinds), and so who may revoke
    it or take its effect back: the chief arbiter (or organizer) for the chief's kinds."""
    return Role.CHIEF_ARBITER if kind.chief_only else Role.ARBITER


def role_require(*, user: Any, tournament: Tournament, role: Role) -> None:
    """Raise PermissionDenied unless `user` holds `role` in `tournament`. `None` is the
    system itself (management commands, the demo, imports), which may do anything."""
    if user is None:
        return
    if user_role(user=user, tournament=tournament) < role:
        # Whole sentences, so each language words its own.
        refusals = {
            Role.ARBITER: gettext("only this tournament's arbiters may do that"),
            Role.CHIEF_ARBITER: gettext(
                "only this tournament's chief arbiter or organizer may do that"
            ),
            Role.ORGANIZER: gettext("only this tournament's organizer may do that"),
        }
        raise PermissionDenied(refusals.get(role) or gettext("only its officials may do that"))


def user_may_edit_player(*, user: Any, player: Player) -> bool:
    """Players are shared across events, so an arbiter (or organizer) of one event must not
    take over a player of another by registering them: staff, the player themself, or the
    organizer of every event the player entered (any organizer for a player in none) may
    change the player or the account linked to them."""
    if user is None:
        return True  # the system itself
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or (player.user_id is not None and player.user_id == user.pk):
        return True
    organizers = set(
        Tournament.objects.filter(registrations__player=player).values_list(
            "organizer_id", flat=True
        )
    )
    if not organizers:
        return user_is_organizer(user)
    return organizers == {user.pk}


def user_player(user: Any) -> Player | None:
    """The player a user account is linked to, if any."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()
