"""Entrants registered in bulk (the API's batch, a paste, a CSV or a TRF file's players): all
or none, in one transaction, their start ranks computed once."""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Model
from django.utils.translation import gettext

from klinzha_site.errors import Conflict, RowsRefused
from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, AuditItem, audit_append_many
from tournaments.entrant_lines import EntrantLine
from tournaments.models import Club, Player, Registration, Tournament
from tournaments.rating_selectors import seeding_ratings
from tournaments.roles import player_manager_of
from tournaments.services.common import (
    published_version_bump,
    require_arbiter,
    require_official,
    tournament_lock,
    values_per_query,
)
from tournaments.services.entrants import rating_refusal
from tournaments.services.entrants_match import (
    EntrantRow,
    Match,
    RowMatch,
    ambiguous_text,
    entrant_rows_match,
)

__all__ = [
    "EntrantRow",
    "entrant_line_rows",
    "entrants_bulk_register",
    "entrants_register",
    "seeding_slots",
]

# A new player's fields checked here; the foreign keys are the batch's to resolve.
NOT_CHECKED = ["club", "user", "managed_by"]
CLUB_NOT_CHECKED = ["short_name", "city", "country"]
# Above every start rank (a PositiveIntegerField): a search key that sorts after them all.
RANK_BEYOND = 2**63


@dataclass(slots=True)
class _Batch:
    """What the rows resolve to: each row's player (known or to make), and its refusals."""

    players: dict[int, Player]  # by row key
    new: list[Player]
    errors: dict[int, dict[str, list[str]]]


def _chunks(values: Iterable[object]) -> list[list[object]]:
    items, step = list(values), values_per_query()
    return [items[i : i + step] for i in range(0, len(items), step)]


def _clubs_by_name(rows: Sequence[EntrantRow]) -> dict[str, Club]:
    """The clubs the rows name, those unknown made (their names were checked with the
    rows, _row_player), in one insert."""
    names = {row.club_name for row in rows if row.club_name}
    clubs: dict[str, Club] = {}
    for chunk in _chunks(names):
        clubs.update({c.name: c for c in Club.objects.filter(name__in=chunk)})
    made = Club.objects.bulk_create([Club(name=name) for name in sorted(names - set(clubs))])
    clubs.update({club.name: club for club in made})
    return clubs


def _row_player(
    row: EntrantRow,
    *,
    known: dict[int, Player],
    matches: dict[int, RowMatch],
    clubs: dict[int, Club],
    manager: User | None,
) -> tuple[Player | None, dict[str, list[str]]]:
    """The row's player: a known one, or a new one (unsaved) checked field by field."""
    if row.error:
        return None, {"": [row.error]}
    if row.player is not None:
        player = known.get(row.player)
        if player is None:
            return None, {"player": [gettext("no player %(id)s") % {"id": row.player}]}
        return player, {}
    match = matches.get(row.key)
    if match is not None and match.kind == Match.KNOWN:
        return match.player, {}
    if match is not None and match.kind == Match.AMBIGUOUS:
        return None, {"player": [ambiguous_text(match.candidates)]}
    if row.club is not None and row.club not in clubs:
        return None, {"club": [gettext("no club %(id)s") % {"id": row.club}]}
    player = Player(
        name=row.name,
        club=clubs.get(row.club) if row.club is not None else None,
        rating=row.rating,
        federation=row.federation,
        fide_id=row.fide_id,
        national_id=row.national_id,
        managed_by=manager,
    )
    errors: dict[str, list[str]] = {}
    if rating_refusal(row.rating):
        errors["rating"] = [rating_refusal(row.rating)]
    checks: list[tuple[Model, list[str], str]] = [(player, NOT_CHECKED, "")]
    if row.club_name:  # a club to make, maybe
        checks.append((Club(name=row.club_name), CLUB_NOT_CHECKED, "club"))
    for obj, exclude, field in checks:
        try:
            obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
        except ValidationError as exc:
            for name, texts in exc.message_dict.items():
                errors.setdefault(field or name, texts)
    return player, errors


def _rows_resolve(
    *, tournament: Tournament, rows: Sequence[EntrantRow], user: AnyUser | None
) -> _Batch:
    """Each row's player, in a few queries whatever the rows' number; and why a row is
    refused (unknown, already registered or given twice, a field out of bounds)."""
    ids = {row.player for row in rows if row.player is not None}
    known: dict[int, Player] = {}
    for chunk in _chunks(ids):
        known.update(Player.objects.in_bulk(chunk))
    club_ids = {row.club for row in rows if row.club is not None}
    clubs = Club.objects.in_bulk(list(club_ids)) if club_ids else {}
    matches = entrant_rows_match(rows)
    registered = set(
        Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True)
    )
    manager = player_manager_of(user=user, tournament=tournament)
    batch = _Batch(players={}, new=[], errors={})
    seen: set[int] = set()
    seen_names: set[str] = set()
    for row in rows:
        player, errors = _row_player(
            row, known=known, matches=matches, clubs=clubs, manager=manager
        )
        if player is not None and player.pk is not None:
            if player.pk in registered:
                errors = {"player": [gettext("already registered")]}
            elif player.pk in seen:
                errors = {"player": [gettext("given twice")]}
            seen.add(player.pk)
        if row.known_by_name and player is not None and player.pk is None:
            # Two new players of one name in one batch: one player given twice, most likely
            # (a known player given twice is caught by their id above).
            if row.name.casefold() in seen_names:
                errors = {"name": [gettext("given twice")]}
            seen_names.add(row.name.casefold())
        if errors:
            batch.errors[row.key] = errors
        elif player is not None:
            batch.players[row.key] = player
            if player.pk is None:
                batch.new.append(player)
    return batch


def _players_store(*, batch: _Batch, rows: Sequence[EntrantRow], user: AnyUser | None) -> None:
    """Make the clubs named and the new players, in a few inserts."""
    if not batch.new:
        return
    require_official(user)
    clubs = _clubs_by_name(rows)
    for row in rows:
        player = batch.players[row.key]
        if player.pk is None and row.club_name:
            player.club = clubs[row.club_name]
    Player.objects.bulk_create(batch.new)


def seeding_slots(
    *, ranked: Sequence[tuple[int, int, str]], newcomers: Sequence[tuple[int, str]]
) -> tuple[dict[int, int], list[int]]:
    """Start ranks for `newcomers` ((rating, name) in the batch's order) among `ranked`
    ((start rank, rating, name) of the entrants with a rank), the same as registering them
    one by one (registration_create): each goes just below the last entrant seeded ahead of
    it (rating, then casefolded name), an order set by hand staying. Computed once: a
    newcomer lands after the highest rank seeded ahead of it among the entrants; newcomers
    after the same rank are in seeding order (the batch's order among equals), and each
    rank moves on by one for every newcomer placed before it. Returns each old rank's new
    rank and the newcomers' ranks."""
    keys = sorted(((-rating, name.casefold()), rank) for rank, rating, name in ranked)
    best: list[int] = []  # best[i]: the highest rank among keys[: i + 1]
    for _, rank in keys:
        best.append(max(rank, best[-1] if best else 0))
    anchors: dict[int, list[tuple[tuple[int, str], int]]] = defaultdict(list)
    for index, (rating, name) in enumerate(newcomers):
        mine = (-rating, name.casefold())
        ahead = bisect.bisect_right(keys, (mine, RANK_BEYOND))
        anchors[best[ahead - 1] if ahead else 0].append((mine, index))
    # How far each rank moves: by the newcomers anchored above it.
    marks = sorted(anchors)
    moved_by = [0]
    for anchor in marks:
        moved_by.append(moved_by[-1] + len(anchors[anchor]))
    moves = {
        rank: rank + moved_by[bisect.bisect_left(marks, rank)]
        for rank in {rank for rank, _, _ in ranked}
    }
    ranks = [0] * len(newcomers)
    for i, anchor in enumerate(marks):
        base = anchor + moved_by[i]  # the anchor's new rank (0: the top)
        for offset, (_, index) in enumerate(sorted(anchors[anchor]), start=1):
            ranks[index] = base + offset
    return moves, ranks


def _registrations_store(
    *, tournament: Tournament, players: list[Player], paired: int
) -> list[Registration]:
    """The registrations with their start ranks, computed once; the entrants whose rank
    moves updated, only they."""
    current = list(
        Registration.objects.filter(tournament=tournament).values_list(
            "pk", "start_rank", "rating", "player__name"
        )
    )
    seeds = seeding_ratings(tournament=tournament, players=players)
    if paired:  # late entries join below everyone, in the batch's order
        ranks = [len(current) + i for i in range(1, len(players) + 1)]
    else:
        ranked = [(rank, rating, name) for _, rank, rating, name in current if rank is not None]
        newcomers = [(seeds[p.pk][0], p.name) for p in players]
        moves, ranks = seeding_slots(ranked=ranked, newcomers=newcomers)
        moving = [
            Registration(pk=pk, start_rank=moves[rank])
            for pk, rank, _, _ in current
            if rank is not None and moves[rank] != rank
        ]
        Registration.objects.bulk_update(moving, ["start_rank"])
    regs = [
        Registration(
            tournament=tournament,
            player=player,
            first_round=paired + 1,
            start_rank=rank,
            rating=seeds[player.pk][0],
            rating_basis=seeds[player.pk][1],
        )
        for player, rank in zip(players, ranks, strict=True)
    ]
    return Registration.objects.bulk_create(regs)


@transaction.atomic
def entrants_register(
    *,
    tournament: Tournament,
    rows: Sequence[EntrantRow],
    user: AnyUser | None = None,
    label: str = "row",
) -> list[Registration]:
    """Register every row's player (made first when new), as registration_create would
    one by one, in one transaction: after round 1 is paired they are late entries from the
    next round. Every refused row is named with its fields (RowsRefused, keyed by the row's
    key) and then nothing is stored. The role is checked before any lock."""
    require_arbiter(user, tournament)
    tournament_lock(tournament.pk)
    paired = tournament.rounds.count()
    if rows and paired and tournament.pairing_system != Tournament.PairingSystem.SWISS:
        raise Conflict(
            {
                "player": gettext(
                    "the %(pairing_system)s is fixed once round 1 is paired: no late entry"
                )
                % {"pairing_system": tournament.get_pairing_system_display().lower()}
            }
        )
    batch = _rows_resolve(tournament=tournament, rows=rows, user=user)
    if batch.errors:
        raise RowsRefused(batch.errors, label=label)
    _players_store(batch=batch, rows=rows, user=user)
    players = [batch.players[row.key] for row in rows]
    regs = _registrations_store(tournament=tournament, players=players, paired=paired)
    action = Action.LATE_ENTRY if paired else Action.REGISTRATION
    audit_append_many(
        tournament=tournament,
        user=user,
        items=[
            AuditItem(
                action=action,
                obj=reg,
                after={
                    "player": player.name,
                    "first_round": reg.first_round,
                    "start_rank": reg.start_rank,
                    "rating": reg.rating,
                },
            )
            for reg, player in zip(regs, players, strict=True)
        ],
    )
    if regs:
        published_version_bump(tournament)
    return regs


def entrant_line_rows(
    lines: Sequence[EntrantLine], *, choices: Mapping[int, int | None] | None = None
) -> list[EntrantRow]:
    """The page's lines as rows to match; `choices`: by line, the arbiter's choice for a
    line that matched (a player's id, or None for a new player)."""
    chosen = choices or {}
    return [
        EntrantRow(
            key=line.number,
            player=chosen.get(line.number),
            name=line.name,
            rating=line.rating,
            club_name=line.club,
            federation=line.federation,
            fide_id=line.fide_id,
            known_by_name=True,
            new_player=line.number in chosen and chosen[line.number] is None,
            error=line.error,
        )
        for line in lines
    ]


def entrants_bulk_register(
    *,
    tournament: Tournament,
    lines: Sequence[EntrantLine],
    user: AnyUser | None = None,
    choices: Mapping[int, int | None] | None = None,
) -> list[Registration]:
    """The page's lines registered by entrants_register: each line's player is the known
    player it matches (entrant_rows_match), the one the arbiter chose, else a new one. Every
    refused line (an ambiguous one not chosen for, too) is named (ValidationError keyed
    "line N") and then nobody is registered."""
    rows = entrant_line_rows(lines, choices=choices)
    return entrants_register(tournament=tournament, rows=rows, user=user, label="line")
