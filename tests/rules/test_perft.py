"""Perft (rules.md §6) from the empty board, the example record and hand-built positions,
and the fast generator cross-checked against a literal reading of the rules."""

from __future__ import annotations

import random

import pytest

from rules.board import SQUARE_OF
from rules.position import Position, Rules
from rules.posstring import parse_position
from rules.record import read_record
from rules.validate import validate_record
from tests.rules.reference import in_jeopardy, legal_battle_moves


def test_empty_board():
    p = Position()
    assert p.perft(0) == 1
    assert p.perft(1) == 432  # 3 regions x 24 triangles x 6 kinds
    # After a one-of-a-kind warrior: 5 kinds x 23; after a Flier or Vanguard: 6 x 23.
    # Per region 24 x (4 x 115 + 2 x 138) = 17,664; three regions: 52,992.
    assert p.perft(2) == 52_992


def test_second_placer_chooses_between_two_regions():
    p = Position()
    for _ in range(9):
        p = p.apply(p.generate_moves()[0])
    # Nine of green's warriors placed: gold has 6 kinds x 48 triangles (two empty regions).
    assert p.count_moves() == 6 * 48


def test_example_start_of_battle(example_text):
    v = validate_record(read_record(example_text("example-perft-start-of-battle.kzr")))
    assert v.position is not None
    assert v.position.perft(1) == 52
    assert v.position.perft(2) == 2_015


def test_hand_built_vanguards():
    # Green V holding its Goal on E37: 3 squares x (with, without the Goal) = 6; gold's V on
    # I99 holding its Goal has one neighbour, I89: 2 each, so 12; then green again has 6 or
    # (after leaving the Goal) ... counted at depth 2 only.
    p = parse_position("laws - green 20 apex/VE37/E37 east/VI99/I99")
    assert p.perft(1) == 6
    assert p.perft(2) == 12


def test_hand_built_deadlock_counts_zero():
    p = parse_position("laws - green 20 apex/VA19/A19 west/FlC17,VI11/I11")
    assert p.perft(1) == 0
    assert p.perft(3) == 0
    assert p.perft(0) == 1


def test_capture_ends_the_count():
    # Green's Fencer next to gold's lone Goal: the capture is one move and ends the battle.
    p = parse_position("laws - green 20 apex/FeE37,VA19/A19 east/VI99/E38")
    moves = p.generate_moves()
    capture = [m for m in moves if p.apply(m).outcome is not None]
    assert len(capture) == 1
    assert p.apply(capture[0]).perft(1) == 0


CLOUDS = frozenset(SQUARE_OF[n] for n in ("E37", "F36", "G46", "D28"))


def _random_games(seed: int, games: int, max_plies: int = 120):
    rng = random.Random(seed)
    combos = [
        ((), {}),
        (("power-vanguards",), {}),
        (("ablative", "clouded"), {"ablation_limit": 6, "clouds": CLOUDS}),
        (("forward-placement", "alternating-placement", "kaggas-crown"), {}),
        (("honor-in-setup", "ablative"), {}),
    ]
    for g in range(games):
        names, params = combos[g % len(combos)]
        ruleset = "loyd-1989" if g % 4 == 3 else "laws"
        pos = Position(Rules(ruleset, frozenset(names), **params), g % 2)
        while pos.ply < max_plies:
            moves = pos.generate_moves()
            if not moves:
                break
            yield pos
            pos = pos.apply(rng.choice(moves))


def test_fast_generator_matches_the_literal_rules():
    checked = 0
    for pos in _random_games(7, 10):
        if not pos.in_battle:
            continue
        fast = {(m.origin, m.dest, m.carry) for m in pos.generate_legal_moves()}
        assert fast == legal_battle_moves(pos)
        assert pos.count_legal_moves() == len(fast)
        side = pos.turn
        for m in pos.generate_legal_moves():
            after = pos.apply(m)
            assert pos.is_safe(m) == (after.outcome is not None or not in_jeopardy(after, side))
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("depth", [1, 2])
def test_count_matches_generation(depth):
    for pos in _random_games(11, 4, 80):
        assert pos.perft(depth) == sum(
            1 if depth == 1 else pos.apply(m).perft(depth - 1) for m in pos.generate_moves()
        )
