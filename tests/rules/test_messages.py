"""The validator's message catalogue (rules/messages.py): every message the engine raises or
warns with has a stable code and named parameters, its English built from the catalogue, and
a stored English reason reads back to its code."""

from __future__ import annotations

import ast
import copy
import pickle
import random
import re
from pathlib import Path

import pytest

from rules.engines import new_position
from rules.errors import IllegalMoveError, RecordError
from rules.messages import (
    MESSAGES,
    WORD_PARAMS,
    WORDS,
    Message,
    message,
    parse_reason,
    template_fields,
)
from rules.position import COLOR_NAMES, KIND_NAMES, Move, Rules
from rules.record import TERMINATIONS, read_record
from rules.reflective import ReflectivePosition
from rules.validate import validate_text
from rules.variants import REFUSED, parse_square_list

ROOT = Path(__file__).resolve().parents[2]
ERROR_TYPES = {"IllegalMoveError", "NotationError", "RecordError"}


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
    return "".join(f'[{k} "{v}"]\n' for k, v in head.items() if v is not None) + "\n" + moves


def assert_catalogued(reason: str, code: str | None, params: dict[str, str]) -> None:
    """The message's English is its catalogued template filled with its parameters."""
    assert code in MESSAGES, reason
    assert MESSAGES[code].format(**params) == reason
    assert set(params) == set(template_fields(MESSAGES[code]))


# The catalogue itself


def test_every_template_is_distinct_and_names_its_placeholders():
    templates = list(MESSAGES.values())
    assert len(set(templates)) == len(templates)
    for code, template in MESSAGES.items():
        assert re.fullmatch(r"[a-z][a-z0-9_]*", code)
        fields = template_fields(template)
        assert all(re.fullmatch(r"[a-z_]+", f) for f in fields), code
        text = message(code, **{f: f"<{f}>" for f in fields})
        assert isinstance(text, Message) and text.code == code


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_a_stored_reason_reads_back_to_its_code(code):
    params = {f: f"<{f} {i}>" for i, f in enumerate(template_fields(MESSAGES[code]))}
    assert parse_reason(str(message(code, **params))) == (code, params)


def test_an_uncatalogued_reason_reads_back_to_nothing():
    assert parse_reason("the arbiter says no") is None
    assert parse_reason("") is None
    # A catalogued text with something more is not that message.
    assert parse_reason("destination is occupied!") is None


def test_a_message_is_its_english_text():
    m = message("no_warrior_on", square="C29")
    assert m == "no warrior of the side to move on C29"
    assert type(str(m)) is str and str(m) == m
    assert (m.code, m.params) == ("no_warrior_on", {"square": "C29"})
    e = IllegalMoveError.coded("no_warrior_on", "3.1", square="C29")
    assert str(e) == "no warrior of the side to move on C29 (Art. 3.1)"
    assert (e.reason, e.article, e.code, e.params) == (m, "3.1", "no_warrior_on", m.params)
    with pytest.raises(KeyError):
        message("no_warrior_on")
    for copied in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m), copy.copy(m)):
        assert copied == m and (copied.code, copied.params) == (m.code, m.params)
    again = pickle.loads(pickle.dumps(RecordError.coded("unknown_seat", seat="'north'")))
    assert (str(again), again.code) == ("unknown Seat 'north' (apex, west or east)", "unknown_seat")


def test_the_game_words_include_every_warrior_colour_ending_and_refusal():
    assert set(KIND_NAMES[1:]) | set(COLOR_NAMES) | set(TERMINATIONS) <= set(WORDS)
    assert set(REFUSED.values()) <= set(WORDS)
    assert {ReflectivePosition._ZONE_OWNER, "the enemy Blockader's"} <= set(WORDS)
    used = {f for t in MESSAGES.values() for f in template_fields(t)}
    assert used >= WORD_PARAMS


# The raise sites (static)


def _rule_sources() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(ROOT.glob("rules/*.py"))]


def _is_bare_text(node: ast.expr) -> bool:
    """A string built on the spot: a literal, an f-string, a concatenation, str(…), .format."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return True
    if isinstance(node, ast.JoinedStr | ast.BinOp):
        return True
    if isinstance(node, ast.Call):
        f = node.func
        return (isinstance(f, ast.Name) and f.id == "str") or (
            isinstance(f, ast.Attribute) and f.attr in ("format", "join")
        )
    return False


def test_no_validator_error_is_built_from_a_bare_string():
    """Every validator error, verdict error and warning in rules/ is built from the catalogue
    (`X.coded(code, …)`, `message(code, …)` or a Message handed on), never from text."""
    reason_at = {"PlyError": 2, "Warning": 1}
    bare = []
    for path, tree in _rule_sources():
        checked = ERROR_TYPES | set(reason_at)
        if path.name == "variants.py":
            checked |= {"ValueError"}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            name = node.func.id
            at = reason_at.get(name, 0)
            if name in checked and len(node.args) > at and _is_bare_text(node.args[at]):
                bare.append(f"{path.name}:{node.lineno}")
    assert bare == []


def _codes_used(paths: list[Path]) -> set[str]:
    used = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            f = node.func
            builds = (isinstance(f, ast.Name) and f.id == "message") or (
                isinstance(f, ast.Attribute) and f.attr == "coded"
            )
            if builds:
                arg = node.args[0]
                assert isinstance(arg, ast.Constant), f"{path.name}:{node.lineno}"
                assert arg.value in MESSAGES, f"{path.name}:{node.lineno} {arg.value}"
                used.add(arg.value)
    return used


def test_every_code_is_raised_somewhere_and_every_raise_names_a_known_code():
    sources = [p for p in ROOT.glob("rules/*.py") if p.name not in ("messages.py", "errors.py")]
    sources += list(ROOT.glob("games/**/*.py"))
    assert _codes_used(sources) == set(MESSAGES)


# The raise sites (run)

CONFIGS = [
    ("laws", ()),
    ("laws", ("honor-in-setup",)),
    ("laws", ("forward-placement",)),
    ("laws", ("alternating-placement", "power-vanguards")),
    ("laws", ("reflective",)),
    ("laws", ("kinta",)),
    ("laws", ("tri-level",)),
    ("laws", ("ablative",)),
    ("laws", ("clouded",)),
    ("loyd-1989", ()),
    ("italian-society", ()),
]


def test_illegal_moves_raise_catalogued_messages():
    """Random battles under every ruleset and many variants; at each position, moves a
    legal one altered and moves made up at random: every refusal is catalogued."""
    seen: set[str] = set()
    rng = random.Random(15)
    for ruleset, variants in CONFIGS:
        clouds = parse_square_list("E37 F36 C29") if "clouded" in variants else frozenset()
        rules = Rules(ruleset, frozenset(variants), clouds=clouds)
        for _ in range(4):
            pos = new_position(rules, 0)
            n = len(pos.sq)
            for _ in range(100):
                legal = pos.generate_legal_moves()
                for _ in range(30):
                    if legal and rng.random() < 0.6:
                        base = rng.choice(legal)
                        carry = base.carry or rng.random() < 0.1
                        move = Move(base.origin, rng.randrange(n), base.kind, carry)
                    else:
                        origin = None if rng.random() < 0.3 else rng.randrange(n)
                        move = Move(origin, rng.randrange(n), rng.randrange(1, 8), False)
                    try:
                        pos.check_move(move)
                    except IllegalMoveError as exc:
                        assert_catalogued(exc.reason, exc.code, exc.params)
                        seen.add(exc.code or "")
                if not legal:
                    break
                pos.push(rng.choice(legal))
    assert len(seen) >= 50, sorted(seen)


CAPTURE_HEAD = '[FirstPlacement "green"]\n'


@pytest.mark.parametrize(
    "text,code",
    [
        (record("", Ruleset="chess"), "unknown_ruleset"),
        (record("", Variants="foo"), "unknown_variant"),
        (record("", Variants="reflective, kinta"), "reflective_refuses"),
        (record("", Variants="reflective, kaggas-crown"), "reflective_crown"),
        (record("", Variants="tri-level, clouded"), "tri_level_alone"),
        (record("", Ruleset="italian-society", Variants="kinta"), "ruleset_excludes"),
        (record("", Removed="Fe"), "removed_not_italian"),
        (record("", Ruleset="italian-society", Removed="Xx"), "removed_not_warrior"),
        (record("", FirstPlacement="red"), "first_placement_colour"),
        (record("", Variants="clouded", Clouds="Z99"), "no_triangle"),
        (record("", Variants="kaggas-crown", Crown="E37"), "crown_not_corner"),
        (record("", Variants="ablative", AblationLimit="many"), "ablation_limit"),
        (record("", Result="maybe"), "unknown_result"),
        (record("", Termination="bored"), "unknown_termination"),
        (record("", Termination="capture"), "termination_unreached"),
        (record("Fe→C29\nQq→C18\n"), "unknown_key"),
        (record("Fe→C29\nwhat\n"), "cannot_read_ply"),
        (record("Fe→C29\n(Fe)→C18\n"), "placement_form"),
        (record("Fe→C29\nFe→Z99\n"), "no_triangle_in"),
        (record("Fe→C29\nFl→C29\n"), "destination_occupied"),
        (record("Fe→C29 {[%cast 1 2 3]}\n", Variants="kinta"), "casts_for_placement"),
    ],
)
def test_record_level_messages_are_catalogued(text, code):
    v = validate_text(text)
    assert v.error is not None
    assert v.error.code == code
    assert_catalogued(v.error.reason, v.error.code, v.error.params)
    # `kz validate`'s JSON (records.md §3) is unchanged; the stored verdict adds the code.
    plain = v.as_dict()["error"]
    assert set(plain) == {"ply", "text", "reason", "article"}
    assert type(plain["reason"]) is str
    coded = v.as_dict(codes=True)["error"]
    assert coded == {**plain, "code": code, "params": v.error.params}


def test_the_end_of_the_battle_and_warnings_are_catalogued(example_text):
    text = example_text("example1-laws-capture.kzr")
    cases = {
        "result_contradicted": text.replace('[Result "green"]', '[Result "gold"]'),
        "termination_contradicted": text.replace(
            '[Result "green"]', '[Result "green"]\n[Termination "deadlock"]'
        ),
        "ply_after_end": text + "Fe→C29\n",
    }
    for code, changed in cases.items():
        v = validate_text(changed)
        assert v.error is not None and v.error.code == code
        assert_catalogued(v.error.reason, v.error.code, v.error.params)
    arrow = validate_text(
        text.replace("Fe@G25 x V@E26", "Fe@G25 → V@E26").replace(CAPTURE_HEAD, "")
    )
    codes = {w.code for w in arrow.warnings}
    assert {"kill_with_arrow", "no_first_placement"} <= codes
    for w in arrow.warnings:
        assert_catalogued(w.reason, w.code, w.params)
        assert set(w.as_dict()) == {"ply", "reason", "article"}


@pytest.mark.parametrize(
    "text,code",
    [
        ("a\x00b", "not_text"),
        ("", "empty_record"),
        (record("", Language="xx"), "unknown_language"),
        (record("", Notation="algebraic"), "unknown_notation"),
        (record("", Seat="north"), "unknown_seat"),
        ("[Event t\n\nFe→C29\n", "bad_tag_pair"),
        (record("Fe→C29 {open"), "unterminated_comment"),
    ],
)
def test_unreadable_records_have_catalogued_messages(text, code):
    with pytest.raises(RecordError) as caught:
        read_record(text)
    exc = caught.value
    assert exc.code == code
    assert_catalogued(str(exc), exc.code, exc.params)
