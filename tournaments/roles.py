"""Who may do what: organizers, chief arbiters, arbiters, players and the public."""

from __future__ import annotations

from enum import IntEnum
from typing import TypeGuard

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from klinzha_site.user_types import AnyUser
from tournaments.models import Club, Player, Tournament
from tournaments.penalty_kinds import PenaltyKind


class Role(IntEnum):
    """A user's standing in one tournament; each role includes those below it."""

    PUBLIC = 0
    PLAYER = 1
    ARBITER = 2
    CHIEF_ARBITER = 3
    ORGANIZER = 4


def user_is_organizer(user: AnyUser | None) -> TypeGuard[User]:
    """Organizers create tournaments: staff, or users given the add-tournament permission
    (the "Organizers" group of `kz demo` has it)."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or user.has_perm("tournaments.add_tournament"))


def user_is_rating_officer(user: AnyUser | None) -> bool:
    """Who closes rating periods by hand: staff, or a "rating officer" (the permission
    tournaments.close_ratingperiod, given by staff). Pools are site-wide, so an event's
    arbiters and organizers are not, as such, rating officers."""
    if user is None:
        return True  # the system itself
    if not user.is_authenticated:
        return False
    return bool(user.is_staff or user.has_perm("tournaments.close_ratingperiod"))


def user_may_merge_players(user: AnyUser | None) -> bool:
    """Who merges two players into one: staff only (a merge reaches every event, rating
    pool and account of both, beyond any one organizer's)."""
    if user is None:
        return True  # the system itself (kz, run by who runs the site)
    return bool(user.is_authenticated and user.is_staff)


def user_is_official(user: AnyUser | None) -> bool:
    """Organizers and anyone arbitrating some tournament may create players and clubs."""
    if user_is_organizer(user):
        return True
    if user is None or not user.is_authenticated:
        return False
    return bool(user.arbitrated_tournaments.exists() or user.chief_arbitrated_tournaments.exists())


def user_role(*, user: AnyUser | None, tournament: Tournament) -> Role:
    if user is None or not user.is_authenticated:
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


def user_can_arbitrate(*, user: AnyUser | None, tournament: Tournament) -> bool:
    return user_role(user=user, tournament=tournament) >= Role.ARBITER


def tournaments_arbitrated(*, user: AnyUser | None) -> QuerySet[Tournament]:
    """The tournaments where user_can_arbitrate holds, as one query (for filtering lists):
    every one for staff, none for the anonymous."""
    if user is None or not user.is_authenticated:
        return Tournament.objects.none()
    if user.is_staff:
        return Tournament.objects.all()
    return Tournament.objects.filter(Q(organizer=user) | Q(chief_arbiter=user) | Q(arbiters=user))


def penalty_role(kind: PenaltyKind) -> Role:
    """Who imposes a penalty of `kind` (tournaments.penalty_kinds), and so who may revoke
    it or take its effect back: the chief arbiter (or organizer) for the chief's kinds."""
    return Role.CHIEF_ARBITER if kind.chief_only else Role.ARBITER


def role_require(*, user: AnyUser | None, tournament: Tournament, role: Role) -> None:
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


def user_may_manage_player(*, user: AnyUser | None, player: Player) -> bool:
    """Players are shared across events, so who manages one is not read from their
    registrations (registering a player into one's event neither gives nor takes it): staff,
    the organizer who manages them (Player.managed_by, player_manager_of), or an official of
    the player's own club (Club.officials, named by staff): a club official manages their
    club's members and nobody else's, another club's least of all."""
    if user is None:
        return True  # the system itself
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    if player.managed_by_id is not None and player.managed_by_id == user.pk:
        return True
    return user_is_club_official(user=user, club_id=player.club_id)


def user_is_club_official(*, user: AnyUser | None, club_id: int | None) -> bool:
    """Whether `user` is an official of the club `club_id` (staff name them)."""
    if club_id is None or user is None or not user.is_authenticated:
        return False
    return Club.officials.through.objects.filter(club_id=club_id, user_id=user.pk).exists()


def user_may_edit_player(*, user: AnyUser | None, player: Player) -> bool:
    """Change a player's name, club, federation or rating: who manages them, or the player."""
    if user is not None and player.user_id is not None and player.user_id == user.pk:
        return True
    return user_may_manage_player(user=user, player=player)


def players_editable(*, user: AnyUser | None, players: list[Player]) -> set[int]:
    """The ids of `players` user_may_edit_player allows `user` to change, in one query for
    the clubs they officiate (a club's page lists many members)."""
    if user is None or not user.is_authenticated:
        return set()
    if user.is_staff:
        return {p.pk for p in players}
    clubs = set(
        Club.officials.through.objects.filter(user_id=user.pk).values_list("club_id", flat=True)
    )
    return {
        p.pk
        for p in players
        if user.pk in (p.user_id, p.managed_by_id) or (p.club_id is not None and p.club_id in clubs)
    }


def user_may_invite_player(*, user: AnyUser | None, player: Player) -> bool:
    """Make and link an account for a player who has none: staff, or the organizer who
    manages them while the player is in one of that organizer's own events (a player in no
    event has no trail of theirs to show it: staff only)."""
    if user is None or (user.is_authenticated and user.is_staff):
        return True
    if not user.is_authenticated or not user_may_manage_player(user=user, player=player):
        return False
    return Tournament.objects.filter(registrations__player=player, organizer=user).exists()


def player_link_require(*, user: AnyUser | None, player: Player, account: User | None) -> None:
    """Raise PermissionDenied, saying why, unless `user` may link `account` to `player`
    (None: unlink). Only staff link an account to a player who has one or unlink another's;
    the player may unlink themself; an organizer links only as user_may_invite_player."""
    if user is None or (user.is_authenticated and user.is_staff):
        return
    if not user.is_authenticated:
        raise PermissionDenied(gettext("log in first"))
    if player.user_id is not None and player.user_id == user.pk:
        if account is not None and account.pk != user.pk:
            raise PermissionDenied(
                gettext("a player may unlink their own account, not give it away")
            )
        return
    if player.user_id is not None:
        same = account is not None and account.pk == player.user_id
        if same and user_may_manage_player(user=user, player=player):
            return  # linked already: nothing changes
        raise PermissionDenied(gettext("only staff may change the account of a player who has one"))
    if not user_may_invite_player(user=user, player=player):
        raise PermissionDenied(
            gettext(
                "only staff, or the organizer who manages this player while they are in one "
                "of that organizer's events, may link an account to them"
            )
        )


def player_manager_of(*, user: AnyUser | None, tournament: Tournament | None = None) -> User | None:
    """Who manages a player `user` makes: `tournament`'s organizer when made for it (an
    arbiter's entrant, an imported file), else `user` if an organizer, else nobody (staff)."""
    if tournament is not None:
        return tournament.organizer
    return user if user_is_organizer(user) else None


def user_player(user: AnyUser | None) -> Player | None:
    """The player a user account is linked to, if any."""
    if user is None or not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()
