"""A late entrant's missed rounds in a TRF export are zero-point byes (`0000 - Z`), or a
half- or full-point bye when the event gives points for them; on import a leading run of
zero-point byes is a late entry, not a registered player's absences; later Z stays a
zero-point bye, and a round robin's Z stays its free round."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.tournaments.test_trf_import_faithful import player_line, trf
from tests.tournaments.test_trf_round_trip import round_trip, swiss
from tournaments.models import Game, Registration
from tournaments.services.trf_import import trf_import
from tournaments.trf import TrfGame, TrfPlayer, TrfTournament, late_zero_byes_drop, read_trf

pytestmark = pytest.mark.django_db


def _block(text: str, rank: int, rnd: int) -> str:
    line = next(x for x in text.splitlines() if x.startswith(f"001 {rank:>4}"))
    start = 91 + 10 * (rnd - 1)
    return line[start - 2 : start + 8]


def _kahless(text: str) -> int:
    return next(p.start_rank for p in read_trf(text).players if p.name == "Kahless")


@pytest.mark.parametrize(
    "points,code", [(Decimal(0), "Z"), (Decimal("0.5"), "H"), (Decimal(1), "F")]
)
@pytest.mark.parametrize("shift", [False, True])
def test_a_late_entrants_missed_round_is_a_bye_and_reads_back_as_a_late_entry(points, code, shift):
    t = swiss("late-open", late_entry_points=points)
    text, copy = round_trip(t, shift=shift)  # export, import, export: the same text
    # Kahless joined for round 2: round 1 is his missed round.
    assert _block(text, _kahless(text), 1) == f"  0000 - {code}"
    reg = Registration.objects.get(tournament=copy, player__name="Kahless")
    if code == "Z":
        assert (reg.status, reg.first_round) == ("active", 2)
        assert not Game.objects.filter(round__tournament=copy, first=reg.player).filter(
            round__number=1
        )
    else:  # points for the missed round: a requested bye worth them, as before
        bye = Game.objects.get(round__tournament=copy, round__number=1, first=reg.player)
        assert (bye.kind, bye.bye_points) == (Game.Kind.REQUESTED_BYE, points)


def test_only_a_leading_run_of_zero_point_byes_is_a_late_entry():
    text = trf(
        player_line(1, "Ann", [(2, "w", "1"), (3, "b", "1"), (0, "-", "Z")]),
        player_line(2, "Bob", [(1, "b", "0"), (0, "-", "Z"), (3, "w", "0")]),
        player_line(3, "Cid", [(0, "-", "Z"), (1, "w", "0"), (2, "b", "1")]),
    )
    t = trf_import(text=text).tournament
    regs = {r.player.name: r for r in Registration.objects.filter(tournament=t)}
    assert {n: r.first_round for n, r in regs.items()} == {"Ann": 1, "Bob": 1, "Cid": 2}
    byes = Game.objects.filter(round__tournament=t, kind=Game.Kind.REQUESTED_BYE)
    assert sorted((g.round.number, g.first.name, g.bye_points) for g in byes) == [
        (2, "Bob", Decimal(0)),
        (3, "Ann", Decimal(0)),
    ]


def test_the_leading_run_is_dropped_from_the_records():
    t = TrfTournament(
        players=[
            TrfPlayer(1, "Ann", games=[TrfGame(1, None, "-", "Z"), TrfGame(2, None, "-", "Z")]),
            TrfPlayer(2, "Bob", games=[TrfGame(1, None, "-", "H"), TrfGame(2, None, "-", "Z")]),
            TrfPlayer(3, "Cid", games=[TrfGame(2, None, "-", "Z"), TrfGame(3, 1, "w", "1")]),
        ]
    )
    assert late_zero_byes_drop(t) == [1]
    assert [p.games for p in t.players][0] == []
    assert len(t.players[1].games) == 2
    assert len(t.players[2].games) == 2  # no entry in round 1: a late entry already
