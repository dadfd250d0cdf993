"""Two records of one person merged into one (staff only): the history of the one dropped
(registrations, battles, penalties), its ratings and its account follow the one kept."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, transaction
from django.db.models import Min
from django.utils.translation import gettext

from klinzha_site.errors import Conflict
from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, audit_site_append
from tournaments.models import (
    BattleRating,
    ForbiddenPair,
    Game,
    Penalty,
    PeriodRating,
    Player,
    PoolRating,
    RatingPeriod,
    Registration,
    Tournament,
)
from tournaments.roles import user_may_merge_players
from tournaments.services.common import published_version_bump_for_player
from tournaments.services.ratings import rating_pool_lock

# The identity fields a blank of the kept player takes from the dropped one.
FILLED = (
    "club_id",
    "federation",
    "fide_id",
    "national_id",
    "title",
    "sex",
    "birth_date",
    "rating_source",
    "language",
    "managed_by_id",
)
# Rows of the dropped player rebuilt, not moved: its ratings (rated again, below) and the
# forbidden pairs (stored in id order).
REBUILT = (PeriodRating, PoolRating, ForbiddenPair)


# Every other foreign key to Player (tests/tournaments/services/test_players_merge.py checks
# that no model has one left out): moved to the kept player as they are.
MOVED: tuple[tuple[type[models.Model], str], ...] = (
    (Registration, "player"),
    (Penalty, "player"),
    (Game, "first"),
    (Game, "second"),
    (Game, "spindle_caster"),
    (Game, "spindle_chooser"),
    (BattleRating, "first"),
    (BattleRating, "second"),
)


def _refusal(*, keep: Player, drop: Player) -> None:
    if keep.pk == drop.pk:
        raise ValidationError({"other": gettext("a player cannot be merged with themself")})
    shared = Tournament.objects.filter(registrations__player=keep).filter(
        registrations__player=drop
    )
    names = list(shared.values_list("name", flat=True)[:3])
    if names:
        raise Conflict(
            {
                "other": gettext(
                    "both players are in %(events)s: two entrants of one event stay two players"
                )
                % {"events": ", ".join(names)}
            }
        )
    if keep.user_id is not None and drop.user_id is not None:
        raise Conflict(
            {"other": gettext("both players have an account: unlink one of them first, then merge")}
        )


def _ratings_merge(*, keep: Player, drop: Player) -> list[str]:
    """The dropped player's pool ratings go; every closed period from the first either
    played in after their first shared pool period is marked to be rated again (the next
    ratings run rates it with the battles now the kept player's). The pools marked."""
    firsts = dict(
        PeriodRating.objects.filter(player=drop)
        .values("period__pool")
        .annotate(first=Min("period__sequence"))
        .values_list("period__pool", "first")
    )
    for pool in sorted(firsts):
        rating_pool_lock(pool)
        RatingPeriod.objects.filter(pool=pool, sequence__gte=firsts[pool]).exclude(
            closed_at=None
        ).update(needs_rating=True)
    PeriodRating.objects.filter(player=drop).delete()
    PoolRating.objects.filter(player=drop).delete()
    return sorted(firsts)


def _forbidden_pairs_merge(*, keep: Player, drop: Player) -> None:
    """A forbidden pair of the dropped player becomes the kept player's, in id order."""
    pairs = list(ForbiddenPair.objects.filter(models.Q(first=drop) | models.Q(second=drop)))
    for pair in pairs:
        other = pair.second_id if pair.first_id == drop.pk else pair.first_id
        low, high = sorted((keep.pk, other))
        pair.delete()
        if low != high:
            ForbiddenPair.objects.get_or_create(
                tournament_id=pair.tournament_id, first_id=low, second_id=high
            )


def _identity(player: Player) -> dict[str, object]:
    return {
        "id": player.pk,
        "name": player.name,
        "club": player.club.name if player.club else "",
        "federation": player.federation,
        "fide_id": player.fide_id,
        "national_id": player.national_id,
        "account": player.user.get_username() if player.user else "",
    }


@transaction.atomic
def players_merge(*, keep: Player, drop: Player, user: AnyUser | None = None) -> Player:
    """Merge `drop` into `keep` (staff only): every registration, battle, penalty and
    forbidden pair of `drop` becomes `keep`'s, its account too when `keep` has none, and
    `keep`'s blank identity fields take `drop`'s; `drop` is deleted. Pool ratings: `drop`'s
    go and the periods from its first on are rated again by the next ratings run. Refused
    while both are in one event (two entrants there), or when both have an account. Audited
    in the site's chain, every event of `drop` shown again."""
    if not user_may_merge_players(user):
        raise PermissionDenied(gettext("only staff may merge players"))
    locked = {
        p.pk: p
        for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, drop.pk]).order_by("pk")
    }
    keep, drop = locked.get(keep.pk, keep), locked.get(drop.pk, drop)
    _refusal(keep=keep, drop=drop)
    before = {"kept": _identity(keep), "merged": _identity(drop)}
    for model, name in MOVED:
        model._default_manager.filter(**{name: drop}).update(**{name: keep})
    _forbidden_pairs_merge(keep=keep, drop=drop)
    pools = _ratings_merge(keep=keep, drop=drop)
    for field in FILLED:
        if not getattr(keep, field) and getattr(drop, field):
            setattr(keep, field, getattr(drop, field))
    if not keep.rating and drop.rating:
        keep.rating = drop.rating
    account = drop.user
    drop.user = None
    drop.save(update_fields=["user"])
    if keep.user_id is None and account is not None:
        keep.user = account
    keep.save()
    registrations = Registration.objects.filter(player=keep).count()
    drop.delete()
    published_version_bump_for_player(player_id=keep.pk)  # the events of both now
    audit_site_append(
        user=user,
        action=Action.PLAYERS_MERGED,
        obj=keep,
        before=before,
        after={**_identity(keep), "registrations": registrations, "pools_rerated": pools},
    )
    return keep
