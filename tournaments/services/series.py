"""Writes of series: make one with its events and categories, invite another organizer's
event, that organizer's consent or refusal, and an event's removal; each an audit entry."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext

from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, audit_append, audit_site_append
from tournaments.models import Player, Series, SeriesCategory, SeriesEvent, Tournament
from tournaments.rating_selectors import tournament_pool
from tournaments.roles import Role, role_require, user_is_organizer
from tournaments.series_scoring import DEFAULT_TABLE
from tournaments.services.common import acting_account, published_version_bump, tournament_lock

MAX_TABLE = 200
MAX_EVENTS = 100


def _table_check(table: Sequence[Any]) -> list[float]:
    if len(table) > MAX_TABLE:
        raise ValidationError({"points_table": gettext("at most 200 places")})
    try:
        points = [float(x) for x in table]
    except (TypeError, ValueError):
        raise ValidationError({"points_table": gettext("the points must be numbers")}) from None
    if any(not 0 <= x <= 10000 for x in points):
        raise ValidationError({"points_table": gettext("each place's points are 0 to 10000")})
    return points


def _categories_make(series: Series, categories: Sequence[dict[str, Any]]) -> None:
    """Rating bands ({"name", "low", "high"}) and named groups ({"name", "players"})."""
    for spec in categories:
        name = str(spec.get("name", "")).strip()
        players = spec.get("players")
        category = SeriesCategory(
            series=series,
            name=name,
            low=spec.get("low"),
            high=spec.get("high"),
            is_group=players is not None,
        )
        category.full_clean()
        category.save()
        if players is not None:
            found = list(Player.objects.filter(pk__in=players))
            if len(found) != len(set(players)):
                raise ValidationError({"categories": gettext("no such player in a category")})
            category.players.set(found)


def _joins_at_once(*, user: AnyUser | None, tournament: Tournament) -> bool:
    """The series' maker's own events (staff's, the system's: any) join at once; another
    organizer's waits for their consent."""
    if user is None or (user.is_authenticated and user.is_staff):
        return True
    return tournament.organizer_id is not None and tournament.organizer_id == user.pk


def _event_add(*, series: Series, tournament: Tournament, user: AnyUser | None) -> SeriesEvent:
    tournament_lock(tournament.pk)
    status = (
        SeriesEvent.Status.ACCEPTED
        if _joins_at_once(user=user, tournament=tournament)
        else SeriesEvent.Status.INVITED
    )
    membership, made = SeriesEvent.objects.get_or_create(
        series=series,
        tournament=tournament,
        defaults={"status": status, "invited_by": acting_account(user)},
    )
    if made and status == SeriesEvent.Status.ACCEPTED:
        published_version_bump(tournament)  # its page names its series
    if made:
        action = (
            Action.SERIES_EVENT_ACCEPTED
            if status == SeriesEvent.Status.ACCEPTED
            else Action.SERIES_EVENT_INVITED
        )
        audit_append(
            tournament=tournament,
            user=user,
            action=action,
            obj=membership,
            after={"series": series.slug, "status": status},
        )
    return membership


@transaction.atomic
def series_create(
    *,
    name: str,
    slug: str,
    user: AnyUser | None,
    events: Sequence[Tournament] = (),
    scoring: str = Series.Scoring.PLACING,
    points_table: Sequence[Any] | None = None,
    best_of: int | None = None,
    pool: str | None = None,
    starts_on: dt.date | None = None,
    categories: Sequence[dict[str, Any]] = (),
) -> Series:
    """A new series of `user`'s: their own events join at once, another organizer's are
    invited (series_event_accept). The pool and start default to the first event's."""
    if user is not None and not user_is_organizer(user):
        raise PermissionDenied(gettext("only organizers may make a series"))
    if len(events) > MAX_EVENTS:
        raise ValidationError({"events": gettext("at most 100 events")})
    if Series.objects.filter(slug=slug).exists():
        raise ValidationError({"slug": gettext("a series with this slug exists")})
    if best_of is not None and best_of < 1:
        raise ValidationError({"best_of": gettext("best N is at least 1")})
    first = min(events, key=lambda t: t.start_date, default=None)
    series = Series(
        name=name,
        slug=slug,
        organizer=user if isinstance(user, User) and user.is_authenticated else None,
        scoring=scoring,
        points_table=_table_check(DEFAULT_TABLE if points_table is None else points_table),
        best_of=best_of,
        pool=pool or (tournament_pool(tournament=first) if first else "laws"),
        starts_on=starts_on or (first.start_date if first else None),
    )
    series.full_clean()
    series.save()
    _categories_make(series, categories)
    audit_site_append(
        user=user,
        action=Action.SERIES_CREATED,
        obj=series,
        after={"slug": slug, "events": [t.slug for t in events], "scoring": scoring},
    )
    for tournament in sorted(events, key=lambda t: t.pk):
        _event_add(series=series, tournament=tournament, user=user)
    return series


def series_manage_require(*, series: Series, user: AnyUser | None) -> None:
    """Only the series' organizer (or staff) changes it."""
    if user is None or (user.is_authenticated and user.is_staff):
        return
    if not user.is_authenticated or series.organizer_id != user.pk:
        raise PermissionDenied(gettext("only this series' organizer may do that"))


@transaction.atomic
def series_event_add(
    *, series: Series, tournament: Tournament, user: AnyUser | None
) -> SeriesEvent:
    """Add an event: the organizer's own joins, another organizer's is invited."""
    series_manage_require(series=series, user=user)
    if series.memberships.count() >= MAX_EVENTS:
        raise ValidationError({"events": gettext("at most 100 events")})
    return _event_add(series=series, tournament=tournament, user=user)


@transaction.atomic
def series_event_accept(
    *, series: Series, tournament: Tournament, user: AnyUser | None
) -> SeriesEvent:
    """The event's organizer consents: their event counts in the series from now on."""
    role_require(user=user, tournament=tournament, role=Role.ORGANIZER)
    tournament_lock(tournament.pk)
    membership = (
        SeriesEvent.objects.select_for_update().filter(series=series, tournament=tournament).first()
    )
    if membership is None:
        raise ValidationError({"series": gettext("this event was not invited to the series")})
    if membership.status != SeriesEvent.Status.ACCEPTED:
        membership.status = SeriesEvent.Status.ACCEPTED
        membership.save(update_fields=["status"])
        published_version_bump(tournament)
        audit_append(
            tournament=tournament,
            user=user,
            action=Action.SERIES_EVENT_ACCEPTED,
            obj=membership,
            after={"series": series.slug, "status": membership.status},
        )
    return membership


@transaction.atomic
def series_event_decline(*, series: Series, tournament: Tournament, user: AnyUser | None) -> None:
    """The invited event's organizer refuses: the invitation goes (the series' organizer may
    invite again). An event that already counts leaves only by the series' organizer."""
    role_require(user=user, tournament=tournament, role=Role.ORGANIZER)
    tournament_lock(tournament.pk)
    membership = (
        SeriesEvent.objects.select_for_update().filter(series=series, tournament=tournament).first()
    )
    if membership is None:
        raise ValidationError({"series": gettext("this event was not invited to the series")})
    if membership.status != SeriesEvent.Status.INVITED:
        text = gettext(
            "this event already counts in the series; the series' organizer may remove it"
        )
        raise ValidationError({"series": text})
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.SERIES_EVENT_DECLINED,
        obj=membership,
        before={"series": series.slug, "status": membership.status},
    )
    membership.delete()


@transaction.atomic
def series_event_remove(*, series: Series, tournament: Tournament, user: AnyUser | None) -> None:
    """The series' organizer takes an event out (counting or only invited): its results
    leave the standings; the event itself is untouched."""
    series_manage_require(series=series, user=user)
    tournament_lock(tournament.pk)
    membership = (
        SeriesEvent.objects.select_for_update().filter(series=series, tournament=tournament).first()
    )
    if membership is None:
        raise ValidationError({"series": gettext("this event is not in the series")})
    if membership.status == SeriesEvent.Status.ACCEPTED:
        published_version_bump(tournament)  # its page no longer names the series
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.SERIES_EVENT_REMOVED,
        obj=membership,
        before={"series": series.slug, "status": membership.status},
    )
    membership.delete()
