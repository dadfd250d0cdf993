"""Property tests: random legal games replay identically from their written record; every
generated move's text reads back as that move; bad input never crashes the reader."""

from __future__ import annotations

import contextlib
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.notation import Notation, describe_move, format_ply, parse_ply
from rules.position import COLOR_NAMES, Position, Rules
from rules.posstring import parse_position, position_to_string
from rules.record import Record, RecordPly, read_record, write_record
from rules.validate import validate_record, validate_text
from tests.rules.conftest import random_line

NOTATIONS = [
    Notation("en"),
    Notation("it"),
    Notation("fr"),
    Notation("en", descriptive=True, seat=1),
    Notation("fr", descriptive=True, seat=2),
]


@st.composite
def games(draw):
    ruleset = draw(st.sampled_from(["laws", "loyd-1989"]))
    first = draw(st.integers(0, 1))
    pos = Position(Rules(ruleset), first)
    return random_line(draw, pos, 10, 90)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.sampled_from(NOTATIONS))
def test_random_games_replay_from_their_record(game, notation):
    positions, moves = game
    start = positions[0]
    tags = {
        "Event": "prop",
        "FirstPlacement": COLOR_NAMES[start.first],
        "Ruleset": start.rules.ruleset,
        "Language": notation.language,
        "Notation": "descriptive" if notation.descriptive else "geometric",
        "Seat": ("apex", "west", "east")[notation.seat],
    }
    plies = []
    for pos, m in zip(positions, moves, strict=False):
        ply = describe_move(pos, m)
        text = format_ply(ply, notation)
        assert parse_ply(text, notation) == ply
        assert parse_ply(text, notation).to_move() == m
        plies.append(RecordPly(ply, text, clock=len(plies) * 7))
    outcome = positions[-1].final_outcome()
    tags["Result"] = outcome.winner_name if outcome else "*"
    record = Record(tags, plies)
    text = write_record(record)
    again = read_record(text)
    assert again == record
    verdict = validate_record(again)
    assert verdict.valid, verdict.error
    assert verdict.plies == len(moves)
    assert verdict.position == positions[-1]
    assert verdict.outcome == outcome
    if start.rules.ruleset == "loyd-1989":
        assert not any(w.article == "3.9" for w in verdict.warnings)
    assert parse_position(position_to_string(positions[-1])) == positions[-1]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_reader_never_crashes_on_arbitrary_text(text):
    try:
        record = read_record(text)
    except RulesError:
        return
    json.dumps(validate_record(record).as_dict())


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_mutated_real_records_never_crash(data):
    from tests.rules.conftest import example_path

    name = data.draw(
        st.sampled_from(
            [
                "example1-laws-capture.kzr",
                "example2-laws-deadlock.kzr",
                "example3-loyd-1989-deadlock.kzr",
            ]
        )
    )
    text = example_path(name).read_text(encoding="utf-8")
    chars = list(text)
    for _ in range(data.draw(st.integers(1, 6))):
        i = data.draw(st.integers(0, len(chars) - 1))
        op = data.draw(st.sampled_from(["drop", "dup", "swap", "char"]))
        if op == "drop":
            del chars[i]
        elif op == "dup":
            chars.insert(i, chars[i])
        elif op == "swap" and i + 1 < len(chars):
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        else:
            chars[i] = data.draw(st.sampled_from(list('→x@()!{}[]"19AEIFelSGV \n-')))
    mutated = "".join(chars)
    try:
        verdict = validate_text(mutated)
    except RulesError:
        return
    out = json.loads(json.dumps(verdict.as_dict()))
    assert set(out) == {"valid", "plies", "error", "warnings", "termination", "winner", "result"}
    if not out["valid"]:
        assert out["error"]["reason"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_position_string_reader_never_crashes(text):
    with contextlib.suppress(RulesError):
        parse_position(text)


# The variants that only change the flat board's parameters; those with their own position
# class (kinta, reflective, tri-level, italian-society) fuzz in their own test modules.
FLAT_VARIANTS = [
    "power-vanguards",
    "alternating-placement",
    "forward-placement",
    "honor-in-setup",
    "clouded",
    "ablative",
    "kaggas-crown",
]


@st.composite
def variant_games(draw):
    from rules.board import SQUARE_OF
    from rules.validate import rules_from_tags

    variants = draw(st.sets(st.sampled_from(FLAT_VARIANTS), min_size=1, max_size=3))
    tags = {
        "Event": "prop",
        "FirstPlacement": draw(st.sampled_from(COLOR_NAMES)),
        "Ruleset": draw(st.sampled_from(["laws", "loyd-1989"])),
        "Variants": ", ".join(sorted(variants)),
    }
    if "clouded" in variants:
        clouds = draw(st.sets(st.sampled_from(sorted(SQUARE_OF)), min_size=1, max_size=6))
        tags["Clouds"] = " ".join(sorted(clouds))
    if "ablative" in variants:
        tags["AblationLimit"] = str(draw(st.integers(0, 8)))
    if "kaggas-crown" in variants:
        tags["Crown"] = draw(st.sampled_from(["", "apex", "I11", "east"]))
    rules, first = rules_from_tags(tags)
    pos = Position(rules, first)
    positions, moves = random_line(draw, pos, 10, 70)
    return tags, positions, moves


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant_games())
def test_random_variant_games_replay_from_their_record(game):
    tags, positions, moves = game
    plies = []
    for pos, m in zip(positions, moves, strict=False):
        ply = describe_move(pos, m)
        plies.append(RecordPly(ply, format_ply(ply)))
    outcome = positions[-1].final_outcome()
    tags = {**tags, "Result": outcome.winner_name if outcome else "*"}
    record = Record(tags, plies)
    again = read_record(write_record(record))
    assert again == record
    verdict = validate_record(again)
    assert verdict.valid, verdict.error
    assert verdict.plies == len(moves)
    assert verdict.position == positions[-1]
    assert verdict.outcome == outcome
    for pos in positions:  # every position keeps its state in its string (a crown win too)
        assert parse_position(position_to_string(pos)) == pos
