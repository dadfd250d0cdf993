"""Records (.kzr): tags, movetext, comments and clock readings; read(write(x)) == x."""

from __future__ import annotations

import pytest

from rules.errors import RecordError, RulesError
from rules.notation import format_ply
from rules.record import read_record, write_record

EXAMPLES = [
    "example1-laws-capture.kzr",
    "example2-laws-deadlock.kzr",
    "example3-loyd-1989-deadlock.kzr",
    "example-perft-start-of-battle.kzr",
]


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_round_trip(example_text, name):
    record = read_record(example_text(name))
    text = write_record(record)
    again = read_record(text)
    assert again == record
    assert write_record(again) == text
    assert all(rp.ply is not None for rp in record.plies)


def test_tags_movetext_clocks_comments():
    text = (
        '[Event "Klinzhai \\"Open\\""]\n[Round "3"]\n[FirstPlacement "gold"]\n'
        '[TimeControl "20/1800:1200"]\n\n'
        "{a preamble}\n1. L→I67\nV->I99 {[%clk 0:29:40]} {nice}\n2. Fe→I88 {[%clk 1:02:03]}"
    )
    r = read_record(text)
    assert r.tags["Event"] == 'Klinzhai "Open"'
    assert r.tags["FirstPlacement"] == "gold"
    assert [format_ply(p.ply) for p in r.plies] == ["L→I67", "V→I99", "Fe→I88"]
    assert r.plies[1].text == "V->I99"  # kept as written, for error messages
    assert r.plies[1].clock == 29 * 60 + 40
    assert r.plies[1].comments == ("nice",)
    assert r.plies[2].clock == 3723
    assert r.preamble == ("a preamble",)
    assert read_record(write_record(r)) == r


def test_plies_on_one_line_with_optional_spaces():
    r = read_record('[Event "x"]\n\nS→G68 S@G68→F47 S@F47 x V@D38 (L)@D28->B29')
    assert [format_ply(p.ply) for p in r.plies] == [
        "S→G68",
        "S@G68 → F47",
        "S@F47 x V@D38",
        "(L)@D28 → B29",
    ]


def test_unreadable_ply_is_kept_with_its_error():
    r = read_record('[Event "x"]\n\nS→G68\nbanana\nQ@E37 → E38\n')
    assert r.plies[1].ply is None and "banana" in r.plies[1].text
    assert r.plies[2].ply is None
    assert read_record(write_record(r)) == r


def test_language_tag_is_used():
    r = read_record('[Language "it"]\n\nR→G68\n')
    assert r.plies[0].ply is not None and r.plies[0].ply.kind == 3


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "   \n  ",
        '[Event "x"\n\nS→G68',
        '[Language "xx"]\n\nS→G68',
        '[Notation "odd"]\n\n',
        '[Event "x"]\n\n{unterminated',
        "S→G68\x00",
    ],
)
def test_not_a_record(bad):
    with pytest.raises(RecordError):
        read_record(bad)
    assert issubclass(RecordError, RulesError) and issubclass(RecordError, ValueError)


@pytest.mark.parametrize("layout", ["Fe→C28 {[%clk ²:00:00]}", "1. Fe→C28 {[%clk ²:00:00]}"])
def test_a_clock_of_digits_int_cannot_read_is_a_comment_in_either_reader(layout: str) -> None:
    # str.isdigit takes a superscript two; both readers once handed it to int() and failed.
    record = read_record(f'[Result "*"]\n\n{layout}\n')
    (ply,) = record.plies
    assert ply.clock is None and ply.comments == ("[%clk ²:00:00]",)


@pytest.mark.parametrize(
    "line", ["Fe→C28 {[%clk 0:01:02]}", "Fe→C28  {[%clk  0:01:02 ]}", "Fe→C28 {[%clk 0:1:2]}"]
)
def test_the_line_reader_reads_clocks_as_the_general_reader(line: str) -> None:
    alone = read_record(f'[Result "*"]\n\n{line}\n')
    tokenized = read_record(f'[Result "*"]\n\n1. {line}\n')
    assert alone.plies == tokenized.plies
    assert alone.plies[0].clock == 62
