"""rules.live: battles played ply by ply on the server agree with the validator on every
ply, every refusal and every ending."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.clock import adjudicate, parse_time_control
from rules.errors import IllegalMoveError, RulesError
from rules.live import LiveBattle, PlyRefused
from rules.live_clock import (
    LAG_MOVE_MAX_MS,
    LAG_QUOTA_MAX_MS,
    lag_compensate,
    lag_estimate,
    ply_charge,
    reading_seconds,
)
from rules.notation import Ply, format_ply
from rules.position import GOAL
from rules.record import read_record, write_record
from rules.validate import validate_record, validate_text

# (Ruleset, Variants, parameter tags) the battles are drawn under; Kinta's combats are not
# played online, so Kinta is drawn only where its battles are replayed from their record.
CONFIGS = [
    ("laws", "", {}),
    ("laws", "honor-in-setup", {}),
    ("laws", "alternating-placement, power-vanguards", {}),
    ("laws", "reflective", {}),
    ("laws", "tri-level", {}),
    ("laws", "ablative", {}),
    ("laws", "clouded", {"Clouds": "E37 F36 C29"}),
    ("loyd-1989", "", {}),
    ("italian-society", "", {}),
]
KINTA = ("laws", "kinta", {})


def _tags(config, first):
    ruleset, variants, params = config
    tags = {"Event": "live", "FirstPlacement": first, "Ruleset": ruleset, **params}
    if variants:
        tags["Variants"] = variants
    return tags


@st.composite
def battles(draw, configs=CONFIGS):
    """(tags, the battle after a random line of listed legal plies)."""
    config = draw(st.sampled_from(configs))
    tags = _tags(config, draw(st.sampled_from(["green", "gold"])))
    battle = LiveBattle(tags)
    for _ in range(draw(st.integers(0, 70))):
        legal = battle.legal()
        if not legal:
            break
        battle.play(legal[draw(st.integers(0, len(legal) - 1))])
    return tags, battle


def _validated(battle, result="*", termination="", extra=None):
    outcome = battle.outcome
    if outcome is not None:
        result, termination = outcome.winner_name, outcome.termination
    record = battle.record(result=result, termination=termination, extra=extra)
    return validate_text(write_record(record))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battles(configs=[*CONFIGS, KINTA]))
def test_a_battle_played_live_validates_to_the_same_plies_and_ending(drawn):
    tags, battle = drawn
    verdict = _validated(battle)
    assert verdict.valid, verdict.error
    assert verdict.plies == len(battle.texts)
    assert verdict.outcome == battle.outcome
    assert verdict.position == battle.position
    assert [p.text for p in read_record(write_record(battle.record())).plies] == battle.texts
    assert LiveBattle.replay(tags, battle.texts).position == battle.position


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battles())
def test_every_listed_ply_is_accepted(drawn):
    tags, battle = drawn
    assert LiveBattle.replay(tags, battle.texts).legal() == battle.legal()
    for text in battle.legal():
        played = battle.copy().play(text)
        assert played.text == text
        # Written as the position asks: no warning about the kill mark or the key.
        assert not [w for w in played.warnings if w.article == "Appendix C"]


def _validator_error(battle, text):
    """The validator's error for `text` played after the battle's plies (None: accepted)."""
    return validate_text(write_record(battle.record()) + text + "\n").error


def _squares(notation, count):
    """The indices of the board's squares (the others pad the bitboards), by their names."""
    found = []
    for i in range(count):
        name = notation.square(i)
        with contextlib.suppress(RulesError):
            if name and notation.parse_square(name) == i:
                found.append(i)
    return found


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battles(), st.data())
def test_a_made_up_ply_is_refused_exactly_as_the_validator_refuses_it(drawn, data):
    tags, battle = drawn
    squares = _squares(battle.notation, len(battle.position.sq))
    moves = battle.position.generate_legal_moves()
    dest = data.draw(st.sampled_from(squares))
    if moves and data.draw(st.booleans()):
        # A warrior that may move, sent somewhere it perhaps may not: the rules' refusals.
        near = moves[data.draw(st.integers(0, len(moves) - 1))]
        origin, kind = near.origin, near.kind
    else:
        origin = data.draw(st.one_of(st.none(), st.sampled_from(squares)))
        kind = data.draw(st.integers(1, GOAL))
    text = format_ply(Ply(kind, dest, origin), battle.notation)
    expected = _validator_error(battle, text)
    n = battle.next_n
    try:
        battle.play(text)
    except PlyRefused as exc:
        assert expected is not None, exc.refusal
        assert (exc.refusal.ply, exc.refusal.article) == (expected.ply, expected.article)
        assert str(exc.refusal.reason) == str(expected.reason)
        assert exc.refusal.as_dict() == {
            "ply": n,
            "article": expected.article,
            "message": str(expected.reason),
        }
        assert battle.next_n == n
    else:
        assert expected is None
        assert battle.next_n == n + 1


@pytest.mark.parametrize(
    "text,article",
    [("Qq→C18", "Appendix C"), ("what", "Appendix C"), ("Fe→Z99", "Appendix C")],
)
def test_an_unreadable_ply_is_refused_as_the_validator_names_it(text, article):
    battle = LiveBattle({"FirstPlacement": "green"})
    with pytest.raises(PlyRefused) as caught:
        battle.play(text)
    expected = _validator_error(battle, text)
    assert caught.value.refusal.article == article == expected.article
    assert str(caught.value.refusal.reason) == str(expected.reason)


def test_a_ply_with_a_comment_or_two_plies_is_refused():
    battle = LiveBattle({})
    for text in ("Fe→C29 {hello}", "Fe→C29\nFe→C18", "  "):
        with pytest.raises(PlyRefused) as caught:
            battle.play(text)
        assert caught.value.refusal.code == "one_ply_only"
    assert battle.next_n == 1


def test_tags_naming_unknown_rules_are_refused_as_the_validator_refuses_them():
    with pytest.raises(IllegalMoveError) as caught:
        LiveBattle({"Ruleset": "chess"})
    assert caught.value.code == "unknown_ruleset"


def _kinta_battle_at_a_combat():
    """A Kinta battle played from the listed plies up to a position where a combat is
    possible, and that combat's ply."""
    battle = LiveBattle(_tags(KINTA, "green"))
    for _ in range(400):
        pos = battle.position
        side = battle.side
        for m in pos.generate_moves():
            code = pos.sq[m.dest]
            if m.origin is not None and code and code >> 3 != side:
                from_text = format_ply(
                    Ply(m.kind, m.dest, m.origin, m.carry, True), battle.notation
                )
                return battle, from_text
        battle.play(battle.legal()[0])
    raise AssertionError("no combat came up")


def test_kintas_combats_are_refused_as_not_online_yet():
    battle, combat = _kinta_battle_at_a_combat()
    assert not any(
        t.split(" ")[0] == combat.split(" ")[0] and t.endswith(combat.split(" ")[-1])
        for t in battle.legal()
    )
    with pytest.raises(PlyRefused) as caught:
        battle.play(combat)
    assert caught.value.refusal.code == "combat_not_online"


def test_no_draws_under_the_italian_society():
    assert LiveBattle({}).draws_allowed()
    assert not LiveBattle({"Ruleset": "italian-society"}).draws_allowed()


def test_a_time_out_is_recorded_so_that_kz_clock_decides_the_same():
    battle = LiveBattle({"FirstPlacement": "green", "TimeControl": "60"})
    battle.play(battle.legal()[0])
    result, extra = battle.time_out(1)
    assert result == "green"
    record = battle.record(result=result, termination="time", clocks=[55], extra=extra)
    again = read_record(write_record(record))
    assert validate_record(again).valid
    decision = adjudicate(again)
    assert (decision.decision, decision.loser) == ("time", "gold")


def test_the_phase_and_turn():
    battle = LiveBattle({"FirstPlacement": "gold"})
    assert (battle.phase, battle.turn, battle.next_n) == ("placement", "gold", 1)


# --- the server's clock ---------------------------------------------------------------------


def test_lag_is_compensated_under_the_quota_and_the_cap():
    assert lag_compensate(500, 2000) == (500, 2500)
    assert lag_compensate(10_000, 5000) == (LAG_MOVE_MAX_MS, 3000)
    assert lag_compensate(100, 5000) == (100, LAG_QUOTA_MAX_MS)
    assert lag_compensate(-50, 2000) == (0, 3000)


def test_a_ply_charge_reads_the_period_reached_and_the_increment():
    tc = parse_time_control("2/60:30+5")
    first = ply_charge(
        tc, elapsed_ms=10_000, lag_ms=0, quota_ms=2000, completed=0, used_ms=0, completes_move=True
    )
    assert (first.charged_ms, first.left_ms, first.flagged) == (10_000, 50_000, False)
    second = ply_charge(
        tc, elapsed_ms=5_000, lag_ms=1000, quota_ms=2000, completed=1, used_ms=10_000,
        completes_move=True,
    )  # fmt: skip
    # The second move completes the first period: its reading holds the next period's time.
    assert second.compensated_ms == 1000
    assert second.left_ms == 60_000 + 30_000 - 14_000
    late = ply_charge(
        tc, elapsed_ms=50_000, lag_ms=0, quota_ms=2000, completed=1, used_ms=10_000,
        completes_move=True,
    )  # fmt: skip
    assert late.flagged and late.left_ms == 0
    assert (
        ply_charge(
            None, elapsed_ms=9, lag_ms=0, quota_ms=0, completed=0, used_ms=0, completes_move=False
        ).left_ms
        is None
    )


def test_readings_round_up_so_that_zero_means_a_fallen_flag():
    assert [reading_seconds(ms) for ms in (0, 1, 999, 1000, 1001, -5)] == [0, 1, 1, 1, 2, 0]


def test_the_lag_estimate_is_the_delay_beyond_the_best_transit():
    assert lag_estimate([]) == 0
    assert lag_estimate([500, 480, 700]) == 220
