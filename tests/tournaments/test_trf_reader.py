"""The plain TRF reader and writer: every result code, pending games, XXP and XXZ, declared
scorings, late entries and withdrawals read from the rounds, and bad files refused with the
line at fault."""

from __future__ import annotations

from datetime import date

import pytest

from tournaments.trf import (
    CHESS,
    KLIN_ZHA,
    TrfError,
    TrfGame,
    TrfPlayer,
    TrfSpan,
    TrfTournament,
    declared_scoring,
    player_span,
    read_trf,
    rounds_played,
    trf_date,
    write_trf,
)

Block = tuple[int, str, str]
BLANK: Block = (0, " ", " ")  # no entry in that round


def player_line(
    rank: int, name: str, blocks: list[Block], *, points: str = "", rating: str = ""
) -> str:
    """A TRF-16 `001` line: start rank in columns 5-8, name 15-47, rating 49-52, points
    80-84, then one 10-column block per round from column 90."""
    head = f"001 {rank:>4} {'':1}{'':>3} {name:<33} {rating:>4} {'':>3} {'':>11} {'':>10}"
    head += f"{points:>5} {'':>4}"
    assert len(head) == 89
    return head + "".join(
        " " * 10 if block == BLANK else f"  {block[0] or '0000':>4} {block[1]} {block[2]}"
        for block in blocks
    )


def trf(*lines: str) -> str:
    return "\n".join(["012 Test", "042 2026/03/01", *lines]) + "\n"


PAIR = [player_line(1, "Ann", [(2, "w", "1")]), player_line(2, "Bob", [(1, "b", "0")])]


def test_every_code_keeps_its_meaning():
    t = read_trf(
        trf(
            player_line(1, "Ann", [(2, "w", "+"), (0, "-", "H"), (0, "-", "F")]),
            player_line(2, "Bob", [(1, "b", "-"), (0, "-", "U"), (0, "-", "Z")]),
            player_line(3, "Cid", [(0, "-", "-"), (0, "-", "h"), (0, "-", "+")]),
        )
    )
    codes = {p.name: [(g.opponent, g.colour, g.code) for g in p.games] for p in t.players}
    assert codes == {
        "Ann": [(2, "w", "+"), (None, "-", "H"), (None, "-", "F")],
        "Bob": [(1, "b", "-"), (None, "-", "U"), (None, "-", "Z")],
        # letter codes are case-insensitive (TRF-16)
        "Cid": [(None, "-", "-"), (None, "-", "H"), (None, "-", "+")],
    }
    assert [g.absent for g in t.players[2].games] == [True, False, False]


def test_h_is_half_a_point_and_the_file_scoring_is_read_from_its_lines():
    h, u = TrfGame(1, None, "-", "H"), TrfGame(1, None, "-", "U")
    draw = TrfGame(1, 2, "w", "=")
    assert KLIN_ZHA.value(h, 1.0) == 0.5 and KLIN_ZHA.value(draw, 1.0) == -0.5
    assert CHESS.value(h, 1.0) == 0.5 and CHESS.value(draw, 1.0) == 0.5
    assert KLIN_ZHA.value(u, 0.5) == 0.5  # U: what the tournament gives it
    shifted = read_trf(write_trf(read_trf(trf(*PAIR)), shift=True))
    scoring = declared_scoring(shifted)
    assert scoring is not None
    assert (scoring.win, scoring.draw, scoring.loss, scoring.pairing_bye) == (1.5, 0.0, 0.5, 1.5)
    assert scoring.value(h, 1.0) == 1.0  # H: 1/2 above a loss, shifted like the rest
    javafo = read_trf(trf("XXS WW=1 BW=1 WD=0.5 BD=0.5 HPB=0.25 PAB=0.5", *PAIR))
    assert declared_scoring(javafo) == CHESS.__class__(
        win=1.0, draw=0.5, half_bye=0.25, pairing_bye=0.5
    )
    assert declared_scoring(read_trf(trf(*PAIR))) is None


def test_a_pending_game_has_a_blank_result_and_is_written_back():
    t = read_trf(
        trf(
            player_line(1, "Ann", [(2, "w", "1"), (2, "b", " ")]),
            player_line(2, "Bob", [(1, "b", "0"), (1, "w", " ")]),
        )
    )
    assert t.players[0].games[1] == TrfGame(2, 2, "b", "")
    assert read_trf(write_trf(t)).players == t.players


def test_xxp_and_xxz_are_read_and_written():
    text = trf(
        "XXR 3",
        "XXP 3 1",
        "XXP 1 3",
        "XXP 2 3",
        "XXZ 2",
        *PAIR,
        player_line(3, "Cid", [(0, "-", "U")]),
    )
    t = read_trf(text)
    assert t.forbidden == [(1, 3), (2, 3)] and t.withdrawn == [2]
    written = write_trf(t)
    assert "XXP 1 3\nXXP 2 3\nXXZ 2\n" in written
    assert write_trf(read_trf(written)) == written


def test_late_entries_and_withdrawals_are_read_from_the_rounds():
    t = read_trf(
        trf(
            "XXZ 5",
            player_line(1, "Ann", [(2, "w", "1"), (3, "w", "1"), (4, "w", "1")]),
            player_line(2, "Bob", [(1, "b", "0"), (0, "-", "U")]),  # nothing in round 3
            player_line(3, "Cid", [BLANK, (1, "b", "0"), (0, "-", "-")]),
            player_line(4, "Dax", [BLANK, BLANK, (1, "b", "0")]),
            player_line(5, "Eve", [(0, "-", "Z"), (0, "-", "H"), (0, "-", "Z")]),  # XXZ
            player_line(6, "Fay", []),  # joins for round 4
            player_line(7, "Gus", [(0, "-", "U"), BLANK, BLANK, (0, "-", "-")]),
        )
    )
    assert rounds_played(t) == 3 and t.rounds == 3  # Gus's round 4 says: not paired next
    spans = {p.name: player_span(t, p) for p in t.players}
    assert spans == {
        "Ann": TrfSpan(1, None),
        "Bob": TrfSpan(1, 2),  # left after the bye of round 2
        "Cid": TrfSpan(2, None),  # a late entry; an absence in round 3 is no withdrawal
        "Dax": TrfSpan(3, None),
        "Eve": TrfSpan(1, 3),
        "Fay": TrfSpan(4, None),
        "Gus": TrfSpan(1, 1),
    }


def test_dates():
    assert trf_date("2026/03/01") == date(2026, 3, 1) == trf_date("2026.3.1")
    assert trf_date("") is None
    for bad in ("2026/02/30", "2026/13/01", "0000/01/01", "March 2026", "２０２６/03/01"):
        with pytest.raises(TrfError):
            trf_date(bad)


LONG_NAME = "Kahless the Unforgettable of Qo'noS"  # 35 characters: two past column 47


@pytest.mark.parametrize(
    "text,message",
    [
        (
            trf(player_line(1, "Ann", [(1, "w", "1")])),
            "line 3: round 1: start rank 1 is paired with himself",
        ),
        (
            trf(player_line(1, "Ann", [(2, "w", "1")]), player_line(2, "Bob", [(1, "b", "1")])),
            r"line 3: round 1: 1 and 2 \(line 4\): both claim a win \(1 and 1\)",
        ),
        (
            trf(player_line(1, "Ann", [(2, "w", "+")]), player_line(2, "Bob", [(1, "b", "+")])),
            "both claim a forfeit win",
        ),
        (
            trf(player_line(1, "Ann", [(2, "w", "1")]), player_line(2, "Bob", [(1, "b", "=")])),
            r"line 3: round 1: 1 and 2 \(line 4\): contradictory results \(1 and =\)",
        ),
        (
            trf(player_line(1, "Ann", [(2, "w", "1")]), player_line(2, "Bob", [(1, "b", " ")])),
            r"contradictory results \(1 and blank\)",
        ),
        (
            trf(player_line(1, "Ann", [(2, "w", "1")]), player_line(2, "Bob", [(1, "w", "0")])),
            r"line 3: round 1: 1 and 2 \(line 4\): contradictory colours, both placed first",
        ),
        (
            trf(player_line(1, "Ann", [(2, "b", "1")]), player_line(2, "Bob", [(1, "b", "0")])),
            "both placed second",
        ),
        (
            trf(player_line(1, "Ann", [(2, "w", "1")]), player_line(2, "Bob", [(0, "-", "U")])),
            "line 3: round 1: 1 meets 2, who does not meet them",
        ),
        (
            trf(
                player_line(1, "Ann", [(2, "w", "1")]),
                player_line(2, "Bob", [(3, "w", "1")]),
                player_line(3, "Cid", [(2, "b", "0")]),
            ),
            "line 3: round 1: 1 meets 2, who does not meet them",
        ),
        (trf(player_line(1, "Ann", [(7, "w", "1")])), "line 3: player 1 meets unknown"),
        (trf(player_line(1, "Ann", [(2, "w", "H")]), *PAIR[1:]), "line 3: round 1: 'H' is a bye"),
        (trf(player_line(1, "Ann", [(0, "-", "=")])), "line 3: round 1: result '=' needs an"),
        (
            trf(player_line(1, "Ann", [(0, "-", "-"), (0, "-", "U")])),
            r"round 1: no game and no bye in the whole round \(lines 3-3\)",
        ),
        (trf(player_line(1, "Ann", [(2, "x", "1")]), *PAIR[1:]), "line 3: round 1: block"),
        (trf(player_line(1, "Ann", [(2, "w", "Q")]), *PAIR[1:]), "line 3: round 1: result 'Q'"),
        (trf(player_line(1, LONG_NAME[:33], [])[:47] + LONG_NAME[33:]), "line 3: the name runs"),
        (trf(*PAIR).replace("Ann", "A\x00n"), "line 3: control character U[+]0000 in column 16"),
        (trf(*PAIR).replace("Bob", "B\x1bb"), "line 4: control character U[+]001B"),
        (trf(*PAIR).replace("Bob", "B\u2028b"), "line 4: control character U[+]2028"),
        (trf(*PAIR).replace("Test", "T\x85t"), "line 1: control character U[+]0085"),
        (trf(player_line(1, "Ann", [], rating="²")), "line 3: rating in columns 49-52 '²'"),
        (trf(player_line(1, "Ann", [], rating="١٢")), "line 3: rating in columns 49-52"),
        (trf(player_line(1, "Ann", [], points="１.５")), "line 3: points in columns 81-84"),
        (trf(player_line(1, "Ann", [], points="nan")), "line 3: points in columns 81-84"),
        (trf(*PAIR).replace("001    1", "001    ²"), "line 3: start rank in columns 5-8"),
        (trf(*PAIR).replace("001    1", "001    0"), "line 3: start rank 0"),
        (trf(*PAIR).replace("   2 w", "  ²2 w"), "line 3: round 1 opponent '²2'"),
        (trf("XXR ²", *PAIR), "line 3: XXR"),
        (trf("XXR two", *PAIR), "line 3: XXR"),
        (trf("XXP 1", *PAIR), "line 3: XXP needs two different start ranks"),
        (trf("XXP 1 1", *PAIR), "line 3: XXP needs two different"),
        (trf("XXP 1 9", *PAIR), "line 3: no player has start rank 9"),
        (trf("XXZ 9", *PAIR), "line 3: no player has start rank 9"),
        (trf("BBW one", *PAIR), "line 3: BBW 'one' is not a number"),
        (trf("XXS WW=1 QQ=2", *PAIR), "line 3: XXS code 'QQ'"),
        (trf(*PAIR, PAIR[0]), "line 5: start rank 1 appears twice"),
        (trf("@@@ what", *PAIR), "line 3: unknown record '@@@'"),
        ("012 X\n", "no player lines"),
    ],
)
def test_a_bad_file_is_refused_with_the_line(text, message):
    with pytest.raises(TrfError, match=message):
        read_trf(text)


def test_windows_line_ends_and_a_byte_order_mark_are_fine():
    text = "\ufeff" + trf(*PAIR).replace("\n", "\r\n")
    assert [p.name for p in read_trf(text).players] == ["Ann", "Bob"]


def test_the_writer_leaves_a_blank_points_column_blank():
    t = TrfTournament(name="X", players=[TrfPlayer(1, "Ann", points=None)])
    line = write_trf(t).splitlines()[-1]
    assert line.startswith("001    1") and line[79:84].strip() == ""
    assert read_trf(write_trf(t)).players[0].points is None
