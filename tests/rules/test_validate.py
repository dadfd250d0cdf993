"""The validator (records.md §3): first illegal ply with rule and Article, warnings, outcome."""

from __future__ import annotations

import pytest

from rules.validate import validate_text


def record(moves: str, **tags: str) -> str:
    head = {
        "Event": "t",
        "Green": "Kor",
        "Gold": "Kang",
        "FirstPlacement": "green",
        "Ruleset": "laws",
        "Result": "*",
    }
    head.update(tags)
    return "".join(f'[{k} "{v}"]\n' for k, v in head.items()) + "\n" + moves


@pytest.mark.parametrize(
    "name,termination,winner",
    [
        ("example1-laws-capture.kzr", "capture", "green"),
        ("example2-laws-deadlock.kzr", "deadlock", "gold"),
        ("example3-loyd-1989-deadlock.kzr", "deadlock", "gold"),
        ("example-perft-start-of-battle.kzr", None, None),
    ],
)
def test_examples(example_text, name, termination, winner):
    v = validate_text(example_text(name)).as_dict()
    assert v["valid"] is True and v["error"] is None
    assert v["termination"] == termination and v["winner"] == winner
    assert v["plies"] == {
        "example3-loyd-1989-deadlock.kzr": 48,
        "example-perft-start-of-battle.kzr": 20,
    }.get(name, 31)


def test_error_names_ply_rule_and_article(example_text):
    text = example_text("example1-laws-capture.kzr")
    lines = text.splitlines()
    # ply 21 is "Fl@E49 → F69"; make it land on green's own Swift on D28 instead.
    i = lines.index("Fl@E49 → F69")
    lines[i] = "Fl@E49 → D28"  # wrong: not a Flier line either — use an own-warrior landing
    lines[i] = "Fe@C29 → D28"
    v = validate_text("\n".join(lines)).as_dict()
    assert v["valid"] is False
    assert v["plies"] == 20
    assert v["error"] == {
        "ply": 21,
        "text": "Fe@C29 → D28",
        "reason": "destination holds a warrior of the mover's side",
        "article": "3.3",
    }


def test_ply_after_capture(example_text):
    text = example_text("example1-laws-capture.kzr") + "V@C28 → C29\n"
    v = validate_text(text).as_dict()
    assert v["valid"] is False and v["error"]["ply"] == 32
    assert "end of the battle" in v["error"]["reason"]
    assert v["plies"] == 31


def test_ply_after_deadlock(example_text):
    text = example_text("example2-laws-deadlock.kzr") + "V@A19 → B19\n"
    v = validate_text(text).as_dict()
    assert v["valid"] is False and v["error"]["ply"] == 32
    assert "end of the battle" in v["error"]["reason"]


def test_result_tag_contradicting_the_moves(example_text):
    text = example_text("example1-laws-capture.kzr").replace('[Result "green"]', '[Result "gold"]')
    v = validate_text(text).as_dict()
    assert v["valid"] is False and v["plies"] == 31
    assert "Result" in v["error"]["reason"]


def test_unreadable_ply():
    v = validate_text(record("V→I45\nbanana\n")).as_dict()
    assert v["valid"] is False and v["error"]["ply"] == 2 and v["plies"] == 1
    assert v["error"]["article"] == "Appendix C"


def test_placement_errors():
    v = validate_text(record("V→E15\n")).as_dict()
    assert v["error"]["article"] == "2.2"  # border triangle
    v = validate_text(record("V→A19\nV→I11\n")).as_dict()
    assert v["error"]["ply"] == 2 and v["error"]["article"] == "2.5"
    v = validate_text(record("V→A19\nV→B19\nV→B18\nV→B29\n")).as_dict()
    assert v["error"]["ply"] == 4 and v["error"]["article"] == "2.11"
    v = validate_text(record("V→A19\nV@A19 → B19\n")).as_dict()
    assert v["error"]["ply"] == 2 and v["error"]["article"] == "2.5"


def test_goal_placement_errors(example_text):
    lines = example_text("example1-laws-capture.kzr").splitlines()
    i = lines.index("G→C17")
    lines[i] = "G→F37"  # green's Flier: not a carrier
    v = validate_text("\n".join(lines)).as_dict()
    assert v["error"]["ply"] == 19 and v["error"]["article"] == "2.6"


def test_unsafe_move_warns_under_laws_and_fails_under_loyd(example_text):
    laws = validate_text(example_text("example1-laws-capture.kzr")).as_dict()
    assert {"ply": 22, "reason": "leaves own Goal in jeopardy", "article": "3.9"} in laws[
        "warnings"
    ]
    loyd = validate_text(
        example_text("example1-laws-capture.kzr").replace('"laws"', '"loyd-1989"')
    ).as_dict()
    assert loyd["valid"] is False
    assert loyd["error"]["article"] == "3.9"
    assert loyd["error"]["ply"] == 20


def test_decoration_mismatch_is_a_warning(example_text):
    text = (
        example_text("example1-laws-capture.kzr")
        .replace("Fe@G25 x V@E26", "Fe@G25 → E26")
        .replace("Fl@I34 x V@G35!", "Fl@I34 x V@G35")
    )
    v = validate_text(text).as_dict()
    assert v["valid"] is True
    plies = {w["ply"] for w in v["warnings"] if w["article"] == "Appendix C"}
    assert plies == {24, 31}


def test_piece_key_mismatch_is_an_error(example_text):
    text = example_text("example1-laws-capture.kzr").replace("Fl@E49 → F69", "S@E49 → F69")
    v = validate_text(text).as_dict()
    assert v["valid"] is False and v["error"]["ply"] == 21


def test_unknown_ruleset_or_variant():
    assert validate_text(record("V→A19\n", Ruleset="chess")).valid is False
    assert validate_text(record("V→A19\n", Variants="nonsense")).valid is False
