"""Clubs, players, their accounts, registrations, withdrawals and requested byes."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F, Max
from django.utils.translation import gettext

from klinzha_site.errors import Conflict
from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, audit_append, audit_site_append
from tournaments.models import ByeRequest, Club, ForbiddenPair, Player, Registration, Tournament
from tournaments.penalty_kinds import penalty_kind
from tournaments.rating_selectors import seeding_ratings
from tournaments.roles import (
    Role,
    penalty_role,
    player_link_require,
    player_manager_of,
    role_require,
    user_may_edit_player,
)
from tournaments.selectors import expulsion_standing
from tournaments.services.common import (
    published_version_bump,
    published_version_bump_for_player,
    require_arbiter,
    require_official,
    tournament_lock,
)

# What the withdrawals' "expelled" flag does: Art. 12.4 g, with who may do it.
EXPULSION = penalty_kind("expulsion")

# A rating has four digits: a TRF player line holds it in columns 49-52.
RATING_MAX = 9999


def rating_refusal(rating: object) -> str:
    """Why a player's rating is refused ("" when it is not): four digits, as a TRF player
    line holds it."""
    if isinstance(rating, int) and not 0 <= rating <= RATING_MAX:
        return gettext("from 0 to %(RATING_MAX)s (four digits, as TRF holds it)") % {
            "RATING_MAX": RATING_MAX
        }
    return ""


@transaction.atomic
def club_create(*, name: str, user: AnyUser | None = None, **fields: Any) -> Club:
    require_official(user)
    club = Club(name=name, **fields)
    club.full_clean()
    club.save()
    return club


@transaction.atomic
def player_create(
    *,
    name: str,
    club: Club | None = None,
    user: AnyUser | None = None,
    tournament: Tournament | None = None,
    **fields: Any,
) -> Player:
    """A new player, managed by `tournament`'s organizer when made for it, else by its
    maker if an organizer (roles.player_manager_of)."""
    require_official(user)
    manager = player_manager_of(user=user, tournament=tournament)
    player = Player(name=name, club=club, managed_by=manager, **fields)
    if rating_refusal(player.rating):
        raise ValidationError({"rating": rating_refusal(player.rating)})
    player.full_clean()
    player.save()
    return player


# What player_update changes: what the events' pages show of a player.
PLAYER_FIELDS = ("name", "club", "federation", "rating", "rating_source")


@transaction.atomic
def player_update(*, player: Player, user: AnyUser | None = None, **fields: Any) -> Player:
    """Rename a player or change their club, federation or rating (a registration keeps
    the rating it was entered with): the pages of every event they entered show it at once.
    Staff, the organizer who manages the player, an official of their club or the player
    (roles.user_may_edit_player)."""
    unknown = sorted(set(fields) - set(PLAYER_FIELDS))
    if unknown:
        raise ValidationError(
            {name: gettext("not a player's field to change here") for name in unknown}
        )
    if user is not None and not user_may_edit_player(user=user, player=player):
        raise PermissionDenied(
            gettext(
                "only staff, the organizer who manages this player, an official of their "
                "club or the player may do that"
            )
        )
    # The one lock order: their tournaments (in id order) before the player.
    for tournament_id in sorted(set(player.registrations.values_list("tournament_id", flat=True))):
        tournament_lock(tournament_id)
    locked = Player.objects.select_for_update().get(pk=player.pk)
    for name, value in fields.items():
        setattr(locked, name, value)
    if rating_refusal(locked.rating):
        raise ValidationError({"rating": rating_refusal(locked.rating)})
    locked.full_clean()
    locked.save(update_fields=list(fields))
    published_version_bump_for_player(player_id=locked.pk)
    return locked


@transaction.atomic
def player_link_user(
    *, player: Player, account: User | None, user: AnyUser | None = None
) -> Player:
    """Link a player to a user account (or unlink with None), so that they can submit and
    sign their records and see their penalties; who may is roles.player_link_require. A
    change is written to the site's audit chain and to the trail of each of their events."""
    stored = Player.objects.get(pk=player.pk)  # its link as stored, not as the caller saw it
    player_link_require(user=user, player=stored, account=account)
    # The tournaments whose trails this writes are locked before the player, in id order:
    # a registration being stored holds its tournament and then refers to the player.
    for tournament_id in sorted(set(player.registrations.values_list("tournament_id", flat=True))):
        tournament_lock(tournament_id)
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if locked.user_id != stored.user_id:  # changed while we waited: decide again
        player_link_require(user=user, player=locked, account=account)
    if account is not None:
        taken = Player.objects.filter(user=account).exclude(pk=locked.pk).first()
        if taken is not None:
            raise ValidationError(
                {"account": gettext("already linked to player %(name)s") % {"name": taken.name}}
            )
    if locked.user_id == (account.pk if account is not None else None):
        return locked  # nothing changes, nothing to write
    before = {"account": locked.user.get_username() if locked.user else None}
    after = {"account": account.get_username() if account else None}
    locked.user = account
    locked.save(update_fields=["user"])
    for reg in locked.registrations.select_related("tournament"):
        audit_append(
            tournament=reg.tournament,
            user=user,
            action=Action.PLAYER_ACCOUNT,
            obj=locked,
            before=before,
            after=after,
        )
    audit_site_append(
        user=user, action=Action.PLAYER_ACCOUNT, obj=locked, before=before, after=after
    )
    return locked


@transaction.atomic
def registration_create(
    *,
    tournament: Tournament,
    player: Player,
    user: AnyUser | None = None,
    first_round: int | None = None,
) -> Registration:
    """Register a player; after round 1 is paired this is a late entry from the next round."""
    require_arbiter(user, tournament)
    paired = tournament.rounds.count()
    if first_round is None:
        first_round = paired + 1
    if first_round <= paired:
        raise ValidationError(
            {"first_round": gettext("round %(paired)s is already paired") % {"paired": paired}}
        )
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        raise ValidationError({"player": gettext("already registered")})
    if paired and tournament.pairing_system != Tournament.PairingSystem.SWISS:
        raise Conflict(
            {
                "player": gettext(
                    "the %(pairing_system)s is fixed once round 1 is paired: no late entry"
                )
                % {"pairing_system": tournament.get_pairing_system_display().lower()}
            }
        )
    tournament_lock(tournament.pk)
    entrants = Registration.objects.filter(tournament=tournament)
    rating, basis = seeding_ratings(tournament=tournament, players=[player])[player.pk]
    if paired:
        rank = entrants.count() + 1  # a late entry joins below everyone seeded already
    else:
        rank = _start_rank_of_newcomer(tournament=tournament, player=player, rating=rating)
        # Only the rows below the newcomer move, in one statement.
        entrants.filter(start_rank__gte=rank).update(start_rank=F("start_rank") + 1)
    reg = Registration(
        tournament=tournament,
        player=player,
        first_round=first_round,
        start_rank=rank,
        rating=rating,
        rating_basis=basis,
    )
    reg.full_clean()
    reg.save()
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.LATE_ENTRY if paired else Action.REGISTRATION,
        obj=reg,
        after={
            "player": player.name,
            "first_round": first_round,
            "start_rank": rank,
            "rating": reg.rating,
        },
    )
    published_version_bump(tournament)
    return reg


@transaction.atomic
def entrant_register(
    *,
    tournament: Tournament,
    player: Player | None,
    name: str = "",
    club: Club | None = None,
    rating: int | None = None,
    user: AnyUser | None = None,
) -> Registration:
    """Register `player`, or a new player made for this tournament from `name`, `club` and
    `rating`, in one transaction: a refused registration leaves no new player behind."""
    if player is None:
        player = player_create(
            name=name, club=club, rating=rating or 0, user=user, tournament=tournament
        )
    return registration_create(tournament=tournament, player=player, user=user)


def _start_rank_of_newcomer(*, tournament: Tournament, player: Player, rating: int) -> int:
    """Before round 1 the field is seeded (seeding_key): the newcomer goes just below the
    last entrant seeded ahead of them, and an order the arbiter set by hand stays. One with
    no rank (the admin's form may leave it blank) neither counts nor moves. Read without
    loading the field: the highest rank of those rated higher, and of those rated the same
    whose name (casefolded, as Python orders it, not the database) comes first or equal."""
    ranked = Registration.objects.filter(tournament=tournament, start_rank__isnull=False)
    higher = ranked.filter(rating__gt=rating).aggregate(top=Max("start_rank"))["top"]
    mine = player.name.casefold()
    level = ranked.filter(rating=rating).values_list("start_rank", "player__name")
    ahead = [rank for rank, name in level if rank is not None and name.casefold() <= mine]
    return max([higher or 0, *ahead]) + 1


def _by_start_rank(tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("start_rank", "id")
    )


def seeding_key(reg: Registration) -> tuple[int, str, int]:
    """The seeding order: rating (highest first), then name, then who registered first (the
    Klin Zha sources know no titles; FIDE's practice seeds by rating, then title, then
    name)."""
    return (-reg.rating, reg.player.name.casefold(), reg.pk)


def _ranks_check(tournament: Tournament) -> None:
    if tournament.rounds.exists():
        raise Conflict({"start_rank": gettext("round 1 is paired: the start ranks are fixed")})


def _ranks_store(
    tournament: Tournament, order: list[Registration], user: AnyUser | None
) -> list[Registration]:
    before = {r.player_id: r.start_rank for r in order}
    for rank, reg in enumerate(order, start=1):
        reg.start_rank = rank
    Registration.objects.bulk_update(order, ["start_rank"])
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.START_RANKS,
        obj=tournament,
        before={"start_ranks": [[r.player.name, before[r.player_id]] for r in order]},
        after={"start_ranks": [[r.player.name, r.start_rank] for r in order]},
    )
    published_version_bump(tournament)
    return order


@transaction.atomic
def start_ranks_sort(*, tournament: Tournament, user: AnyUser | None = None) -> list[Registration]:
    """Seed the field again by rating (seeding_key), until round 1 is paired, each entrant's
    rating snapshot taken again first (seeding_ratings: the pool's may have moved)."""
    require_arbiter(user, tournament)
    tournament_lock(tournament.pk)
    _ranks_check(tournament)
    field = _by_start_rank(tournament)
    fresh = seeding_ratings(tournament=tournament, players=[r.player for r in field])
    for reg in field:
        reg.rating, reg.rating_basis = fresh[reg.player_id]
    Registration.objects.bulk_update(field, ["rating", "rating_basis"])
    return _ranks_store(tournament, sorted(field, key=seeding_key), user)


@transaction.atomic
def start_rank_move(
    *, registration: Registration, rank: int, user: AnyUser | None = None
) -> list[Registration]:
    """Move one entrant to start rank `rank`, the others closing up, until round 1 is
    paired."""
    tournament = registration.tournament
    require_arbiter(user, tournament)
    tournament_lock(tournament.pk)
    _ranks_check(tournament)
    order = _by_start_rank(tournament)
    if not 1 <= rank <= len(order):
        raise ValidationError(
            {"rank": gettext("a start rank from 1 to %(count)s") % {"count": len(order)}}
        )
    moving = next(r for r in order if r.pk == registration.pk)
    order.remove(moving)
    order.insert(rank - 1, moving)
    return _ranks_store(tournament, order, user)


@transaction.atomic
def registration_withdraw(
    *, registration: Registration, user: AnyUser | None = None, expelled: bool = False
) -> Registration:
    """Withdraw (or expel, Art. 12.4 g) from all later rounds; played games stand. Only an
    active player withdraws (409 otherwise: an expelled one comes back by revoking the
    penalty, never through a withdrawal and its undo). Expelling takes the role that
    imposes an expulsion, and keeps the round after which a player already out left."""
    role = penalty_role(EXPULSION) if expelled else Role.ARBITER
    role_require(user=user, tournament=registration.tournament, role=role)
    tournament_lock(registration.tournament_id)  # the one lock order: tournament first
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if not expelled:
        _out_refuse(reg)
        if reg.status != Registration.Status.ACTIVE:
            raise Conflict(
                {
                    "player": gettext("%(name)s has withdrawn already, after round %(round)s")
                    % {"name": reg.player.name, "round": reg.last_round or 0}
                }
            )
    if reg.status == Registration.Status.ACTIVE:
        reg.last_round = reg.tournament.rounds.count()
    elif expelled and reg.status == Registration.Status.WITHDRAWN:
        reg.withdrew_before_expulsion = True
    reg.status = Registration.Status.EXPELLED if expelled else Registration.Status.WITHDRAWN
    reg.withdrawal_asked_at = None  # asked and now done
    reg.save(
        update_fields=["status", "last_round", "withdrew_before_expulsion", "withdrawal_asked_at"]
    )
    audit_append(
        tournament=reg.tournament,
        user=user,
        action=Action.WITHDRAWAL,
        obj=reg,
        after={"status": reg.status},
    )
    published_version_bump(reg.tournament)
    return reg


def _out_refuse(reg: Registration) -> None:
    """409 while the player is expelled (or an expulsion or dismissal of theirs stands):
    only revoking the penalty brings them back, with the role that imposed it."""
    standing = expulsion_standing(tournament_id=reg.tournament_id, player_id=reg.player_id)
    if standing is None and reg.status != Registration.Status.EXPELLED:
        return
    article = standing.article if standing else EXPULSION.article
    raise Conflict(
        {
            "player": gettext(
                "%(name)s was expelled (Art. %(article)s); only revoking the penalty can "
                "bring them back"
            )
            % {"name": reg.player.name, "article": article}
        }
    )


@transaction.atomic
def registration_withdrawal_undo(
    *, registration: Registration, user: AnyUser | None = None
) -> Registration:
    """Take a withdrawal back while no round has been paired since; an expulsion is undone
    by revoking its penalty (409 while one stands)."""
    require_arbiter(user, registration.tournament)
    tournament_lock(registration.tournament_id)
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.status == Registration.Status.ACTIVE:
        raise Conflict(
            {"player": gettext("%(name)s has not withdrawn") % {"name": reg.player.name}}
        )
    _out_refuse(reg)
    if reg.tournament.rounds.count() > (reg.last_round or 0):
        raise Conflict(
            {
                "player": gettext("round %(number)s was paired since the withdrawal")
                % {"number": (reg.last_round or 0) + 1}
            }
        )
    reg = registration_reinstate(registration=reg)
    audit_append(
        tournament=reg.tournament,
        user=user,
        action=Action.WITHDRAWAL,
        obj=reg,
        before={"status": Registration.Status.WITHDRAWN},
        after={"status": reg.status, "player": reg.player.name},
    )
    return reg


@transaction.atomic
def registration_reinstate(*, registration: Registration) -> Registration:
    """Undo a withdrawal or expulsion (a revoked expulsion): the player is active again, or
    withdrawn as before when they had withdrawn before the expulsion."""
    tournament_lock(registration.tournament_id)  # the one lock order: tournament first
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    if reg.status == Registration.Status.EXPELLED and reg.withdrew_before_expulsion:
        reg.status = Registration.Status.WITHDRAWN
    else:
        reg.status = Registration.Status.ACTIVE
        reg.last_round = None
    reg.withdrew_before_expulsion = False
    reg.save(update_fields=["status", "last_round", "withdrew_before_expulsion"])
    published_version_bump(reg.tournament)
    return reg


def bye_request_check(*, registration: Registration, round_number: int) -> None:
    """Why a bye of that round cannot be asked for (whoever asks): the event's system, the
    player's status, their first round, a round paired already or beyond the event's."""
    tournament = registration.tournament
    if tournament.pairing_system != Tournament.PairingSystem.SWISS:
        raise Conflict(
            {
                "round_number": gettext(
                    "requested byes are for Swiss events: a round robin's table and a knockout's "
                    "bracket pair everyone"
                )
            }
        )
    if registration.status != Registration.Status.ACTIVE:
        raise Conflict(
            {"player": gettext("%(name)s has left the event") % {"name": registration.player.name}}
        )
    if round_number < registration.first_round:
        raise ValidationError(
            {
                "round_number": gettext("%(name)s enters in round %(first_round)s")
                % {"name": registration.player.name, "first_round": registration.first_round}
            }
        )
    if tournament.rounds.filter(number=round_number).exists():
        raise Conflict(
            {
                "round_number": gettext("round %(round_number)s is already paired")
                % {"round_number": round_number}
            }
        )
    if round_number > registration.tournament.rounds_planned:
        raise ValidationError(
            {
                "round_number": gettext("the tournament has %(rounds_planned)s rounds")
                % {"rounds_planned": registration.tournament.rounds_planned}
            }
        )


@transaction.atomic
def bye_request_create(
    *, registration: Registration, round_number: int, user: AnyUser | None = None
) -> ByeRequest:
    """An arbiter's requested bye; one the player asked for is confirmed by it."""
    tournament = registration.tournament
    require_arbiter(user, tournament)
    bye_request_check(registration=registration, round_number=round_number)
    bye, made = ByeRequest.objects.get_or_create(
        registration=registration, round_number=round_number
    )
    if made or not bye.confirmed:
        after: dict[str, Any] = {"player": registration.player.name, "round": round_number}
        if not made:
            bye.confirmed = True
            bye.save(update_fields=["confirmed"])
            after["confirmed"] = True
        audit_append(
            tournament=tournament,
            user=user,
            action=Action.BYE_REQUEST,
            obj=registration,
            after=after,
        )
    return bye


@transaction.atomic
def bye_request_cancel(
    *, registration: Registration, round_number: int, user: AnyUser | None = None
) -> int:
    """Cancel a requested bye of a round not yet paired; the number cancelled (0 or 1)."""
    require_arbiter(user, registration.tournament)
    if registration.tournament.rounds.filter(number=round_number).exists():
        raise Conflict(
            {
                "round_number": gettext("round %(round_number)s is already paired")
                % {"round_number": round_number}
            }
        )
    deleted, _ = ByeRequest.objects.filter(
        registration=registration, round_number=round_number
    ).delete()
    if deleted:
        audit_append(
            tournament=registration.tournament,
            user=user,
            action=Action.BYE_REQUEST_CANCELLED,
            obj=registration,
            before={"player": registration.player.name, "round": round_number},
        )
    return deleted


@transaction.atomic
def forbidden_pair_create(
    *, tournament: Tournament, first: Player, second: Player, user: AnyUser | None = None
) -> ForbiddenPair:
    """Two entrants the pairing must not put together (kept in id order)."""
    require_arbiter(user, tournament)
    if first.pk == second.pk:
        raise ValidationError({"second": gettext("a pair needs two players")})
    entrants = set(
        Registration.objects.filter(tournament=tournament, player__in=[first, second]).values_list(
            "player_id", flat=True
        )
    )
    if entrants != {first.pk, second.pk}:
        raise ValidationError(
            {"player": gettext("both players must be entrants of this tournament")}
        )
    a, b = sorted((first, second), key=lambda p: p.pk)
    pair, _ = ForbiddenPair.objects.get_or_create(tournament=tournament, first=a, second=b)
    return pair


@transaction.atomic
def forbidden_pair_delete(
    *, tournament: Tournament, first: Player, second: Player, user: AnyUser | None = None
) -> int:
    require_arbiter(user, tournament)
    a, b = sorted((first.pk, second.pk))
    deleted, _ = ForbiddenPair.objects.filter(
        tournament=tournament, first_id=a, second_id=b
    ).delete()
    return deleted
