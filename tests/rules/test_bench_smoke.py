"""The variant benchmark (bench/variant_bench.py) runs for every case; timings are not judged."""

from __future__ import annotations

import json
import random

import pytest

from bench import variant_bench as vb
from rules.kinta import KintaPosition
from rules.trilevel import TriLevelPosition
from rules.validate import validate_text


def test_every_variant_and_ruleset_is_a_case():
    from rules.variants import KNOWN_VARIANTS

    named = {v for case in vb.CASES for v in case.variants}
    assert named == KNOWN_VARIANTS
    assert {case.ruleset for case in vb.CASES} == {"laws", "loyd-1989", "italian-society"}
    for case in vb.CASES:
        rules = case.rules()
        assert rules.variants == frozenset(case.variants) and rules.ruleset == case.ruleset


@pytest.mark.parametrize("case", vb.CASES, ids=lambda c: c.name)
def test_a_tiny_run_measures_each_case(case):
    m = vb.measure(case, vb.TINY)
    assert m.nodes > 0
    assert m.records == 2 and m.plies > 0
    assert all(ply > 0 for ply in m.positions)


def test_midgame_positions_are_in_battle_and_undecided():
    for case in vb.CASES:
        (pos,) = vb.midgame_positions(case, 1, 4, seed=3)
        assert pos.in_battle and pos.outcome is None and pos.generate_moves()
        if case.name == "kinta":
            assert isinstance(pos, KintaPosition)
        if case.name == "tri-level":
            assert isinstance(pos, TriLevelPosition)


def test_sampled_roots_count_one_ply_less():
    (pos,) = vb.midgame_positions(vb.FLAT, 1, 4, seed=3)
    items = vb.perft_roots([pos], 3, 2, random.Random(1))
    assert len(items) == 2 and all(depth == 2 for _p, depth in items)
    assert all(p.ply == pos.ply + 1 for p, _depth in items)
    assert vb.perft_roots([pos], 3, 0, random.Random(1)) == [(pos, 3)]


def test_kinta_records_carry_their_casts_and_validate():
    case = next(c for c in vb.CASES if c.name == "kinta")
    texts, plies = vb.random_records(case, 3, 90, seed=2)
    assert any("[%cast " in t for t in texts)
    assert sum(validate_text(t).plies for t in texts) == plies


def test_tri_level_records_are_written_in_cells():
    case = next(c for c in vb.CASES if c.name == "tri-level")
    (text,), plies = vb.random_records(case, 1, 30, seed=2)
    assert '[Variants "tri-level"]' in text
    assert validate_text(text).plies == plies == 30


def test_run_gives_ratios_against_flat_and_prints_them():
    cases = [c for c in vb.CASES if c.name in ("kinta", "ruleset loyd-1989")]
    measures = vb.run(vb.TINY, cases)
    assert [m.case for m in measures] == ["flat", "kinta", "ruleset loyd-1989"]
    assert measures[0].perft_ratio == pytest.approx(1.0)
    assert all(m.perft_ratio and m.validate_ratio for m in measures)
    lines = vb.table(measures).splitlines()
    assert len(lines) == 2 + len(measures) and "kinta" in lines[3]
    json.dumps([m.as_dict() for m in measures])
