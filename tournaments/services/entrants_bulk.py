"""Entrants registered in bulk (a paste, a CSV or a TRF file's players): all or none."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from klinzha_site.user_types import AnyUser
from tournaments.entrant_lines import EntrantLine
from tournaments.models import Club, Player, Registration, Tournament
from tournaments.services.common import require_arbiter, tournament_lock
from tournaments.services.entrants import club_create, player_create, registration_create


def _player_for(line: EntrantLine, user: AnyUser | None, tournament: Tournament) -> Player:
    """The one known player of that name (and club, when given), else a new one."""
    known = Player.objects.filter(name=line.name)
    if line.club:
        known = known.filter(club__name=line.club)
    found = list(known[:2])
    if len(found) == 1:
        return found[0]
    club = None
    if line.club:
        club = Club.objects.filter(name=line.club).first() or club_create(name=line.club, user=user)
    return player_create(
        name=line.name, club=club, rating=line.rating, user=user, tournament=tournament
    )


@transaction.atomic
def entrants_bulk_register(
    *, tournament: Tournament, lines: Sequence[EntrantLine], user: AnyUser | None = None
) -> list[Registration]:
    """Register every line's player (a known player of the same name and club, else a new
    one) through registration_create. Every refused line is named (ValidationError keyed
    "line N") and then nobody is registered."""
    require_arbiter(user, tournament)
    tournament_lock(tournament.pk)
    errors: dict[str, str] = {}
    done: list[Registration] = []
    seen: set[str] = set()
    for line in lines:
        key = f"line {line.number}"
        if line.error:
            errors[key] = line.error
            continue
        if line.name.casefold() in seen:
            errors[key] = f"{line.name} is given twice"
            continue
        seen.add(line.name.casefold())
        try:
            with transaction.atomic():  # a savepoint: the other lines are still tried
                player = _player_for(line, user, tournament)
                done.append(registration_create(tournament=tournament, player=player, user=user))
        except ValidationError as exc:
            found = exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
            errors[key] = "; ".join(
                f"{k}: {' '.join(v)}" if k and k != "__all__" else " ".join(v)
                for k, v in found.items()
            )
    if errors:
        raise ValidationError(errors)
    return done
