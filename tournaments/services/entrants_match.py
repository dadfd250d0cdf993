"""Bulk entry's rows matched against the players already known (their ids, name, club and
federation): the one read the bulk registration and its preview share, so that what the
preview says is what registering does."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from django.db.models.functions import Lower
from django.utils.translation import gettext

from tournaments.models import Player
from tournaments.player_labels import player_label
from tournaments.services.common import values_per_query


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """One entrant of a batch: a known player (`player`, an id), or a new player's name,
    club (`club` an id, or `club_name`: the club of that name, made when there is none),
    rating, federation and ids. `known_by_name` (the page's lines, the API's `match`): the
    row is matched against the known players first (entrant_rows_match); `new_player`: the
    arbiter chose a new player for a row that matched."""

    key: int  # its index in the request's list, or its line: how a refusal names it
    player: int | None = None
    name: str = ""
    club: int | None = None
    club_name: str = ""
    rating: int = 0
    federation: str = ""
    fide_id: str = ""
    national_id: str = ""
    known_by_name: bool = False
    new_player: bool = False
    error: str = ""  # refused before the service saw it (a line that could not be read)


class Match(StrEnum):
    NEW = "new"  # nobody of that name (or every namesake was set aside): a new player
    KNOWN = "known"  # one known player: theirs
    AMBIGUOUS = "ambiguous"  # several could be (or one namesake who may not be): choose


@dataclass(frozen=True, slots=True)
class RowMatch:
    kind: Match
    player: Player | None = None  # KNOWN: the player
    candidates: tuple[Player, ...] = ()  # AMBIGUOUS: those to choose among


def _chunks(values: Iterable[str]) -> list[list[str]]:
    items, step = sorted(values), values_per_query()
    return [items[i : i + step] for i in range(0, len(items), step)]


@dataclass(slots=True)
class _Known:
    by_name: dict[str, list[Player]]
    by_fide: dict[str, Player]
    by_national: dict[str, Player]


def _known(rows: Sequence[EntrantRow]) -> _Known:
    """The known players the rows may mean, in a few queries whatever the rows' number."""
    names = {row.name.casefold() for row in rows if row.name}
    fide = {row.fide_id for row in rows if row.fide_id}
    national = {row.national_id for row in rows if row.national_id}
    known = _Known(by_name=defaultdict(list), by_fide={}, by_national={})
    players = Player.objects.select_related("club").order_by("pk")
    for chunk in _chunks(names):
        for player in players.annotate(lname=Lower("name")).filter(lname__in=chunk):
            known.by_name[player.name.casefold()].append(player)
    for chunk in _chunks(fide):
        known.by_fide.update({p.fide_id: p for p in players.filter(fide_id__in=chunk)})
    for chunk in _chunks(national):
        known.by_national.update({p.national_id: p for p in players.filter(national_id__in=chunk)})
    return known


def _differs(given: str, known: str) -> bool:
    return bool(given and known and given.casefold() != known.casefold())


def _fits(row: EntrantRow, player: Player) -> bool:
    """Nothing the row gives says it is someone else than this namesake (what the row or
    the player leaves blank says nothing)."""
    club = player.club.name if player.club is not None else ""
    if row.club is not None and player.club_id is not None and row.club != player.club_id:
        return False
    return not (
        _differs(row.club_name, club)
        or _differs(row.federation, player.federation)
        or _differs(row.fide_id, player.fide_id)
        or _differs(row.national_id, player.national_id)
    )


def _row_match(row: EntrantRow, known: _Known) -> RowMatch:
    for given, found in ((row.fide_id, known.by_fide), (row.national_id, known.by_national)):
        if given and given in found:  # an id names one player whatever the name
            return RowMatch(Match.KNOWN, player=found[given])
    same = known.by_name.get(row.name.casefold(), [])
    fitting = [p for p in same if _fits(row, p)]
    if len(fitting) == 1:
        return RowMatch(Match.KNOWN, player=fitting[0])
    if same:
        return RowMatch(Match.AMBIGUOUS, candidates=tuple(fitting or same))
    return RowMatch(Match.NEW)


def entrant_rows_match(rows: Sequence[EntrantRow]) -> dict[int, RowMatch]:
    """How each row to match (`known_by_name`, no player chosen, not set as new) reads
    against the known players, by row key: a FIDE or national id known names its player;
    else the namesakes (case aside) whose club, federation and ids do not contradict the
    row's: one is the row's player, several are for the arbiter to choose among; a namesake
    who contradicts it is offered too (a player who changed clubs), never taken."""
    asked = [
        row
        for row in rows
        if row.known_by_name and row.player is None and not row.new_player and not row.error
    ]
    known = _known(asked)
    return {row.key: _row_match(row, known) for row in asked}


def ambiguous_text(candidates: Sequence[Player]) -> str:
    """A refused ambiguous row's reason, naming those to choose among."""
    return gettext("more than one known player could be this one: %(players)s; choose") % {
        "players": "; ".join(player_label(p) for p in candidates)
    }
