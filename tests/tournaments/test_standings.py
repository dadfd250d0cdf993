"""Standings and tie-breaks on plain objects (no database), values worked out by hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.points import format_points
from tournaments.scoring import Outcome, PenaltyEffect, ScoringSettings, game_points
from tournaments.standings import (
    TIEBREAKS,
    Entrant,
    RoundResult,
    compute_standings,
    crosstable_rows,
    standings_json,
)

W, L, D = Outcome.WIN, Outcome.LOSS, Outcome.DRAW
S = ScoringSettings()
A, B, C, DD = (
    Entrant(1, "A", 1500),
    Entrant(2, "B", 1400),
    Entrant(3, "C", 1300),
    Entrant(4, "D", 1200),
)


def game(rnd, p, q, outcome, first=True):
    """Both sides of one game, points by the default scoring."""
    from tournaments.scoring import OPPOSITE

    other = OPPOSITE[outcome]
    return [
        RoundResult(rnd, p, q, outcome, S.points(outcome), first),
        RoundResult(rnd, q, p, other, S.points(other), not first),
    ]


def small_event():
    # R1: A beats B, C draws D. R2: A draws C, B beats D. R3: A beats D, C forfeits to B.
    return [
        *game(1, 1, 2, W),
        *game(1, 3, 4, D),
        *game(2, 1, 3, D),
        *game(2, 2, 4, W),
        *game(3, 1, 4, W),
        *game(3, 2, 3, Outcome.FORFEIT_WIN),
    ]


def test_scores_and_order_with_negative_scores():
    rows = compute_standings([A, B, C, DD], small_event())
    # A: 1 - 1/2 + 1 = 1.5; B: 0 + 1 + 1 = 2; C: -1/2 - 1/2 + 0 = -1; D: -1/2 + 0 + 0 = -1/2
    assert [(r.entrant.name, r.score) for r in rows] == [
        ("B", 2),
        ("A", 1.5),
        ("D", -0.5),
        ("C", -1),
    ]


def test_every_tiebreak_by_hand():
    rows = compute_standings([A, B, C, DD], small_event(), tiebreaks=TIEBREAKS)
    tb = {r.entrant.name: r.tiebreaks for r in rows}
    # Buchholz (BH, 2026): A: B 2 + C -1 + D -1/2 = 1/2; B: A 1.5 + D -1/2 + (forfeit win:
    # the dummy has B's 2, capped at the forfeiting C's -1) = 0; C: D -1/2 + A 1.5 +
    # (forfeit loss: own -1, below B's 2) = 0; D: C -1 + B 2 + A 1.5 = 2.5
    assert {k: v["buchholz"] for k, v in tb.items()} == {"A": 0.5, "B": 0, "C": 0, "D": 2.5}
    assert all(v["buchholz"] == v["BH"] for v in tb.values())
    # The 2024 rules have no cap: B's forfeit win counts B's own 2.
    rows24 = compute_standings([A, B, C, DD], small_event(), tiebreaks=("BH",), rules="2024")
    assert {r.entrant.name: r.tiebreaks["BH"] for r in rows24}["B"] == 3
    # FIDE's SB: opponents' scores times the Standard Points scored against them.
    # A: 1 x 2 + 1/2 x -1 + 1 x -1/2 = 1; B: 0 + 1 x -1/2 + 1 x (dummy -1) = -1.5;
    # C: 1/2 x -1/2 + 1/2 x 1.5 + 0 = 1/2; D: 1/2 x -1 = -1/2
    assert {k: v["SB"] for k, v in tb.items()} == {"A": 1, "B": -1.5, "C": 0.5, "D": -0.5}
    # Cut 1 and median for A: contributions -1, -1/2, 2
    assert tb["A"]["buchholz_cut1"] == 1.5 and tb["A"]["median_buchholz"] == -0.5
    # Sonneborn-Berger with the shift of 1/2 x 3 rounds = 1.5:
    # A: 1 x (2 + 1.5) + 1/2 x (-1 + 1.5) + 1 x (-1/2 + 1.5) = 3.5 + 0.25 + 1 = 4.75
    # B: 0 + 1 x (-1/2 + 1.5) = 1 (the forfeit is not a played game)
    # C: 1/2 x (-1/2 + 1.5) + 1/2 x (1.5 + 1.5) = 0.5 + 1.5 = 2
    # D: 1/2 x (-1 + 1.5) = 0.25
    assert {k: v["sonneborn_berger"] for k, v in tb.items()} == {
        "A": 4.75,
        "B": 1,
        "C": 2,
        "D": 0.25,
    }
    assert {k: v["wins"] for k, v in tb.items()} == {"A": 2, "B": 1, "C": 0, "D": 0}
    # WIN counts B's forfeit win too.
    assert {k: v["WIN"] for k, v in tb.items()} == {"A": 2, "B": 2, "C": 0, "D": 0}
    # Progressive: A 1 + 1/2 + 1.5 = 3; B 0 + 1 + 2 = 3; C -1/2 - 1 - 1 = -2.5; D -1.5
    assert {k: v["progressive"] for k, v in tb.items()} == {"A": 3, "B": 3, "C": -2.5, "D": -1.5}
    # Koya: opponents with score >= 1.5 are A and B.
    assert {k: v["koya"] for k, v in tb.items()} == {"A": 1, "B": 0, "C": -0.5, "D": 0}


def test_ties_broken_by_buchholz_then_sb_then_wins_then_rating():
    # Two players on the same score: B and A both 1 after one round each beating someone.
    results = [*game(1, 1, 3, W), *game(1, 2, 4, W), *game(2, 1, 4, L), *game(2, 2, 3, L)]
    rows = compute_standings([A, B, C, DD], results)
    top = [r.entrant.name for r in rows]
    # Everyone has 1 point; all Buchholz equal 2; SB: A beat C(1): 1+1 = 2, B beat D: 2,
    # C beat B: 2, D beat A: 2; wins all 1; so rating decides: A, B, C, D.
    assert top == ["A", "B", "C", "D"]


def test_direct_encounter_only_when_all_met():
    results = [*game(1, 1, 2, L), *game(1, 3, 4, W)]  # B beat A; C beat D
    rows = compute_standings([A, B, C, DD], results, tiebreaks=("direct_encounter", "buchholz"))
    # B and C tied on 1 but never met: 0 each; then Buchholz equal (0 each: opp scores 0)
    by = {r.entrant.name: r.tiebreaks["direct_encounter"] for r in rows}
    assert by["B"] == 0 and by["C"] == 0
    results2 = [*game(1, 1, 2, L), *game(2, 1, 2, W), *game(1, 3, 4, L), *game(2, 3, 4, L)]
    rows = compute_standings([A, B, C, DD], results2, tiebreaks=("direct_encounter",))
    # A and B: 1 each, met twice: A 1 + 0, B 0 + 1 -> equal; C -? C lost both: 0
    names = [r.entrant.name for r in rows]
    assert names[:3] == ["D", "A", "B"]  # D 2; A, B 1 with equal direct encounter; rating A


def test_byes_and_absence_count_as_own_score_for_buchholz():
    results = [
        *game(1, 1, 2, W),
        RoundResult(1, 3, None, Outcome.BYE, 1.0),
        RoundResult(2, 1, None, Outcome.REQUESTED_BYE, 0.0),
        *game(2, 2, 3, D),
    ]
    rows = compute_standings([A, B, C], results)
    tb = {r.entrant.name: r.tiebreaks["BH"] for r in rows}
    # A: 1 (B: 0 - 1/2 = -1/2) + own 1 for the requested bye = 1/2
    assert tb["A"] == 0.5
    # C: bye -> own 1/2, then B -1/2 -> 0
    assert tb["C"] == 0.0


def test_penalties():
    # e) reduce the offender's points by 1/2 after a win; f) raise the opponent to the maximum
    assert game_points(W, S, (PenaltyEffect(reduce_by=0.5),)) == (W, 0.5)
    assert game_points(D, S, (PenaltyEffect(raise_to_max=True),)) == (D, 1.0)
    # d) declared lost: offender loses, opponent wins
    assert game_points(W, S, (PenaltyEffect(declared_lost=True),)) == (L, 0.0)
    assert game_points(L, S, (), (PenaltyEffect(declared_lost=True),)) == (W, 1.0)


def test_json_form():
    rows = compute_standings([A, B, C, DD], small_event())
    out = standings_json(rows, ("buchholz", "sonneborn_berger", "wins"))
    assert out[0] == {
        "rank": 1,
        "name": "B",
        "score": 2.0,
        "tiebreaks": {
            "BH": 0.0,
            "SSB": 1.0,
            "WON": 1,
            "buchholz": 0.0,
            "sonneborn_berger": 1.0,
            "wins": 1,
        },
    }
    assert isinstance(out[0]["tiebreaks"]["wins"], int)
    # A list of FIDE codes gives the same keys: the codes, then today's names.
    assert standings_json(rows, ("BH", "SSB", "WON")) == out


def test_crosstable_cells():
    rows = compute_standings([A, B, C, DD], small_event())
    cells = crosstable_rows(rows, 3)
    # B (rank 1): R1 lost to A (rank 2) placing second, R2 beat D (rank 3), R3 forfeit win
    assert [c.text() for c in cells[0]] == ["2s0", "3f1", "4f+"]


@pytest.mark.parametrize(
    "value,text",
    [
        (2, "2"),
        (1.5, "1½"),
        (-0.5, "-½"),
        (-1.5, "-1½"),
        (0, "0"),
        (0.5, "½"),
        (0.25, "¼"),
        (-8.75, "-8¾"),
        (3.3, "3.3"),
    ],
)
def test_format_points(value, text):
    assert format_points(value) == text


def test_unknown_tiebreak():
    with pytest.raises(ValueError):
        compute_standings([A], [], tiebreaks=("nonsense",))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(1, 6), st.integers(1, 6), st.sampled_from([W, L, D, Outcome.FORFEIT_WIN])
        ),
        max_size=15,
    )
)
def test_invariants(pairs):
    players = [Entrant(i, f"P{i}", 1000 + i) for i in range(1, 7)]
    results = []
    used = set()
    for rnd, (p, q, out) in enumerate(pairs, start=1):
        if p == q or (rnd, p) in used or (rnd, q) in used:
            continue
        used |= {(rnd, p), (rnd, q)}
        results += game(rnd, p, q, out)
    rows = compute_standings(players, results, tiebreaks=TIEBREAKS)
    assert [r.rank for r in rows] == list(range(1, 7))
    scores = [r.score for r in rows]
    assert scores == sorted(scores, reverse=True)
    total = sum(r.points for r in results)
    assert abs(sum(scores) - total) < 1e-9
    assert all(r.tiebreaks["wins"] <= len(r.rounds) for r in rows)
