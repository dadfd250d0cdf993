"""Goal safety judged from attack maps (Position._safe_battle_dests, _any_safe) agrees with
playing each move on a copy and asking whether the own Goal can be taken, under every
ruleset and the variants that change safety."""

from __future__ import annotations

import random

import pytest

from rules.board import iter_bits
from rules.engines import new_position
from rules.kinta import KintaPosition
from rules.position import Move, Position
from rules.validate import rules_from_tags

CASES = [
    {"Ruleset": "laws"},
    {"Ruleset": "loyd-1989"},
    {"Ruleset": "loyd-1989", "Variants": "power-vanguards"},
    {"Ruleset": "loyd-1989", "Variants": "clouded", "Clouds": "E37 F36 G46 D28"},
    {"Ruleset": "loyd-1989", "Variants": "ablative", "AblationLimit": "6"},
    {"Variants": "kinta"},
    {"Variants": "kinta, power-vanguards"},
    {"Variants": "tri-level"},
    {"Variants": "reflective"},
    {"Ruleset": "italian-society"},
    {"Ruleset": "italian-society", "Removed": "Blockader"},
    {"Ruleset": "italian-society", "Variants": "power-vanguards"},
]


def played_safe(pos: Position, side: int, move: Move) -> bool:
    """The literal test: capture the enemy Goal, or leave the own Goal where the enemy,
    moving next, cannot take it (Kinta: every combat won by the mover)."""
    if move.dest == pos._goal_to_capture(side):
        return True
    after = pos.copy()
    after.push_battle_move(side, move)
    if isinstance(after, KintaPosition):
        g = after.goal[side]
        return not (g >= 0 and after.can_reach(1 - side, g))
    return not after.is_in_jeopardy(side)


def moves(dests):
    return sorted(
        (o, t, kind, carrying)
        for o, kind, d, carry in dests
        for carrying, ends in ((False, d), (True, carry))
        for t in iter_bits(ends)
    )


@pytest.mark.parametrize("tags", CASES, ids=lambda t: ", ".join(t.values()))
def test_maps_judge_as_playing_each_move(tags):
    rules, _ = rules_from_tags(tags)
    checked = 0
    for game in range(4):
        rng = random.Random(f"{sorted(tags.items())}/{game}")
        pos = new_position(rules, game % 2)
        for _ in range(160):
            if pos.outcome is not None:
                break
            side, stage = pos.stage()
            if stage == "battle":
                every = list(pos._battle_dests(side))
                safe = [
                    m for m in moves(every) if played_safe(pos, side, Move(m[0], m[1], m[2], m[3]))
                ]
                assert moves(pos._safe_battle_dests(side)) == safe
                assert pos._any_safe(side, iter(every)) == bool(safe)
                checked += 1
            legal = pos.generate_legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            if rng.random() < 0.8:
                # Mostly safe moves, so that games run long; some unsafe ones for the jeopardy.
                move = rng.choice([m for m in legal if pos.is_safe(m)] or legal)
            pos = pos.apply(move)
    assert checked > 100
