"""A forfeit in the TRF export keeps the colour it had: its scheduled placement in an event
made here or where the imported file gave one, none (`-` on both sides) where the file gave
none; FIDE's tie-break checker, like the engines, reads a forfeit only with a colour on each
side, and the export for engines gives every forfeit its placement."""

from __future__ import annotations

import pytest

from tests.tournaments.test_trf_import_faithful import player_line, trf
from tests.tournaments.test_trf_round_trip import swiss
from tournaments.services.trf_import import trf_import
from tournaments.trf import read_trf, uncoloured_forfeits
from tournaments.trf_export import tournament_trf

pytestmark = pytest.mark.django_db


def _forfeits(text: str) -> set[tuple[int, int, int, str, str]]:
    """(round, rank, opponent, colour, code) of every forfeit between two players."""
    return {
        (g.round, p.start_rank, g.opponent, g.colour, g.code)
        for p in read_trf(text).players
        for g in p.games
        if g.opponent is not None and g.code in "+-" and g.code
    }


@pytest.mark.parametrize("shift", [False, True])
def test_a_forfeit_made_here_keeps_its_placement(shift):
    text = tournament_trf(tournament=swiss("forfeit-open"), shift=shift)
    forfeits = _forfeits(text)
    assert forfeits
    assert all(colour in "wb" for _, _, _, colour, _ in forfeits)
    # The two sides of each forfeit give opposite placements.
    by_game = {(r, min(a, b), max(a, b)): set() for r, a, b, _, _ in forfeits}
    for r, a, b, colour, _ in forfeits:
        by_game[(r, min(a, b), max(a, b))].add(colour)
    assert all(colours == {"w", "b"} for colours in by_game.values())


FILE = trf(
    player_line(1, "Ann", [(2, "w", "+"), (3, "-", "+")]),
    player_line(2, "Bob", [(1, "b", "-"), (0, "-", "U")]),
    player_line(3, "Cid", [(0, "-", "U"), (1, "-", "-")]),
)


def test_an_imported_file_gets_its_forfeits_back_as_it_wrote_them():
    assert uncoloured_forfeits(read_trf(FILE)) == [[2, 1, 3]]
    t = trf_import(text=FILE).tournament
    assert _forfeits(tournament_trf(tournament=t)) == {
        (1, 1, 2, "w", "+"),
        (1, 2, 1, "b", "-"),
        (2, 1, 3, "-", "+"),
        (2, 3, 1, "-", "-"),
    }
    shifted = _forfeits(tournament_trf(tournament=t, shift=True))
    assert {(r, a, colour) for r, a, _, colour, _ in shifted if r == 2} == {
        (2, 1, "w"),  # the lower start rank placed first, as the import seated it
        (2, 3, "b"),
    }
