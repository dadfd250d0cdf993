"""What the calendar files hold (tournaments.calendar_feed): an event's days and its rounds'
scheduled starts; a player's events and their battles of published rounds, from their side."""

from __future__ import annotations

from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext

from klinzha_site.links import site_domain, site_link
from tournaments.calendar_feed import CalendarItem
from tournaments.models import Game, Player, Round, Tournament


def _uid(kind: str, *ids: int) -> str:
    return f"{kind}-{'-'.join(str(i) for i in ids)}@{site_domain()[0] or 'klinzha'}"


def _event_item(t: Tournament) -> CalendarItem:
    return CalendarItem(
        uid=_uid("event", t.pk),
        summary=t.name,
        day=t.start_date,
        last_day=t.end_date if t.end_date and t.end_date >= t.start_date else None,
        location=t.venue,
        url=site_link(reverse("tournaments:detail", args=[t.slug])),
    )


def event_calendar_items(*, tournament: Tournament) -> list[CalendarItem]:
    """The event's days, then each published round with a scheduled start."""
    rounds = (
        tournament.rounds.exclude(status=Round.Status.DRAFT)
        .exclude(starts_at=None)
        .order_by("number")
    )
    return [_event_item(tournament)] + [
        CalendarItem(
            uid=_uid("round", r.pk),
            summary=gettext("%(event)s: round %(number)s")
            % {"event": tournament.name, "number": r.number},
            starts_at=r.starts_at,
            location=r.place or tournament.venue,
            url=site_link(reverse("tournaments:round", args=[tournament.slug, r.number])),
        )
        for r in rounds
    ]


def _battle_item(game: Game, player: Player) -> CalendarItem:
    rnd, t = game.round, game.round.tournament
    first = game.first_id == player.pk
    opponent = game.second if first else game.first
    assert rnd.starts_at is not None  # the query's
    return CalendarItem(
        uid=_uid("battle", game.pk, player.pk),
        summary=gettext("%(event)s, round %(number)s, board %(board)s: against %(opponent)s")
        % {
            "event": t.name,
            "number": rnd.number,
            "board": game.board,
            "opponent": opponent.name if opponent else "–",
        },
        starts_at=rnd.starts_at,
        location=rnd.place or t.venue,
        description=(
            gettext("%(name)s places first") if first else gettext("%(name)s places second")
        )
        % {"name": player.name},
        url=site_link(reverse("games:detail", args=[game.pk])),
    )


def player_calendar_items(*, player: Player) -> list[CalendarItem]:
    """The player's events (their days), then their battles of published rounds with a
    scheduled start, in time order (a bye is no battle to go to)."""
    events = Tournament.objects.filter(registrations__player=player).order_by("start_date", "pk")
    games = (
        Game.objects.filter(Q(first=player) | Q(second=player), kind=Game.Kind.GAME)
        .exclude(round__status=Round.Status.DRAFT)
        .exclude(round__starts_at=None)
        .select_related("round__tournament", "first", "second")
        .order_by("round__starts_at", "board")
    )
    return [_event_item(t) for t in events] + [_battle_item(g, player) for g in games]
