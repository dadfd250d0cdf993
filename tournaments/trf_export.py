"""Reads for the TRF export: a tournament as a TRF file."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.utils import translation

from tournaments.models import ForbiddenPair, Game, Registration, Round, Tournament
from tournaments.scoring import Outcome
from tournaments.selectors import standings_compute
from tournaments.standings import RoundResult
from tournaments.tiebreaks import code_of
from tournaments.trf import (
    FORFEIT_CODES,
    KLIN_ZHA,
    PENDING,
    TRF16,
    TrfGame,
    TrfPlayer,
    TrfScoring,
    TrfTournament,
    write_trf,
)

CODES = {
    Outcome.WIN: "1",
    Outcome.LOSS: "0",
    Outcome.DRAW: "=",
    Outcome.FORFEIT_WIN: "+",
    Outcome.FORFEIT_LOSS: "-",
    Outcome.DOUBLE_FORFEIT: "-",
    Outcome.BYE: "U",
}
# A requested bye (or a late entrant's missed round) by its points: Z nothing, H ½, F a win.
# Other points take the nearest code; the points column carries them.
BYE_CODES = ((0.0, "Z"), (0.5, "H"), (1.0, "F"))


def _date(d: date | None) -> str:
    return "" if d is None else f"{d.year:04d}/{d.month:02d}/{d.day:02d}"


def _bye_code(points: float) -> str:
    return min(BYE_CODES, key=lambda vc: abs(vc[0] - points))[1]


def tournament_trf(*, tournament: Tournament, shift: bool = False) -> str:
    """The tournament as a TRF file (points with its own scoring, or shifted): results as
    they count, games still being played with a blank result, a round robin's free round as
    U (worth a bye) or Z (did not play), other absences as `0000 - -`, a
    late entrant's rounds before joining as zero-point byes (`0000 - Z`; H or F when the
    event gives late-entry points), a withdrawn player's after leaving blank, the
    withdrawn on XXZ, forbidden pairs on XXP."""
    regs = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("start_rank", "id")
    )
    rank_of = {}
    for i, reg in enumerate(regs, start=1):
        rank_of[reg.player_id] = reg.start_rank or i
    rows = {row.entrant.id: row for row in standings_compute(tournament=tournament)}
    seats, free, played = _seats_read(tournament=tournament)
    source = tournament.trf_source or {}
    # Forfeits the imported file gave no colour: so again, but for engines (which refuse it).
    uncoloured = set() if shift else {tuple(x) for x in source.get("uncoloured_forfeits", [])}
    players = []
    for reg in regs:
        row = rows.get(reg.player_id)
        entries = _player_entries(
            reg=reg,
            shown=row.rounds if row is not None else {},
            seats=seats,
            free=free,
            played=played,
            rank_of=rank_of,
        )
        entries = [_uncoloured(e, rank_of[reg.player_id], uncoloured) for e in entries]
        players.append(
            TrfPlayer(
                start_rank=rank_of[reg.player_id],
                name=reg.player.name,
                rating=reg.rating,
                federation=reg.player.federation,
                fide_id=reg.player.fide_id,
                title=reg.player.title,
                sex=reg.player.sex,
                birth=reg.player.birth_date,
                points=row.score if row else 0.0,
                rank=row.rank if row else 0,
                games=entries,
            )
        )
    forbidden = _forbidden_ranks(tournament=tournament, rank_of=rank_of)
    trf = TrfTournament(
        rounds=max(tournament.rounds_planned, played),
        players=players,
        forbidden=forbidden,
        withdrawn=[rank_of[r.player_id] for r in regs if r.status != Registration.Status.ACTIVE],
        extra=list(source.get("lines", [])),
        dialect=source.get("dialect", TRF16),
        tiebreaks=[code_of(name) for name in tournament.tiebreak_list],
    )
    _header_fill(trf=trf, tournament=tournament, source=source)
    scoring = TrfScoring(
        forfeit_win=float(tournament.forfeit_win_points),
        forfeit_loss=float(tournament.forfeit_loss_points),
    )
    assert scoring.draw == KLIN_ZHA.draw  # the export writes Klin Zha's points (Art. 10.1)
    return write_trf(trf, shift=shift, bye_points=float(tournament.bye_points), scoring=scoring)


def _header_fill(*, trf: TrfTournament, tournament: Tournament, source: Mapping[str, Any]) -> None:
    """The header records: as the imported file wrote them where the tournament still holds
    what the import made of them, else the tournament's own values."""
    with translation.override("en"):
        system = str(tournament.get_pairing_system_display())
    current = {
        "012": (tournament.name, tournament.name),
        "022": (tournament.venue, tournament.venue),
        "042": (tournament.start_date.isoformat(), _date(tournament.start_date)),
        "052": (
            tournament.end_date.isoformat() if tournament.end_date else "",
            _date(tournament.end_date),
        ),
        "092": (tournament.pairing_system, system),
    }
    header = dict(source.get("header", {}))
    derived = source.get("derived", {})
    texts = {
        code: header[code] if code in header and derived.get(code) == value else written
        for code, (value, written) in current.items()
    }
    trf.name, trf.city, trf.federation = texts["012"], texts["022"], header.get("032", "")
    trf.start_date, trf.end_date = texts["042"], texts["052"]
    trf.tournament_type, trf.chief_arbiter = texts["092"], header.get("102", "")


def _uncoloured(entry: TrfGame, rank: int, uncoloured: set[tuple[int, ...]]) -> TrfGame:
    """The entry, without its colour when it is a forfeit the imported file gave none."""
    if entry.opponent is None or entry.code not in FORFEIT_CODES:
        return entry
    if (entry.round, min(rank, entry.opponent), max(rank, entry.opponent)) not in uncoloured:
        return entry
    return TrfGame(entry.round, entry.opponent, "-", entry.code)


def _seats_read(
    *, tournament: Tournament
) -> tuple[dict[tuple[int, int], tuple[int, bool]], set[tuple[int, int]], int]:
    """Every stored game's seats, pending ones too (the standings leave those out), by
    (player, round): the opponent and whether the player places first; the (player, round)
    of a round robin's free rounds; and the last round with a game."""
    seats: dict[tuple[int, int], tuple[int, bool]] = {}
    free: set[tuple[int, int]] = set()
    numbers = set()
    games = (
        Game.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list("round__number", "kind", "first_id", "second_id")
    )
    for number, kind, first, second in games:
        numbers.add(number)
        if second is not None:
            seats[(first, number)] = (second, True)
            seats[(second, number)] = (first, False)
        elif kind == Game.Kind.FREE:
            free.add((first, number))
    return seats, free, max(numbers, default=0)


def _player_entries(
    *,
    reg: Registration,
    shown: Mapping[int, RoundResult],
    seats: dict[tuple[int, int], tuple[int, bool]],
    free: set[tuple[int, int]],
    played: int,
    rank_of: dict[int, int],
) -> list[TrfGame]:
    """One player's blocks of rounds 1..`played`, rounds without an entry left out."""
    entries = []
    for rnd in range(1, played + 1):
        key = (reg.player_id, rnd)
        entry = _entry(rnd, shown.get(rnd), seats.get(key), reg, rank_of)
        if key in free and (entry is None or entry.absent):
            # The free round of an odd table played as "did not play": nothing, as Z.
            entry = TrfGame(rnd, None, "-", "Z")
        if entry is not None:
            entries.append(entry)
    return entries


def _forbidden_ranks(*, tournament: Tournament, rank_of: dict[int, int]) -> list[tuple[int, int]]:
    """The tournament's forbidden pairs as start ranks, lower first (pairs of players no
    longer registered left out)."""
    pairs = ForbiddenPair.objects.filter(tournament=tournament).values_list("first", "second")
    return [
        (min(rank_of[a], rank_of[b]), max(rank_of[a], rank_of[b]))
        for a, b in pairs
        if a in rank_of and b in rank_of
    ]


def _entry(
    rnd: int,
    result: RoundResult | None,
    seat: tuple[int, bool] | None,
    reg: Registration,
    rank_of: dict[int, int],
) -> TrfGame | None:
    """One player's block in round `rnd`, None for no entry."""
    if result is not None and result.outcome != Outcome.ABSENT:
        if result.opponent is None:
            code = "U" if result.outcome == Outcome.BYE else _bye_code(result.points)
            return TrfGame(rnd, None, "-", code)
        colour = "w" if result.placed_first else "b"
        return TrfGame(rnd, rank_of[result.opponent], colour, CODES[result.outcome])
    if seat is not None:
        opponent, first = seat
        return TrfGame(rnd, rank_of[opponent], "w" if first else "b", PENDING)
    if rnd < reg.first_round:
        # A late entrant's missed round worth nothing (the standings give the event's
        # late-entry points, when it has some, as a bye above): a zero-point bye, which the
        # import reads back, leading, as a late entry.
        return TrfGame(rnd, None, "-", "Z")
    if reg.status != Registration.Status.ACTIVE and rnd > (reg.last_round or 0):
        return None
    return TrfGame(rnd, None, "-", "-")
