"""Small events built through the services for the direct service tests: one account of each
role, players registered in rating order, and rounds stored by hand."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Player, Round, Tournament


@dataclass(frozen=True)
class Officials:
    """The tournament's organizer, chief arbiter, two arbiters, and a stranger to it."""

    organizer: Any
    chief: Any
    arbiter: Any
    arbiter2: Any
    stranger: Any


def officials_make() -> Officials:
    User = get_user_model()
    names = ("organizer", "chief", "arbiter", "arbiter2", "stranger")
    return Officials(*(User.objects.create_user(n, password=f"pw-{n}-12345") for n in names))


def event_make(
    officials: Officials,
    *,
    slug: str = "test-open",
    names: tuple[str, ...] = ("Ann", "Bob", "Cid", "Dax"),
    **settings: Any,
) -> tuple[Tournament, list[Player]]:
    """A tournament the officials run, with `names` registered (start ranks 1, 2, ... and
    falling ratings)."""
    settings.setdefault("rounds_planned", 5)
    t = services.tournament_create(
        name=slug.replace("-", " ").title(), slug=slug, start_date=date(2026, 11, 1), **settings
    )
    t.organizer = officials.organizer
    t.chief_arbiter = officials.chief
    t.save(update_fields=["organizer", "chief_arbiter"])
    t.arbiters.add(officials.arbiter, officials.arbiter2)
    # Made for the event: its organizer manages them (issue 22).
    players = [
        services.player_create(name=n, rating=2000 - 100 * i, tournament=t)
        for i, n in enumerate(names)
    ]
    for p in players:
        services.registration_create(tournament=t, player=p)
    return t, players


def round_make(
    t: Tournament,
    pairs: list[tuple[Player, Player | None]],
    *,
    draft: bool = False,
    requested: tuple[Player, ...] = (),
) -> Round:
    """The next round with these pairings (None: the pairing bye), stored by the system."""
    return services.round_create(
        tournament=t,
        pairings=[(a.pk, b.pk if b else None) for a, b in pairs],
        requested_byes=[p.pk for p in requested],
        status=Round.Status.DRAFT if draft else Round.Status.PUBLISHED,
    )
