"""A TRF import keeps what the file says: every bye code with its points, forfeits and
absences, the file's own scoring (Klin Zha's, a chess program's, a shifted one), withdrawals
and late entries, forbidden pairs, a round robin's free rounds; a points column in error is
recomputed with a warning; the model's limits refuse a file; `kz trf import` exits 1 or 2
with a message, never a traceback."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.core.management import call_command

from tournaments import selectors
from tournaments.models import ForbiddenPair, Game, Registration, Tournament
from tournaments.services.trf_import import trf_import
from tournaments.trf import TrfError

pytestmark = pytest.mark.django_db

Block = tuple[int, str, str]
BLANK: Block = (0, " ", " ")  # no entry in that round


def player_line(rank: int, name: str, blocks: list[Block], points: str = "") -> str:
    head = f"001 {rank:>4} {'':1}{'':>3} {name:<33} {'':>4} {'':>3} {'':>11} {'':>10}"
    head += f"{points:>5} {'':>4}"
    blocks_text = "".join(
        " " * 10 if block == BLANK else f"  {block[0] or '0000':>4} {block[1]} {block[2]}"
        for block in blocks
    )
    return (head + blocks_text).rstrip()


def trf(*lines: str, head: tuple[str, ...] = ()) -> str:
    return "\n".join(["012 Rigel Cup", "042 2026/03/01", "XXR 3", *head, *lines]) + "\n"


# Round 1: Ann (first) beats Bob; Cid a half-point bye, Dax a full-point bye, Eve the
#          pairing bye, Fay a zero-point bye: leading, so a late entry from round 2 (a
#          zero-point bye after round 1 is tested in test_trf_late_entry.py).
# Round 2: Ann wins by forfeit against Cid (first); Bob and Dax both forfeit; Eve and Fay draw.
# Round 3: Ann absent; Bob (first) beats Eve; Cid and Dax draw; Fay wins by forfeit alone.
BLOCKS: dict[str, list[Block]] = {
    "Ann": [(2, "w", "1"), (3, "b", "+"), (0, "-", "-")],
    "Bob": [(1, "b", "0"), (4, "w", "-"), (5, "w", "1")],
    "Cid": [(0, "-", "H"), (1, "w", "-"), (4, "b", "=")],
    "Dax": [(0, "-", "F"), (2, "b", "-"), (3, "w", "=")],
    "Eve": [(0, "-", "U"), (6, "w", "="), (2, "b", "0")],
    "Fay": [(0, "-", "Z"), (5, "b", "="), (0, "-", "+")],
}
KLIN_ZHA_POINTS = {"Ann": 2, "Bob": 1, "Cid": 0, "Dax": 0.5, "Eve": 0.5, "Fay": 0.5}
CHESS_POINTS = {"Ann": 2, "Bob": 1, "Cid": 1, "Dax": 1.5, "Eve": 1.5, "Fay": 1.5}


def lines(points: dict[str, float] | None = None, **changed: list[Block]) -> list[str]:
    return [
        player_line(rank, name, changed.get(name, blocks), f"{points[name]:.1f}" if points else "")
        for rank, (name, blocks) in enumerate(BLOCKS.items(), start=1)
    ]


def games(t: Tournament, number: int) -> list[tuple[str, str, str | None, str, Decimal | None]]:
    rows = Game.objects.filter(round__tournament=t, round__number=number).order_by("board")
    return [
        (g.kind, g.first.name, g.second.name if g.second else None, g.result, g.bye_points)
        for g in rows.select_related("first", "second")
    ]


def scores(t: Tournament) -> dict[str, float]:
    return {r.entrant.name: r.score for r in selectors.standings_compute(tournament=t)}


def test_every_code_keeps_its_meaning_and_its_points():
    imported = trf_import(text=trf(*lines(KLIN_ZHA_POINTS)))
    t = imported.tournament
    assert imported.warnings == []
    assert games(t, 1) == [
        ("game", "Ann", "Bob", "first_win", None),
        ("requested_bye", "Cid", None, "", Decimal("0.5")),
        ("requested_bye", "Dax", None, "", Decimal(1)),
        ("bye", "Eve", None, "", None),  # the tournament's bye points, as the file's
    ]
    fay = Registration.objects.get(tournament=t, player__name="Fay")
    assert fay.first_round == 2
    assert games(t, 2) == [
        ("game", "Cid", "Ann", "second_forfeit_win", None),
        ("game", "Bob", "Dax", "double_forfeit", None),
        ("game", "Eve", "Fay", "draw", None),
    ]
    assert games(t, 3) == [  # Ann absent: no game
        ("game", "Bob", "Eve", "first_win", None),
        ("game", "Dax", "Cid", "draw", None),
        ("requested_bye", "Fay", None, "", Decimal(1)),  # a forfeit win without an opponent
    ]
    assert scores(t) == KLIN_ZHA_POINTS
    assert set(Registration.objects.filter(tournament=t).values_list("status", flat=True)) == {
        "active"
    }


def test_a_points_column_in_error_is_recomputed_with_a_warning():
    wrong = {**KLIN_ZHA_POINTS, "Ann": 3, "Cid": 1.5}
    imported = trf_import(text=trf(*lines(wrong)))
    assert scores(imported.tournament) == KLIN_ZHA_POINTS
    assert imported.warnings == [
        "the points column disagrees with the results; the points are recomputed from the "
        "results for Ann (start rank 1: 3 in the file, 2 from the results), "
        "Cid (start rank 3: 1½ in the file, 0 from the results)"
    ]


def test_a_chess_scored_file_is_read_with_its_draws_at_a_half():
    imported = trf_import(text=trf(*lines(CHESS_POINTS)))
    # Said, never silent (issue 24): the file's draw, Klin Zha's, and what was done.
    assert imported.warnings == [
        "this file scores a draw as +½ (its points column); Klin Zha scores \u2212½ "
        "(Art. 10.1): points recomputed"
    ]
    assert scores(imported.tournament) == KLIN_ZHA_POINTS  # the results, in Klin Zha points


def test_a_pairing_bye_takes_its_points_from_the_column_when_only_they_explain_it():
    imported = trf_import(text=trf(*lines({**KLIN_ZHA_POINTS, "Eve": 0})))
    assert imported.warnings == []
    assert games(imported.tournament, 1)[3] == ("bye", "Eve", None, "", Decimal("0.5"))
    assert scores(imported.tournament)["Eve"] == 0
    odd = trf_import(text=trf(*lines({**KLIN_ZHA_POINTS, "Eve": 0.2}))).warnings
    assert odd and "Eve (start rank 5: 0.2 in the file, ½ from the results)" in odd[0]


def test_a_declared_scoring_gives_the_tournament_its_bye_points():
    shifted = {name: points + 1.5 for name, points in KLIN_ZHA_POINTS.items()}
    shifted["Eve"] -= 0.5  # BBU 1.0 with BBL 0.5: the bye is worth 1/2
    head = ("BBW  1.5", "BBD  0.0", "BBL  0.5", "BBZ  0.5", "BBF  0.5", "BBU  1.0")
    imported = trf_import(text=trf(*lines(shifted), head=head))
    assert imported.warnings == []
    # A declared scoring is the tournament's: its bye points, not one game's.
    assert imported.tournament.bye_points == Decimal("0.5")
    assert games(imported.tournament, 1)[3] == ("bye", "Eve", None, "", None)
    assert scores(imported.tournament)["Eve"] == 0


def test_withdrawals_and_late_entries_are_kept():
    text = trf(
        *lines(),
        player_line(7, "Gus", [BLANK, (0, "-", "U")]),  # late; left after round 2
        player_line(8, "Hal", [(0, "-", "Z"), (0, "-", "Z"), (0, "-", "Z")]),  # XXZ
        player_line(9, "Ivo", []),  # joins for round 4
        head=("XXZ 8",),
    )
    t = trf_import(text=text).tournament
    regs = Registration.objects.filter(tournament=t).select_related("player")
    spans = {r.player.name: (r.status, r.first_round, r.last_round) for r in regs}
    assert spans["Ann"] == ("active", 1, None)  # absent in round 3, not withdrawn
    assert spans["Gus"] == ("withdrawn", 2, 2)
    # Zero-point byes from round 1 on are a late entry: Hal never came, and withdrew (XXZ).
    assert spans["Hal"] == ("withdrawn", 1, 0)
    assert spans["Ivo"] == ("active", 4, None)


def test_forbidden_pairs_come_from_xxp():
    t = trf_import(text=trf(*lines(), head=("XXP 4 2", "XXP 1 6"))).tournament
    pairs = ForbiddenPair.objects.filter(tournament=t).select_related("first", "second")
    assert sorted((p.first.name, p.second.name) for p in pairs) == [("Ann", "Fay"), ("Bob", "Dax")]
    assert all(p.first_id < p.second_id for p in pairs)


@pytest.mark.parametrize("code,setting,points", [("U", "bye", 1), ("Z", "did_not_play", 0)])
def test_a_round_robin_free_round(code, setting, points):
    text = trf(
        player_line(1, "Ann", [(2, "w", "1"), (3, "b", "="), (0, "-", code)]),
        player_line(2, "Bob", [(1, "b", "0"), (0, "-", code), (3, "w", "1")]),
        player_line(3, "Cid", [(0, "-", code), (1, "w", "="), (2, "b", "0")]),
        head=("092 Round robin",),
    )
    t = trf_import(text=text).tournament
    assert (t.pairing_system, t.free_round) == ("round_robin", setting)
    assert games(t, 1)[1] == ("free", "Cid", None, "", None)
    assert scores(t) == {"Ann": 0.5 + points, "Bob": 1 + points, "Cid": -0.5 + points}


def test_what_the_fields_cannot_hold_is_refused_with_the_line():
    with pytest.raises(TrfError, match="line 3: 99999 rounds; a tournament has 32767 at most"):
        trf_import(text=trf(*lines()).replace("XXR 3", "XXR 99999"))
    with pytest.raises(TrfError, match="line 1: longer than 160 characters"):
        trf_import(text=trf(*lines()).replace("Rigel Cup", "R" * 161))
    assert not Tournament.objects.exists()
    big = trf_import(text=trf(*lines()).replace("XXR 3", "XXR 32767")).tournament
    assert big.rounds_planned == 32767 and big.rounds.count() == 3


def test_the_command_exits_1_or_2_with_a_message_never_a_traceback(tmp_path, capsys):
    good = tmp_path / "good.trf"
    good.write_text(trf(*lines(KLIN_ZHA_POINTS)), encoding="utf-8")
    call_command("kz", "trf", "import", str(good), "--json")
    assert json.loads(capsys.readouterr().out) == {"slug": "rigel-cup", "warnings": []}

    off = tmp_path / "off.trf"
    off.write_text(trf(*lines({**KLIN_ZHA_POINTS, "Ann": 3})), encoding="utf-8")
    call_command("kz", "trf", "import", str(off), "--json")
    out = json.loads(capsys.readouterr().out)
    assert out["slug"] == "rigel-cup-2" and "Ann (start rank 1: 3" in out["warnings"][0]
    call_command("kz", "trf", "import", str(off))
    assert "warning: the points column disagrees" in capsys.readouterr().out

    bad = tmp_path / "bad.trf"
    bad.write_text(trf(*lines()).replace("XXR 3", "XXR ²"), encoding="utf-8")
    message = "line 3: XXR (the number of rounds) '²' is not a number (digits 0-9)"
    for extra in ((), ("--json",)):
        with pytest.raises(SystemExit) as exit_:
            call_command("kz", "trf", "import", str(bad), *extra)
        assert exit_.value.code == 1
        out, err = capsys.readouterr()
        assert message in err
        assert "Traceback" not in out + err
    with pytest.raises(SystemExit):
        call_command("kz", "trf", "import", str(bad), "--json")
    assert json.loads(capsys.readouterr().out) == {"error": message}

    binary = tmp_path / "binary.trf"
    binary.write_bytes(b"012 \xff\xfe\n")
    for path in (binary, tmp_path / "missing.trf"):
        with pytest.raises(SystemExit) as exit_:
            call_command("kz", "trf", "import", str(path))
        assert exit_.value.code == 2
        assert "cannot read" in capsys.readouterr().err
    assert Tournament.objects.count() == 3
