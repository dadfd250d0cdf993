"""Reads for the TRF export: a tournament as a TRF file."""

from __future__ import annotations

from tournaments.models import Registration, Tournament
from tournaments.scoring import Outcome
from tournaments.selectors import standings_compute
from tournaments.trf import TrfGame, TrfPlayer, TrfTournament, write_trf


def tournament_trf(*, tournament: Tournament, shift: bool = False) -> str:
    """The tournament as a TRF file (points with its own scoring, or shifted)."""
    regs = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("start_rank", "id")
    )
    rank_of_player = {}
    for i, reg in enumerate(regs, start=1):
        rank_of_player[reg.player_id] = reg.start_rank or i
    rows = {row.entrant.id: row for row in standings_compute(tournament=tournament)}
    codes = {
        Outcome.WIN: "1",
        Outcome.LOSS: "0",
        Outcome.DRAW: "=",
        Outcome.FORFEIT_WIN: "+",
        Outcome.FORFEIT_LOSS: "-",
        Outcome.DOUBLE_FORFEIT: "-",
        Outcome.BYE: "U",
        Outcome.REQUESTED_BYE: "Z",
        Outcome.ABSENT: "Z",
    }
    players = []
    for reg in regs:
        row = rows.get(reg.player_id)
        games = []
        if row is not None:
            for rnd, r in sorted(row.rounds.items()):
                colour = "-" if r.placed_first is None else ("w" if r.placed_first else "b")
                opp = rank_of_player.get(r.opponent) if r.opponent is not None else None
                games.append(TrfGame(rnd, opp, colour if opp else "-", codes[r.outcome]))
        players.append(
            TrfPlayer(
                start_rank=rank_of_player[reg.player_id],
                name=reg.player.name,
                rating=reg.player.rating,
                federation=reg.player.federation,
                points=row.score if row else 0.0,
                rank=row.rank if row else 0,
                games=games,
            )
        )
    trf = TrfTournament(
        name=tournament.name,
        city=tournament.venue,
        start_date=tournament.start_date.strftime("%Y/%m/%d"),
        end_date=tournament.end_date.strftime("%Y/%m/%d") if tournament.end_date else "",
        rounds=tournament.rounds_planned,
        tournament_type=tournament.get_pairing_system_display(),
        players=players,
    )
    return write_trf(trf, shift=shift)
