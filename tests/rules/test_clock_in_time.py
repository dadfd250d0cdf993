"""Clock adjustments in time (Art. 6.8, 6.9, 6.12-6.14, 12.4 b/c, 12.5): each applies from its
ply or moment on, latecomers' charges are not counted twice, and both flags as 6.14 says."""

from __future__ import annotations

import pytest

from rules.clock import (
    Adjustment,
    ClockError,
    adjudicate,
    latecomer_adjustments,
    ply_at_moment,
    reading_moments,
)
from tests.rules.test_clock import record

TC = "20/1800:1200"
GREEN, GOLD = 0, 1


def test_readings_before_the_adjustment_are_untouched():
    # gold (plies 20, 22, 24, 26, ...) has 8 s after ply 22 and 40 s after ply 26
    rec = record(TC, {22: "0:00:08", 26: "0:00:40"})
    assert adjudicate(rec).decision is None
    # -10 s imposed after ply 25 (12.4c): ply 22's 8 s stays 8 s, ply 26's 40 s is 30 s
    assert adjudicate(rec, (Adjustment(GOLD, 26, -10, "12.4c"),)).decision is None
    # the same adjustment from ply 1 would have flagged gold at ply 22
    early = adjudicate(rec, (Adjustment(GOLD, 1, -10, "12.4c"),))
    assert (early.decision, early.loser) == ("time", "gold") and "ply 22" in early.explanation
    # from ply 26 it flags gold there once the reading left is under its amount
    late = adjudicate(record(TC, {26: "0:00:09"}), (Adjustment(GOLD, 26, -10, "12.4c"),))
    assert (late.loser, "ply 26" in late.explanation) == ("gold", True)


def test_a_moment_is_placed_at_the_first_reading_taken_after_it():
    # green's setup ends at ply 19 after 60 s; gold's at ply 20 after 1740 s; green's move 2
    # at ply 21 after 60 s more; gold's at ply 22 after 10 s more
    rec = record(TC, {19: "0:29:00", 20: "0:01:00", 21: "0:28:00", 22: "0:00:50"})
    assert reading_moments(rec) == {19: 60, 20: 1800, 21: 1860, 22: 1870}
    assert ply_at_moment(rec, 0) == 19
    assert ply_at_moment(rec, 1800) == 21
    assert ply_at_moment(rec, 1870) is None  # no reading after it
    # a minute less for gold from the 1850th second on: ply 20's minute is untouched,
    # ply 22's 50 s are gone
    at = adjudicate(rec, (Adjustment(GOLD, 99, -60, "12.4c", at=1850),))
    assert at.loser == "gold" and "ply 22" in at.explanation
    # from the 1000th second on, the minute left at ply 20 was already gone
    before = adjudicate(rec, (Adjustment(GOLD, 99, -60, "12.4c", at=1000),))
    assert before.loser == "gold" and "ply 20" in before.explanation
    # a moment after the last reading changes none of them, whatever ply was given
    assert adjudicate(rec, (Adjustment(GOLD, 1, -60, "12.4c", at=5000),)).decision is None
    # without a time control the readings cannot place a moment: the ply given stands
    bare = record(None, {26: "0:00:30"})
    assert adjudicate(bare, (Adjustment(GOLD, 27, -60, "12.4c", at=5),)).decision is None
    assert adjudicate(bare, (Adjustment(GOLD, 26, -60, "12.4c", at=5),)).loser == "gold"


def test_moments_need_a_time_control():
    assert reading_moments(record(None, {19: "0:29:00"})) == {}
    assert ply_at_moment(record(None, {19: "0:29:00"}), 10) is None


def test_a_latecomer_is_not_charged_twice():
    # 6.8: green came 3 minutes late and its clock ran meanwhile: 2 minutes left at ply 25
    # are 2 minutes, not a flag
    charges = latecomer_adjustments(180, 0)
    assert charges == (Adjustment(GREEN, 1, -180, "6.8", in_readings=True),)
    assert adjudicate(record(TC, {25: "0:02:00"}), charges).decision is None


def test_double_latecomers_adjust_the_clock_that_did_not_run():
    # 6.9: green 2 minutes late, gold 5; green's clock ran until green came (2 min), then
    # gold's ran for its last 3 minutes (6.8): gold is adjusted by the 2 minutes only
    ran_green = latecomer_adjustments(120, 300, GREEN)
    assert ran_green == (
        Adjustment(GREEN, 1, -120, "6.9", in_readings=True),
        Adjustment(GOLD, 1, -120, "6.9"),
        Adjustment(GOLD, 1, -180, "6.8", in_readings=True),
    )
    # gold's clock ran throughout (until gold came, 5 min): green is adjusted by its own 2
    ran_gold = latecomer_adjustments(120, 300, GOLD)
    assert ran_gold == (
        Adjustment(GREEN, 1, -120, "6.9"),
        Adjustment(GOLD, 1, -300, "6.9", in_readings=True),
    )
    # each is charged exactly their own lateness in all
    for charges in (ran_green, ran_gold):
        total = [sum(a.seconds for a in charges if a.side == s) for s in (GREEN, GOLD)]
        assert total == [-120, -300]
    # gold with 1:50 left at ply 22: the 2 minutes its clock did not run flag it
    rec = record(TC, {22: "0:01:50"})
    assert adjudicate(rec, ran_green).loser == "gold"
    assert adjudicate(rec, ran_gold).decision is None
    with pytest.raises(ValueError):
        latecomer_adjustments(1, 1, 2)


def test_both_flags_with_the_ply_noted_lose_for_the_side_that_made_it():
    # a flag falls only on the running clock: the one during ply 22 is gold's, first
    d = adjudicate(record(TC, {}, Flag="both", FlagPly="22"))
    assert (d.decision, d.loser, d.article) == ("time", "gold", "6.5")
    d = adjudicate(record(TC, {}, Flag="both", FlagPly="25"))
    assert (d.decision, d.loser) == ("time", "green")
    with pytest.raises(ClockError):
        adjudicate(record(TC, {}, Flag="both", FlagPly="31"))


def test_both_flags_with_no_order_known_continue():
    d = adjudicate(record(TC, {}, Flag="both"))
    assert (d.decision, d.loser, d.article) == ("continue", None, "6.14")
    # a zero reading notes which fell first
    d = adjudicate(record(TC, {26: "0:00:00"}, Flag="both"))
    assert (d.decision, d.loser) == ("time", "gold")
    # a first flag that decides nothing (gold had made its 3 moves) leaves the order of the
    # rest unknown: 6.14
    d = adjudicate(record("3/600", {26: "0:00:00"}, Flag="both"))
    assert (d.decision, d.article) == ("continue", "6.14")
