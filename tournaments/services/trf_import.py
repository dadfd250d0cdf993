"""A tournament created from a TRF file: its players and the rounds already played."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from tournaments.models import Game, Player, Registration, Round, Tournament
from tournaments.services.common import standings_bump
from tournaments.services.entrants import player_create
from tournaments.services.events import tournament_create
from tournaments.trf import TrfError, TrfGame, TrfTournament, read_trf

TRF_FIRST_RESULT = {
    "1": Game.Result.FIRST_WIN,
    "W": Game.Result.FIRST_WIN,
    "0": Game.Result.SECOND_WIN,
    "L": Game.Result.SECOND_WIN,
    "=": Game.Result.DRAW,
    "D": Game.Result.DRAW,
    "+": Game.Result.FIRST_FORFEIT_WIN,
}


@transaction.atomic
def tournament_import_trf(*, text: str, organizer: Any = None) -> Tournament:
    """Create a tournament with its players and played rounds from a TRF file."""
    trf = read_trf(text)
    start = _trf_date(trf.start_date) or timezone.now().date()
    base = slugify(trf.name)[:60] or "imported"
    slug = base
    n = 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    tournament = tournament_create(
        name=trf.name or slug,
        slug=slug,
        start_date=start,
        end_date=_trf_date(trf.end_date),
        venue=trf.city,
        rounds_planned=max(trf.rounds, 1),
        organizer=organizer,
    )
    player_of: dict[int, Player] = {}
    for tp in sorted(trf.players, key=lambda p: p.start_rank):
        player = player_create(name=tp.name, rating=tp.rating, federation=tp.federation[:3])
        Registration.objects.create(tournament=tournament, player=player, start_rank=tp.start_rank)
        player_of[tp.start_rank] = player
    for rnd in range(1, trf.rounds + 1):
        _round_import(trf, rnd, tournament, player_of)
    standings_bump(tournament)
    return tournament


def _round_import(
    trf: TrfTournament, rnd: int, tournament: Tournament, player_of: dict[int, Player]
) -> None:
    games = [(tp, g) for tp in trf.players for g in tp.games if g.round == rnd]
    if not games:
        return
    round_ = Round.objects.create(tournament=tournament, number=rnd)
    board = 0
    done: set[int] = set()
    for tp, g in sorted(games, key=lambda x: x[0].start_rank):
        if tp.start_rank in done:
            continue
        board += 1
        me = player_of[tp.start_rank]
        if g.opponent is None:
            kind = Game.Kind.BYE if g.code == "U" else Game.Kind.REQUESTED_BYE
            if g.code == "-":
                board -= 1
                continue  # absent
            Game.objects.create(round=round_, board=board, kind=kind, first=me)
            done.add(tp.start_rank)
            continue
        other = next((og for og in _games_of(trf, g.opponent) if og.round == rnd), None)
        if other is None or other.opponent != tp.start_rank:
            raise TrfError(
                f"round {rnd}: {tp.start_rank} meets {g.opponent}, who does not meet them"
            )
        first_is_me = g.colour != "b"
        mine, theirs = (g, other) if first_is_me else (other, g)
        if mine.code == "-" and theirs.code == "-":
            result = Game.Result.DOUBLE_FORFEIT
        elif mine.code == "-" and theirs.code == "+":
            result = Game.Result.SECOND_FORFEIT_WIN
        else:
            result = TRF_FIRST_RESULT.get(mine.code, Game.Result.PENDING)
        first, second = (me, player_of[g.opponent])
        if not first_is_me:
            first, second = second, first
        Game.objects.create(round=round_, board=board, first=first, second=second, result=result)
        done |= {tp.start_rank, g.opponent}


def _games_of(trf: TrfTournament, start_rank: int) -> list[TrfGame]:
    for p in trf.players:
        if p.start_rank == start_rank:
            return list(p.games)
    return []


def _trf_date(text: str) -> date | None:
    m = re.match(r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", text.strip())
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None
