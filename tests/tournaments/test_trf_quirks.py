"""The reader's and the placeholders' part of real files (no database): the TRF-2025
dialect, a 013 team line, national ids, 162 scoring, dummy bye players."""

from __future__ import annotations

from tournaments.trf import TRF16, TRF2025, TrfGame, placeholders_drop, read_trf, write_trf
from tournaments.trf.declared_points import KLIN_ZHA, TrfScoring, scoring_note


def line(rank: int, name: str, blocks: str, rating: str = "", fide: str = "") -> str:
    head = f"001 {rank:>4}      {name:<33} {rating:>4}     {fide:>11} {'':>10}{'':>5} {'':>4}"
    return head + blocks


PAIR = [line(1, "Ann", "     2 w 1"), line(2, "Bob", "     1 b 0")]


def test_a_team_line_is_noted_and_kept():
    t = read_trf("\n".join(["012 X", "013 Club A                          1    2", *PAIR]))
    assert t.dialect == TRF16
    assert t.notes == [
        "line 2: a team line (013) in an individual event: kept for the export, no team is made"
    ]
    assert "013 Club A" in write_trf(t)


def test_trf_2025_records_set_the_dialect_and_a_national_record_its_id():
    national = "ITA    1 m    Ann                               1800 LOM    12345"
    t = read_trf("\n".join(["### comment", "012 X", *PAIR, national]))
    assert t.dialect == TRF2025 and t.players[0].national_id == "12345"
    # 162 alone marks no dialect: the export writes it in TRF16 too.
    assert read_trf("\n".join(["012 X", "162  W 1.0    D 0.5", *PAIR])).dialect == TRF16
    assert read_trf("\n".join(["012 X", "142 3", *PAIR])).dialect == TRF2025
    assert read_trf("\n".join(["012 X", "WXR 4", *PAIR])).dialect == TRF16  # no name: no record


def test_162_declares_points_and_xxs_says_more():
    t = read_trf("\n".join(["012 X", "162  W 1.0    D 0.5    L 0.0    A 0.0", *PAIR]))
    assert t.scoring["draw"] == 0.5 and t.scoring["half_bye"] == 0.5
    xxs = "XXS WD=-0.5 BD=-0.5 HPB=0.5"
    t = read_trf("\n".join(["012 X", xxs, "162  W 1.0    D-0.5", *PAIR]))
    assert t.scoring["draw"] == -0.5 and t.scoring["half_bye"] == 0.5


def test_the_scoring_note_says_what_differs_and_keeps_quiet_on_a_shift():
    assert scoring_note(KLIN_ZHA, "XXS, line 2") == ""
    assert scoring_note(KLIN_ZHA.shifted(0.5), "BBD, line 3") == ""
    assert scoring_note(TrfScoring(draw=0.5), "its points column") == (
        "this file scores a draw as +½ (its points column); Klin Zha scores \u2212½ "
        "(Art. 10.1): points recomputed"
    )
    assert "a win as +3" in scoring_note(TrfScoring(win=3, draw=1), "162, line 4")


def test_spielfrei_leaves_byes_and_the_ranks_close_up():
    t = read_trf(
        "\n".join(
            [
                "012 X",
                "XXP 3 4",
                line(1, "Ann", "     3 w 1     2 - +"),
                line(2, "spielfrei", "     4 - -     1 - -"),
                line(3, "Cid", "     1 b 0     4 w ="),
                line(4, "Dan", "     2 - +     3 b ="),
            ]
        )
    )
    notes = placeholders_drop(t)
    assert notes == [
        "line 4: 'spielfrei' (start rank 2) stands for the bye (its name): its opponents' "
        "games against it are byes, and it is no player"
    ]
    assert [(p.start_rank, p.name) for p in t.players] == [(1, "Ann"), (2, "Cid"), (3, "Dan")]
    assert t.players[0].games == [TrfGame(1, 2, "w", "1"), TrfGame(2, None, "-", "U")]
    assert t.players[2].games == [TrfGame(1, None, "-", "U"), TrfGame(2, 2, "b", "=")]
    assert t.forbidden == [(2, 3)]


def test_a_zero_rated_player_who_only_loses_by_forfeit_is_a_placeholder_one_who_played_not():
    rows = [
        line(1, "Ann", "     3 - +     2 w 1"),
        line(2, "Bob", "  0000 - U     1 b 0"),
        line(3, "Platzhalter X", "     1 - -     4 - -"),
        line(4, "Dan", "  0000 - U     3 - +"),
    ]
    t = read_trf("\n".join(["012 X", *rows]))
    assert "only forfeit losses" in placeholders_drop(t)[0]
    rows[0] = line(1, "Ann", "     3 w 1     2 w 1")
    rows[2] = line(3, "Zed", "     1 b 0     4 - -")
    t = read_trf("\n".join(["012 X", *rows]))
    assert placeholders_drop(t) == []
