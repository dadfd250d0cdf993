"""Appendix C notation: every example of the Laws read and written back, languages, seats."""

from __future__ import annotations

import pytest

from rules.board import SQUARE_OF, WEST
from rules.errors import NotationError
from rules.notation import (
    KEYS,
    Notation,
    _square_table,
    describe_move,
    format_ply,
    move_text,
    parse_ply,
    written_reader,
)
from rules.position import FENCER, GOAL, LANCER, SWIFT, Move
from rules.posstring import parse_position

S = SQUARE_OF

LAWS_EXAMPLES = [
    # (as printed in Appendix C, as the writer writes it)
    ("S→ G68", "S→G68"),
    ("S@G68 → F47", "S@G68 → F47"),
    ("S@F47 x V@D38", "S@F47 x V@D38"),
    ("S@D38 x G@B29!", "S@D38 x G@B29!"),
    ("L@E48 → G@D28", "L@E48 → G@D28"),
    ("(L)@D28 → B29", "(L)@D28 → B29"),
    ("S@D38 x L@B29!", "S@D38 x L@B29!"),
    ("G→H57", "G→H57"),
]


@pytest.mark.parametrize("printed,written", LAWS_EXAMPLES)
def test_appendix_c_examples_round_trip(printed, written):
    ply = parse_ply(printed)
    assert format_ply(ply) == written
    assert parse_ply(written) == ply


def test_example_readings():
    p = parse_ply("(L)@D28 → B29")
    assert (p.kind, p.origin, p.dest, p.carry) == (LANCER, S["D28"], S["B29"], True)
    p = parse_ply("S@D38 x G@B29!")
    assert p.kill_mark and p.dest_kind == GOAL and p.bang
    p = parse_ply("S→G68")
    assert p.origin is None and p.kind == SWIFT


@pytest.mark.parametrize(
    "variant",
    ["S@G68->F47", "s@g68 → f47", "S @ G68 → F47", "S@G68→F47", "  S@G68 ->  F47  "],
)
def test_lenient_reading(variant):
    assert parse_ply(variant) == parse_ply("S@G68 → F47")


def test_carried_key_in_a_kill():
    p = parse_ply("S@D38 x (L)@B29!")
    assert p.dest_kind == LANCER and p.dest_carried
    assert format_ply(p) == "S@D38 x (L)@B29!"


@pytest.mark.parametrize(
    "lang,text,kind",
    [
        ("it", "S@E37 → E38", FENCER),
        ("it", "R@E37 → G35", SWIFT),
        ("fr", "M@E37 → E38", FENCER),
        ("fr", "C@E37 → G35", SWIFT),
        ("fr", "Bu→E37", GOAL),
        ("it", "I→E37", GOAL),
    ],
)
def test_languages(lang, text, kind):
    n = Notation(lang)
    ply = parse_ply(text, n)
    assert ply.kind == kind
    assert parse_ply(format_ply(ply, n), n) == ply


def test_descriptive_coordinates():
    west = Notation("en", descriptive=True, seat=WEST)
    ply = parse_ply("V@A1 → B2", west)
    assert (ply.origin, ply.dest) == (S["I11"], S["I12"])
    assert format_ply(ply, west) == "V@A1 → B2"
    apex = Notation("en", descriptive=True)
    assert parse_ply("Fe@E5 → A1", apex).origin == S["E37"]


@pytest.mark.parametrize(
    "bad", ["", "hello", "S@E37", "Q@E37 → E38", "S@E37 → Z99", "S→E37!", "(S)→E37", "S x E37"]
)
def test_unreadable(bad):
    with pytest.raises(NotationError):
        parse_ply(bad)


def test_writing_from_a_position():
    p = parse_position("laws - green 20 apex/SF47,LE48/D28 east/VD38,LB29/B29")
    assert move_text(p, Move(S["F47"], S["D38"], SWIFT)) == "S@F47 x V@D38"
    assert move_text(p, Move(S["E48"], S["D28"], LANCER)) == "L@E48 → G@D28"
    q = parse_position("laws - green 20 apex/SD38,VA19/A19 east/LB29/B29")
    assert move_text(q, Move(S["D38"], S["B29"], SWIFT)) == "S@D38 x L@B29!"
    r = parse_position("laws - green 20 apex/SD38,VA19/A19 east/VI99/B29")
    assert move_text(r, Move(S["D38"], S["B29"], SWIFT)) == "S@D38 x G@B29!"
    assert describe_move(r, Move(S["D38"], S["B29"], SWIFT)).bang


NOTATIONS = [
    Notation(),
    Notation("it", False, WEST),
    Notation("fr", True, WEST),
    Notation("en", True, 2),
    Notation("en", False, 0, True),
]


@pytest.mark.parametrize("notation", NOTATIONS, ids=str)
def test_written_reader_reads_as_parse_ply(notation):
    # The look-up reader of the writer's form: every placement, every head with a few tails
    # and every tail with a few heads read exactly as the regex reads them.
    read = written_reader(notation)
    names = list(_square_table(notation))
    keys = KEYS[notation.language]
    heads = [f"{k}@{n}" for k in keys for n in names] + [f"({k})@{n}" for k in keys for n in names]
    tails = [
        f"{dk}{n}{bang}"
        for n in names
        for bang in ("", "!")
        for dk in ("", *(f"{k}@" for k in keys), *(f"({k})@" for k in keys))
    ]
    for text in [f"{k}→{n}" for k in keys for n in names]:
        assert read(text) == parse_ply(text, notation)
    for i, head in enumerate(heads):
        for sep in ("→", "x"):
            for text in (
                f"{head} {sep} {tails[i % len(tails)]}",
                f"{heads[-1 - i]} {sep} {head}",
            ):
                assert read(text) == parse_ply(text, notation), text
    for i, tail in enumerate(tails):
        text = f"{heads[i % len(heads)]} x {tail}"
        assert read(text) == parse_ply(text, notation)
    # Anything else is left to the regex.
    for other in (
        "S@G68  → F47",
        "s@G68 → F47",
        "S@g68 → F47",
        "S@G68 -> F47",
        "S → G68",
        "S@G68 X F47",
    ):
        assert read(other) is None
