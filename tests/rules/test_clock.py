"""Clock adjudication (Art. 6, records.md §4): time controls, move counting, flags."""

from __future__ import annotations

import pytest

from rules.clock import (
    Adjustment,
    ClockError,
    Period,
    adjudicate,
    describe_time_control,
    format_time_control,
    parse_time_control,
    ply_turns,
)
from rules.record import read_record

SETUP = (
    "Fe→C29 Fl→F37 B→A19 Fl→E49 S→D28 V→E26 V→E48 V→C18 L→C17 "
    "Fe→G25 S→H34 V→I23 B→G13 Fl→H13 L→H24 V→G14 Fl→I44 V→G35 G→C17 G→G35 "
)
BATTLE = [
    "Fl@E49 → F69",
    "L@H24 → H23",
    "V@C18 → C28",
    "Fe@G25 x V@E26",
    "Fl@F37 → I67",
    "Fl@H13 → H35",
    "Fl@I67 → I34",
    "Fe@E26 → E38",
    "Fl@F69 → C39",
    "Fl@H35 → H12",
]


def record(tc: str | None, clocks: dict[int, str], **tags: str):
    plies = SETUP.split() + BATTLE
    # one ply a line, with the readings asked for
    lines = []
    i = 0
    tokens = SETUP.split()
    for t in tokens:
        i += 1
        lines.append(t + (f" {{[%clk {clocks[i]}]}}" if i in clocks else ""))
    for t in BATTLE:
        i += 1
        lines.append(t + (f" {{[%clk {clocks[i]}]}}" if i in clocks else ""))
    head = {"FirstPlacement": "green", **({"TimeControl": tc} if tc else {}), **tags}
    text = "".join(f'[{k} "{v}"]\n' for k, v in head.items()) + "\n" + "\n".join(lines)
    assert len(plies) == 30
    return read_record(text)


def test_time_control_parsing():
    tc = parse_time_control("20/1800:1200")
    assert tc.periods == (Period(20, 1800), Period(None, 1200))
    assert format_time_control(tc) == "20/1800:1200"
    assert describe_time_control(tc) == "20 moves in 30 minutes, then all moves in 20 minutes"
    assert parse_time_control("1500+10").periods == (Period(None, 1500, 10),)
    for bad in ["", "x", "20/", "1200:20/1800", "0/60", "20/1800:abc"]:
        with pytest.raises(ClockError):
            parse_time_control(bad)


def test_setup_is_move_one():
    turns = ply_turns(record(None, {}))
    assert all(t.move == 1 for t in turns[:20])
    assert turns[18].completes and turns[19].completes and not turns[5].completes
    assert (turns[20].side, turns[20].move) == (0, 2)  # green's first battle move is move 2
    assert (turns[29].side, turns[29].move) == (1, 6)


def test_flag_before_the_period_requirement_loses():
    # gold's reading 0:00:00 at ply 30, its move 6 of the 20 required
    d = adjudicate(record("20/1800:1200", {30: "0:00:00"})).as_dict()
    assert d == {"decision": "time", "loser": "gold", "article": "6.5"}


def test_flag_in_setup_loses():
    d = adjudicate(record("20/1800:1200", {4: "0:00:00"})).as_dict()
    assert d == {"decision": "time", "loser": "green", "article": "6.5"}


def test_flag_after_the_requirement_met_decides_nothing():
    # 5 moves in 10 minutes and nothing after: gold's move 6 is beyond any requirement
    d = adjudicate(record("5/600", {30: "0:00:00"})).as_dict()
    assert d == {"decision": None, "loser": None, "article": None}
    # but a flag on move 5 itself loses
    assert adjudicate(record("5/600", {28: "0:00:00"})).loser == "gold"


def test_final_period_requires_all_moves():
    d = adjudicate(record("5/600:300", {30: "0:00:00"})).as_dict()
    assert d == {"decision": "time", "loser": "gold", "article": "6.5"}


def test_no_flag_no_decision():
    d = adjudicate(record("20/1800:1200", {21: "0:29:00", 22: "0:01:00"})).as_dict()
    assert d == {"decision": None, "loser": None, "article": None}


def test_flag_tags():
    d = adjudicate(record("20/1800:1200", {}, Flag="green", FlagPly="25")).as_dict()
    assert d == {"decision": "time", "loser": "green", "article": "6.5"}
    d = adjudicate(record("20/1800:1200", {}, Flag="both")).as_dict()
    assert d == {"decision": "continue", "loser": None, "article": "6.14"}
    d = adjudicate(record("3/600", {}, Flag="gold")).as_dict()  # gold completed 5 moves
    assert d == {"decision": None, "loser": None, "article": None}
    with pytest.raises(ClockError):
        adjudicate(record("3/600", {}, Flag="gold", FlagPly="99"))


def test_first_flag_by_ply_order_decides():
    d = adjudicate(record("20/1800:1200", {27: "0:00:00", 30: "0:00:00"})).as_dict()
    assert d["loser"] == "green"


def test_no_time_control_treats_the_game_as_one_period():
    d = adjudicate(record(None, {26: "0:00:00"})).as_dict()
    assert d == {"decision": "time", "loser": "gold", "article": "6.5"}


def test_arbiter_adjustments_change_the_decision():
    rec = record("20/1800:1200", {30: "0:00:00"})
    # 12.5: one minute more for gold from ply 29 on: the zero reading is really 0:01:00
    assert adjudicate(rec, (Adjustment(1, 29, 60, "12.5"),)).decision is None
    # 12.4 c: time taken from green makes its reading of 0:00:30 at ply 25 a flag
    rec2 = record("20/1800:1200", {25: "0:00:30"})
    assert adjudicate(rec2).decision is None
    assert adjudicate(rec2, (Adjustment(0, 21, -30, "12.4c"),)).loser == "green"


def test_latecomers_are_charged_their_lateness():
    from rules.clock import latecomer_adjustments

    assert latecomer_adjustments(0, 0) == ()
    # 6.8: only gold was absent; its clock ran for the 5 minutes until it arrived, so its
    # readings hold the charge already (tests/rules/test_clock_in_time.py for 6.9)
    assert latecomer_adjustments(0, 300) == (Adjustment(1, 1, -300, "6.8", in_readings=True),)
    with pytest.raises(ValueError):
        latecomer_adjustments(-1, 0)
    # A reading of 2 minutes left at ply 25 stays 2 minutes for a green who came 3 minutes
    # late: the clock that ran while green was away is the one read.
    rec = record("20/1800:1200", {25: "0:02:00"})
    assert adjudicate(rec).decision is None
    assert adjudicate(rec, latecomer_adjustments(180, 0)).decision is None
