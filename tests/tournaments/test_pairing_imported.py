"""Pairing the next round of a Swiss imported from a TRF file (issue 24 item 4): the file's
placements (colours) and the floats its rounds imply are read as for an event played here,
and the round is paired as the FIDE Dutch reference (py4swiss) pairs the same file."""

from __future__ import annotations

from pathlib import Path

import pytest
from py4swiss.engines import DutchEngine
from py4swiss.trf import TrfParser

from tournaments import services
from tournaments.models import Game, Registration
from tournaments.pairing import pair_swiss
from tournaments.pairing.simulate import Event
from tournaments.pairing_selectors import pairing_players
from tournaments.services.trf_import import trf_import

pytestmark = pytest.mark.django_db

# Nine players, three rounds of five (first = white). 7 wins round 2 by forfeit against 6
# (placed in the file, counted for nobody); 9, 8 and 6 have had the pairing bye.
HISTORY: list[list[tuple[int, int | None, str]]] = [
    [(1, 5, "1"), (6, 2, "0"), (3, 7, "1"), (8, 4, "0"), (9, None, "U")],
    [(2, 1, "0"), (4, 3, "1"), (5, 9, "0"), (7, 6, "+"), (8, None, "U")],
    [(9, 1, "0"), (2, 4, "1"), (3, 8, "1"), (7, 5, "1"), (6, None, "U")],
]
COLOUR = {"F": "w", "S": "b", "-": "-"}


def _event() -> Event:
    event = Event(9)
    for games in HISTORY:
        event.record(games)
    return event


def _trf(event: Event) -> str:
    """The event as a TRF16 file, in the fixed columns (no draws: the points are chess's)."""
    lines = ["012 Imported Open", "042 2026/03/01", "062 9", "XXR 5"]
    for pid, p in sorted(event.players.items()):
        head = f"001 {pid:>4} {'':1}{'':>3} {f'Player {pid}':<33} {'':>4} {'':>3} {'':>11}"
        # A rank keeps the line full length: py4swiss refuses a line without one.
        head += f" {'':>10}{p.score:5.1f} {pid:>4}"
        blocks = "".join(
            f"  {h.opponent or '0000':>4} {COLOUR[h.placement]} {h.code}"
            for h in event.history[pid]
        )
        lines.append(head + blocks)
    return "\n".join(lines) + "\n"


def test_the_next_round_of_an_imported_swiss_reads_the_file_and_pairs_as_the_reference(
    tmp_path: Path,
) -> None:
    event = _event()
    text = _trf(event)
    t = trf_import(text=text).tournament
    rank_of = dict(Registration.objects.filter(tournament=t).values_list("player_id", "start_rank"))
    players, requested = pairing_players(tournament=t, round_number=4)
    assert requested == []
    read = {rank_of[p.id]: p for p in players}
    for rank, p in event.players.items():
        mine = read[rank]
        assert mine.score == p.score
        assert mine.placements == p.placements, rank  # the file's colours, forfeits left out
        assert mine.floats == p.floats, rank
        assert (mine.had_bye, mine.forfeit_win) == (p.had_bye, p.forfeit_win), rank
        assert {rank_of[o] for o in mine.opponents} == p.opponents
    # 7 won by forfeit: placed first in the file, counted for nobody; no bye for it.
    assert read[7].placements == ("S", "F") and read[7].forfeit_win
    assert read[4].floats == ("", "", "D")  # 2 on 1 point met 4 on 2 in round 3
    assert read[6].floats == ("", "D", "D")

    ours = pair_swiss(players, round_number=4)
    got = {(rank_of[pr.first], rank_of[pr.second]) for pr in ours.pairings}
    assert ours.bye is not None and ours.warnings == []
    # The same round as the same engine gives the event played here.
    here = pair_swiss(list(event.players.values()), round_number=4)
    assert {(pr.first, pr.second) for pr in here.pairings} == got
    assert here.bye == rank_of[ours.bye]

    path = tmp_path / "imported.trf"
    path.write_text(text, encoding="utf-8")
    reference = DutchEngine.generate_pairings(TrfParser.parse(path))
    ref_bye = next(pr.white for pr in reference if pr.black == 0)
    ref_pairs = {frozenset((pr.white, pr.black)) for pr in reference if pr.black}
    assert rank_of[ours.bye] == ref_bye
    assert {frozenset(pair) for pair in got} == ref_pairs
    # Who places first: both engines follow the placements the file gave.
    assert got == {(pr.white, pr.black) for pr in reference if pr.black}

    # The round as the arbiter's page, kz and the API store it (one service for all three).
    rnd = services.round_pair(tournament=t, publish=False)
    stored = Game.objects.filter(round=rnd)
    assert rnd.number == 4
    assert {(rank_of[g.first_id], rank_of[g.second_id]) for g in stored if g.second_id} == got
    assert [rank_of[g.first_id] for g in stored if g.kind == Game.Kind.BYE] == [ref_bye]
