"""The tri-level variant (docs/variants-tri-level.md): geometry, every movement rule, perft
counts derived by hand, a slow reference cross-check, records, pictures and fuzzing."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.board import NAME as FLAT_NAME
from rules.board import SQUARE_OF, SQUARES
from rules.diagram import render_text
from rules.engines import new_position
from rules.errors import IllegalMoveError, RulesError
from rules.notation import Notation, describe_move, format_ply, parse_ply
from rules.position import (
    BLOCKADER,
    COLOR_NAMES,
    FENCER,
    FLIER,
    GOAL,
    GOLD,
    GREEN,
    LANCER,
    SWIFT,
    VANGUARD,
    Move,
    Rules,
)
from rules.posstring import parse_position, position_to_string
from rules.record import Record, RecordPly, read_record, write_record
from rules.svg import render_svg
from rules.trilevel import TriLevelPosition, build
from rules.trilevel_board import CELL_NAME, CELL_OF, CELLS, cell_name, parse_cell
from rules.validate import validate_record, validate_text
from tests.rules.conftest import random_line
from tests.rules.reference import NEIGHBOURS, ijk, is_straight

TRI = Rules("laws", frozenset({"tri-level"}))
NOTE = Notation(tri_level=True)
C = CELL_OF
SVG_NS = "{http://www.w3.org/2000/svg}"


def names(bb: int) -> set[str]:
    return {CELL_NAME[c] for c in CELLS if bb >> c & 1}


def dests(pos: TriLevelPosition, where: str) -> set[str]:
    o = C[where]
    code = pos.sq[o]
    return names(pos._dests(o, code & 7, code >> 3))


def mv(origin: str, dest: str, kind: int, carry: bool = False) -> Move:
    return Move(C[origin], C[dest], kind, carry)


# --- an independent model of the board ------------------------------------------------------
# Cells are (level, flat square); the air beside a level is ("air", level, flat square of the
# rim triangle below it). Everything is derived again from the text and the flat board as
# tests/rules/reference.py draws it (its neighbours, strips and integer form).
def height(s: int) -> int:
    """Levels standing over a bottom triangle: the second board covers the 36 triangles that
    touch no edge (min coordinate >= 1), the third the 9 of those that touch no edge of the
    second (min >= 2)."""
    m = min(ijk(s))
    return 1 + (m >= 1) + (m >= 2)


REF_CELLS = [(lv, s) for lv in (1, 2, 3) for s in SQUARES if height(s) >= lv]
REF_FLOOR = {(1, s) for s in SQUARES if height(s) > 1}


def ref_name(c: tuple[int, int]) -> str:
    lv, s = c
    return FLAT_NAME[s] if lv == 1 else f"{lv}:{FLAT_NAME[s]}"


def ref_cell(name: str) -> tuple[int, int]:
    lv, _, flat = name.rpartition(":")
    return (int(lv) if lv else 1, SQUARE_OF[flat])


def ref_zone(c: tuple[int, int]) -> set[tuple[int, int]]:
    lv, s = c
    z = {(lv, n) for n in NEIGHBOURS[s] if height(n) >= lv}
    if height(s) > lv:
        z.add((lv + 1, s))
    if lv > 1:
        z.add((lv - 1, s))
    return z


# (low, high, straight, most climbs, straight down, over and down, flies)
REF_GAITS = {
    VANGUARD: (1, 1, False, 1, False, False, False),
    FENCER: (1, 3, False, 9, False, False, False),
    LANCER: (1, 3, True, 1, False, False, False),
    SWIFT: (2, 4, False, 9, True, False, False),
    FLIER: (3, 6, True, 9, True, True, True),
    BLOCKADER: (1, 2, True, 1, False, False, False),
}


def unit_steps(node, entered):
    """(next node, 'h' | 'u' | 'd', via the air) for one unit step."""
    if node[0] == "air":
        _, lv, s = node
        if entered == "u":  # up into the air: now over onto the level
            for n in NEIGHBOURS[s]:
                if height(n) >= lv:
                    yield (lv, n), "h"
        else:  # came over the edge: now down
            yield (lv - 1, s), "d"
        return
    lv, s = node
    for n in NEIGHBOURS[s]:
        if height(n) >= lv:
            yield (lv, n), "h"
        elif lv > 1 and height(n) == lv - 1:
            yield ("air", lv, n), "h"
    if lv < 3:
        yield ((lv + 1, s) if height(s) > lv else ("air", lv + 1, s)), "u"
    if lv > 1:
        yield (lv - 1, s), "d"


@functools.cache
def ref_paths(origin: tuple[int, int], kind: int):
    """Every path of unit steps a warrior of `kind` may take from `origin` on an empty board:
    (destination, intermediate cells, last step)."""
    low, high, straight, climb, down, over_down, _flies = REF_GAITS[kind]
    out = []

    def runs_ok(path, kinds):
        if not straight:
            return True
        run = [path[0][-1]]
        for node, k in zip(path[1:], kinds, strict=True):
            if k == "h":
                run.append(node[-1])
                if not is_straight(tuple(run)):
                    return False
            else:
                run = [node[-1]]
        return True

    def walk(path, kinds):
        node = path[-1]
        if node[0] != "air" and len(kinds) >= low and runs_ok(path, kinds):
            mids = [p for p in path[1:-1] if p[0] != "air"]
            out.append((node, mids, kinds[-1]))
        if len(kinds) == high:
            return
        for nxt, k in unit_steps(node, kinds[-1] if kinds else ""):
            if nxt in path or nxt in REF_FLOOR:
                continue
            if k == "u" and kinds.count("u") >= climb:
                continue
            if k == "d" and not (over_down if node[0] == "air" else down):
                continue
            walk([*path, nxt], [*kinds, k])

    walk([origin], [])
    return tuple(out)


def ref_dests(pos: TriLevelPosition, where: str) -> set[str]:
    """The legal destinations of the warrior on `where`, literally by the rules."""
    o = ref_cell(where)
    code = pos.sq[C[where]]
    side, kind = code >> 3, code & 7
    at = {ref_cell(CELL_NAME[c]): pos.sq[c] for c in CELLS if pos.sq[c]}
    own = {c for c, v in at.items() if v >> 3 == side}
    opp = {c for c, v in at.items() if v >> 3 != side}
    eb = pos.blk[1 - side]
    ezone = ref_zone(ref_cell(CELL_NAME[eb])) if eb >= 0 else set()
    goals = {s: ref_cell(CELL_NAME[g]) for s, g in enumerate(pos.goal) if g >= 0}
    out = set()
    for t, mids, last in ref_paths(o, kind):
        if t in own or t in ezone or (eb >= 0 and t == ref_cell(CELL_NAME[eb])):
            continue
        if kind != FLIER and any(m in own or m in opp or m in ezone for m in mids):
            continue
        if (t in opp or goals.get(1 - side) == t) and last != "h":
            continue
        if kind == BLOCKADER:
            z = ref_zone(t)
            if t in opp or goals.get(side) == t:
                continue
            if z & opp or z & set(goals.values()) or z & ezone:
                continue
        out.add(ref_name(t))
    return out


# --- geometry -------------------------------------------------------------------------------
def test_levels_rims_and_inner_spaces():
    from rules.trilevel_board import CELLS_OF_LEVEL, FLOOR, INNER_BB, LEVEL_BB, RIM_BB

    assert [len(CELLS_OF_LEVEL[lv]) for lv in (1, 2, 3)] == [81, 36, 9] and len(CELLS) == 126
    assert [INNER_BB[lv].bit_count() for lv in (1, 2, 3)] == [36, 9, 0]
    assert [RIM_BB[lv].bit_count() for lv in (1, 2, 3)] == [45, 27, 9]
    assert names(FLOOR) == {ref_name(c) for c in REF_FLOOR}
    # The covered bottom triangles are a triangle of six per edge, rows C to H.
    assert {n[0] for n in names(FLOOR)} == set("CDEFGH")
    # The third level stands over the second level's inner space, cell over cell.
    assert names(INNER_BB[2]) == {"2:" + n.split(":")[1] for n in names(LEVEL_BB[3])}


def test_every_cell_matches_the_independent_model():
    assert {CELL_NAME[c] for c in CELLS} == {ref_name(c) for c in REF_CELLS}


def test_neighbours_and_vertical_links():
    from rules.trilevel_board import ABOVE, BELOW, HNB, OVER_DOWN, UP_OVER, ZOC

    def hn(n):
        return {CELL_NAME[x] for x in HNB[C[n]]}

    assert hn("E37") == {"E27", "E38", "F37"}  # as on the flat board
    assert hn("2:E37") == {"2:E27", "2:E38", "2:F37"}
    assert hn("3:E37") == {"3:F37"}  # the third level's apex
    assert hn("2:C28") == {"2:D28"}  # the second level's apex
    assert CELL_NAME[ABOVE[C["E37"]]] == "2:E37" and CELL_NAME[ABOVE[C["2:E37"]]] == "3:E37"
    assert ABOVE[C["C29"]] == -1 and ABOVE[C["2:C28"]] == -1 and ABOVE[C["3:E37"]] == -1
    assert CELL_NAME[BELOW[C["3:G57"]]] == "2:G57" and BELOW[C["I11"]] == -1
    for c in CELLS:
        if ABOVE[c] >= 0:
            assert BELOW[ABOVE[c]] == c
    # Up and over: only a rim triangle with an edge on the covered area has a cell beside it.
    assert [(CELL_NAME[u], e) for u, e in UP_OVER[C["C29"]]] == [("2:C28", 3)]
    assert UP_OVER[C["B29"]] == () and UP_OVER[C["C28"]] == ()
    assert sum(len(UP_OVER[c]) for c in CELLS) == 18 + 9
    ups = {(c, u) for c in CELLS for u, _ in UP_OVER[c]}
    downs = {(d, c) for c in CELLS for d, _ in OVER_DOWN[c]}
    assert ups == downs
    for c in CELLS:
        assert names(ZOC[c]) == {ref_name(x) for x in ref_zone(ref_cell(CELL_NAME[c]))}
    assert names(ZOC[C["2:E37"]]) == {"2:E27", "2:E38", "2:F37", "3:E37", "E37"}


def test_names_round_trip_in_every_coordinate_system():
    for c in CELLS:
        assert parse_cell(cell_name(c)) == c
        assert parse_cell(cell_name(c).lower()) == c
        for seat in range(3):
            assert (
                parse_cell(cell_name(c, descriptive=True, seat=seat), descriptive=True, seat=seat)
                == c
            )
    for s in SQUARES:
        assert cell_name(C[FLAT_NAME[s]]) == FLAT_NAME[s]  # the bottom keeps flat names
    assert parse_cell("1:E37") == C["E37"]
    assert cell_name(C["2:E37"], descriptive=True) == "2:E5"
    for bad in ("2:I11", "3:C28", "4:E37", "2:", "E377", "3:D28"):
        with pytest.raises(ValueError):
            parse_cell(bad)


def test_plies_with_levels_read_only_in_tri_level_records():
    ply = parse_ply("Fl@2:E37 x V@3:F37", NOTE)
    assert ply.origin == C["2:E37"] and ply.dest == C["3:F37"] and ply.kill_mark
    assert format_ply(ply, NOTE) == "Fl@2:E37 x V@3:F37"
    assert parse_ply("(L)@C29 → 2:c28", NOTE).dest == C["2:C28"]
    with pytest.raises(RulesError):
        parse_ply("Fl@2:E37 → E38")  # a flat record has no levels
    assert parse_ply("S@G68 → F47") == parse_ply("S@G68 → F47", NOTE)
    record = read_record('[Variants "tri-level"]\n\nV→E37\nV@E37 → 2:E37\n')
    assert record.notation.tri_level and record.plies[1].ply is not None
    flat = read_record('[Variants ""]\n\nV→E37\nV@E37 → 2:E37\n')
    assert flat.plies[1].ply is None and flat.plies[0].ply is not None


# --- movement rules -------------------------------------------------------------------------
def test_rim_to_rim_costs_two_steps():
    p = build("VC29,VI99", "VI11", green_goal="I99", gold_goal="I11")
    assert dests(p, "C29") == {"B29", "C39"}  # a Vanguard cannot go up and over
    q = build("LC29,VI99", "VI11", green_goal="I99", gold_goal="I11")
    # Straight along row C's strips: B29 B19 A19 and C39 D39 D49; up and over to 2:C28
    # (two steps) and one more straight step to 2:D28. C28 itself is covered.
    assert dests(q, "C29") == {"B29", "B19", "A19", "C39", "D39", "D49", "2:C28", "2:D28"}
    r = build("VC29,VI99", "VI11", green_goal="I99", gold_goal="I11", rules=power_rules())
    assert "2:C28" in dests(r, "C29")  # power Vanguards have the two steps


def power_rules() -> Rules:
    return Rules("laws", frozenset({"tri-level", "power-vanguards"}))


def test_inner_to_inner_is_one_step_straight_up_and_the_floor_is_closed():
    p = build("VD28,VC28,VE37,FeI99", "VI11", green_goal="I99", gold_goal="I11")
    assert dests(p, "D28") == {"2:D28"}  # its neighbours are all covered
    assert dests(p, "C28") == {"C18", "C29", "2:C28"}  # it may leave onto the rim
    with pytest.raises(IllegalMoveError) as e:
        p.check_move(mv("E37", "E38", VANGUARD))
    assert e.value.article == "tri-level"
    q = build("V2:E37,VI99", "VI11", green_goal="I99", gold_goal="I11")
    assert dests(q, "2:E37") == {"2:E27", "2:E38", "2:F37", "3:E37"}
    with pytest.raises(IllegalMoveError, match="covered"):
        q.check_move(mv("2:E37", "E37", VANGUARD))


def test_who_climbs_how_far():
    lancer = build("LE37,VI99", "VI11", green_goal="I99", gold_goal="I11")
    # Up to 2:E37, then two steps on level 2 (two steps are always straight), never up again.
    assert dests(lancer, "E37") == {
        "2:E37", "2:E27", "2:E38", "2:F37", "2:D27", "2:E26", "2:D38", "2:E48", "2:F36", "2:F47",
    }  # fmt: skip
    with pytest.raises(IllegalMoveError) as e:
        lancer.check_move(mv("E37", "3:E37", LANCER))
    assert e.value.article == "tri-level" and "one level" in e.value.reason
    fencer = build("FeE37,VI99", "VI11", green_goal="I99", gold_goal="I11")
    assert {"3:E37", "3:F37"} <= dests(fencer, "E37")  # up, up (and over)
    blockader = build("BE37,VI99", "VI11", green_goal="I99", gold_goal="I11")
    assert not any(n.startswith("3:") for n in dests(blockader, "E37"))


def test_only_fliers_and_swifts_go_down():
    for kind, key in ((FENCER, "Fe"), (LANCER, "L"), (VANGUARD, "V"), (BLOCKADER, "B")):
        p = build(f"{key}3:F37,VI99", "VI11", green_goal="I99", gold_goal="I11")
        assert all(n.startswith("3:") for n in dests(p, "3:F37")), key
        with pytest.raises(IllegalMoveError) as e:
            p.check_move(mv("3:F37", "2:F37", kind))
        assert e.value.article == "tri-level"
    # The Swift goes straight down but never over and down: from the second level's apex
    # its only way is along level 2 (C28 below it is covered). By hand: 2:D28 first, then
    # 2:D27 / 2:D38 (2 steps), 2:E27 / 2:E38 (3), 2:E37 2:E26 / 2:E37 2:E48 (4).
    swift = build("S2:C28,VI99", "VI11", green_goal="I99", gold_goal="I11")
    assert dests(swift, "2:C28") == {"2:D27", "2:D38", "2:E27", "2:E38", "2:E37", "2:E26", "2:E48"}
    # The Flier goes over and down to C29 or C18 and on along the bottom rim.
    flier = build("Fl2:C28,VI99", "VI11", green_goal="I99", gold_goal="I11")
    assert {"B29", "C39", "B18", "C17"} <= dests(flier, "2:C28")
    swift3 = build("S3:E37,VI99", "VI11", green_goal="I99", gold_goal="I11")
    d = dests(swift3, "3:E37")
    assert "2:E37" in d  # down and back up a square of four cells: three steps
    assert "3:F37" in d and "3:E37" not in d  # never back to its origin


def test_direction_is_free_after_a_vertical_step():
    # A Flier on 2:F25 runs east along row F to 2:F26, goes up and over to 3:F36 and turns
    # south to 3:G36. F25 and G36 share no coordinate, so no straight line joins them: only
    # the turn the vertical step allows gets there.
    p = build("Fl2:F25,VI99", "VI11", green_goal="I99", gold_goal="I11")
    assert "3:G36" in dests(p, "2:F25")
    # Along the bottom rim a Flier keeps to its strip: from I11 along row I (I23 I33 I34
    # I44) and the west edge (H13 G13 G14 F14) as on the flat board; and from I23 (three
    # steps) up and over to 2:H23 (five).
    q = build("FlI11,VI99", "VI89", green_goal="I99", gold_goal="I89")
    d = dests(q, "I11")
    assert {"I23", "I33", "I34", "I44", "H13", "G13", "G14", "F14", "2:H23"} <= d
    assert not {"I22", "H12", "H23", "G24"} & d


def test_no_kill_by_vertical_movement():
    p = build("V2:E37,VI99", "V3:E37,VI11", green_goal="I99", gold_goal="I11")
    assert dests(p, "2:E37") == {"2:E27", "2:E38", "2:F37"}
    with pytest.raises(IllegalMoveError) as e:
        p.check_move(mv("2:E37", "3:E37", VANGUARD))
    assert e.value.article == "tri-level" and "horizontally" in e.value.reason
    # Up and over arrives face to face: a Lancer may kill with it, and is stopped there.
    q = build("LC29,VI99", "V2:C28,VI11", green_goal="I99", gold_goal="I11")
    d = dests(q, "C29")
    assert "2:C28" in d and "2:D28" not in d
    # A lying Goal directly above is not captured by a step up either.
    r = build("V2:E37,VI99", "VI11", green_goal="I99", gold_goal="3:E37")
    assert "3:E37" not in dests(r, "2:E37")


def test_blocked_paths_and_a_kill_on_level_two():
    # The Swift of the hand count above, with a gold Vanguard on 2:D38: it is killed there,
    # and 2:E38, 2:E48 (behind it) are out of reach; 2:E37 is still reached via 2:E27.
    p = build("S2:C28,VI99", "V2:D38,VI11", green_goal="I99", gold_goal="I11")
    assert dests(p, "2:C28") == {"2:D27", "2:D38", "2:E27", "2:E37", "2:E26"}
    with pytest.raises(IllegalMoveError) as e:
        p.check_move(mv("2:C28", "2:E48", SWIFT))
    assert e.value.article == "3.11.3" and "blocked" in e.value.reason
    # Going up needs a clear cell above: a Fencer under its own Vanguard climbs round it.
    q = build("FeE37,V2:E37,VI99", "VI11", green_goal="I99", gold_goal="I11")
    assert not any(n.startswith("3:") for n in dests(q, "E37"))


def test_blockaders_zone_in_three_dimensions():
    # Gold Blockader on 2:E37 blocks 2:E27 2:E38 2:F37, 3:E37 above and E37 below.
    p = build("Fe3:F37,VI99", "B2:E37,VI11", green_goal="I99", gold_goal="I11")
    # The Fencer stays on level 3 (no way down); 3:E37 is in the zone: the 7 others.
    assert dests(p, "3:F37") == {"3:F36", "3:F47", "3:G36", "3:G47", "3:G35", "3:G46", "3:G57"}
    with pytest.raises(IllegalMoveError) as e:
        p.check_move(mv("3:F37", "3:E37", FENCER))
    assert e.value.article == "3.5"
    # A Blockader may not end with an enemy warrior directly above it.
    q = build("Fe3:E37,VI99", "B2:E38,VI11", green_goal="I99", gold_goal="I11", first=GOLD)
    assert "2:E37" not in dests(q, "2:E38")
    with pytest.raises(IllegalMoveError) as e:
        q.check_move(mv("2:E38", "2:E37", BLOCKADER))
    assert e.value.article == "3.11.4"
    # A carried Goal may not end directly below an enemy Blockader.
    r = build("V2:F37,VI99", "B3:E37,VI11", green_goal="2:F37", gold_goal="I11")
    assert "2:E37" not in dests(r, "2:F37")  # 2:E37 is in the zone


def test_goal_placement_only_on_the_bottom_rim():
    p = new_position(TRI, GREEN)
    assert isinstance(p, TriLevelPosition)
    squad = (VANGUARD, VANGUARD, VANGUARD, FENCER, LANCER, SWIFT, FLIER, FLIER, BLOCKADER)
    apex = ("C28", "A19", "B19", "D28", "B29", "B18", "C17", "C18", "D16")  # C28 D28 covered
    west = ("I11", "I12", "I22", "I23", "I33", "H12", "H13", "G13", "H23")
    for cells in (apex, west):
        for kind, where in zip(squad, cells, strict=True):
            move = Move(None, C[where], kind)
            p.check_move(move)
            p = p.apply(move)
    assert p.stage() == (GREEN, "goal")
    goals = {CELL_NAME[m.dest] for m in p.generate_legal_moves()}
    assert goals == {"A19", "B19", "B29"}  # not C28 or D28, which are covered
    with pytest.raises(IllegalMoveError) as e:
        p.check_move(Move(None, C["C28"], GOAL))
    assert e.value.article == "tri-level"
    with pytest.raises(IllegalMoveError) as e:
        new_position(TRI, GREEN).check_move(Move(None, C["2:E37"], VANGUARD))
    assert e.value.article == "tri-level"


# --- perft ----------------------------------------------------------------------------------
def test_perft_from_the_empty_board():
    # Placement is the flat game's: 3 regions x 24 triangles x 6 kinds = 432; then 23 more
    # triangles of the same region, with 6 kinds left after a Vanguard or a Flier and 5
    # after the 4 single kinds: 3 x 24 x 23 x (2 x 6 + 4 x 5) = 52,992.
    p = new_position(TRI, GREEN)
    assert p.perft(1) == 432
    assert p.perft(2) == 3 * 24 * 23 * (2 * 6 + 4 * 5) == 52_992


def test_perft_of_constructed_positions_by_hand():
    # Green Vanguard holding its Goal on 2:E37: four cells (2:E27 2:E38 2:F37 3:E37), each
    # with or without the Goal: 8. Gold's Vanguard on I11 has I12 alone, carrying or not: 2.
    p = build("V2:E37", "VI11", green_goal="2:E37", gold_goal="I11")
    assert (p.perft(1), p.perft(2)) == (8, 16)
    # Green Lancer holding its Goal on C29: the 8 cells of test_rim_to_rim_costs_two_steps,
    # twice: 16; gold answers each with 2: 32.
    q = build("LC29", "VI11", green_goal="C29", gold_goal="I11")
    assert (q.perft(1), q.perft(2)) == (16, 32)
    # The Swift's 7 cells from 2:C28 plus the green Vanguard on I99 (I89, with or without
    # its Goal): 9; gold answers each with 2: 18.
    r = build("S2:C28,VI99", "VI11", green_goal="I99", gold_goal="I11")
    assert (r.perft(1), r.perft(2)) == (9, 18)


def test_goal_in_jeopardy_through_the_levels():
    # Gold Lancer on C29 can go up and over to 2:C28 and on to 2:D28, where green's Goal
    # lies: it is in jeopardy, and any green move that leaves it there is unsafe.
    p = build("V2:D28,VI99", "LC29,VI11", green_goal="2:D28", gold_goal="I11")
    assert p.is_in_jeopardy(GREEN)
    assert not p.is_battle_move_safe(GREEN, C["I99"], C["I89"], VANGUARD, False)
    assert p.is_battle_move_safe(GREEN, C["2:D28"], C["2:D27"], VANGUARD, True)
    # A Goal directly above an enemy Vanguard is safe from it (no vertical capture).
    q = build("VI99", "VE37,VI11", green_goal="2:E37", gold_goal="I11")
    assert not q.is_in_jeopardy(GREEN)


# --- the reference cross-check --------------------------------------------------------------
def random_positions(seed: int, games: int, rules: Rules = TRI):
    rng = random.Random(seed)
    for _ in range(games):
        pos = new_position(rules, rng.randrange(2))
        while True:
            moves = pos.generate_moves()
            if not moves:
                break
            if pos.in_battle:
                yield pos
            pos = pos.apply(rng.choice(moves))


@pytest.mark.parametrize("rules", [TRI, power_rules()], ids=["tri-level", "power-vanguards"])
def test_destinations_match_the_reference_on_random_games(rules):
    seen = 0
    for i, pos in enumerate(random_positions(7, 12, rules)):
        if i % 3:
            continue
        assert isinstance(pos, TriLevelPosition)
        for c in CELLS:
            if pos.sq[c]:
                seen += 1
                want = ref_dests(pos, CELL_NAME[c])
                if rules.power_vanguards and pos.sq[c] & 7 == VANGUARD:
                    continue  # the reference has the plain Vanguard only
                assert dests(pos, CELL_NAME[c]) == want, CELL_NAME[c]
    assert seen > 200


def test_every_origin_of_every_kind_matches_the_reference_on_an_empty_board():
    for kind in (FENCER, LANCER, SWIFT, FLIER, VANGUARD, BLOCKADER):
        for c in CELLS:
            pos = TriLevelPosition(TRI, GREEN)
            pos.ply = 20
            pos.sq[c] = kind
            pos.occ[0] = 1 << c
            pos.kbb[0][kind] = 1 << c
            if kind == BLOCKADER:
                pos.blk[0] = c
            assert dests(pos, CELL_NAME[c]) == ref_dests(pos, CELL_NAME[c]), (kind, CELL_NAME[c])


def test_safety_matches_applying_the_move_and_asking_the_reference():
    checked = 0
    for i, pos in enumerate(random_positions(11, 8)):
        if i % 4:
            continue
        side = pos.turn
        for m in pos.generate_legal_moves():
            assert m.origin is not None
            after = pos.apply(m)
            if after.outcome is not None:
                safe = True
            else:
                g = CELL_NAME[after.goal[side]]
                safe = not any(
                    g in ref_dests(after, CELL_NAME[c])
                    for c in CELLS
                    if after.sq[c] and after.sq[c] >> 3 != side
                )
            assert pos.is_battle_move_safe(side, m.origin, m.dest, m.kind, m.carry) == safe
            checked += 1
    assert checked > 300


# --- records --------------------------------------------------------------------------------
def play_random_game(seed: int, rules: Rules = TRI) -> tuple[list[TriLevelPosition], list[Move]]:
    rng = random.Random(seed)
    pos = new_position(rules, rng.randrange(2))
    assert isinstance(pos, TriLevelPosition)
    positions, moves = [pos], []
    while len(moves) < 160:
        legal = pos.generate_moves()
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(m)
        pos = pos.apply(m)
        assert isinstance(pos, TriLevelPosition)
        positions.append(pos)
    return positions, moves


def record_text(positions, moves, notation: Notation = NOTE, variants: str = "tri-level") -> str:
    tags = {
        "Event": "tri-level test",
        "FirstPlacement": COLOR_NAMES[positions[0].first],
        "Ruleset": positions[0].rules.ruleset,
        "Variants": variants,
        "Language": notation.language,
        "Notation": "descriptive" if notation.descriptive else "geometric",
        "Seat": ("apex", "west", "east")[notation.seat],
    }
    plies = [
        RecordPly(describe_move(p, m), format_ply(describe_move(p, m), notation))
        for p, m in zip(positions, moves, strict=False)
    ]
    outcome = positions[-1].final_outcome()
    tags["Result"] = outcome.winner_name if outcome else "*"
    return write_record(Record(tags, plies))


def test_a_whole_random_game_as_a_record():
    for seed in range(40):
        positions, moves = play_random_game(seed)
        if len(moves) > 40 and any(":" in CELL_NAME[m.dest] for m in moves):
            break
    text = record_text(positions, moves)
    assert "2:" in text
    verdict = validate_text(text)
    assert verdict.valid, verdict.error
    assert verdict.plies == len(moves)
    assert verdict.position == positions[-1]
    assert isinstance(verdict.position, TriLevelPosition)
    assert verdict.outcome == positions[-1].final_outcome()


def test_an_illegal_ply_is_rejected_with_its_number_and_article():
    positions, moves = play_random_game(3)
    k = next(i for i, p in enumerate(positions) if p.in_battle and i + 1 < len(positions))
    text = record_text(positions[: k + 1], moves[:k])
    pos = positions[k]
    side = pos.turn
    mover = next(c for c in CELLS if pos.sq[c] and pos.sq[c] >> 3 == side)
    key = ("", "Fe", "L", "S", "Fl", "V", "B")[pos.sq[mover] & 7]
    # Into the covered bottom space: never legal in battle.
    bad = f"{key}@{CELL_NAME[mover]} → E37\n"
    verdict = validate_text(text + bad).as_dict()
    assert verdict["valid"] is False
    assert verdict["error"]["ply"] == k + 1 and verdict["plies"] == k
    assert verdict["error"]["article"] in ("tri-level", "3.3")
    # A level-three name in a flat record cannot be read.
    flat = validate_text('[FirstPlacement "green"]\n\nV→I11\nV@I11 → 3:E37\n').as_dict()
    assert flat["error"]["ply"] == 2


def test_combinations_and_the_unclaimed_corner():
    for other in ("kaggas-crown", "clouded", "ablative", "forward-placement", "honor-in-setup"):
        v = validate_text(f'[Variants "tri-level, {other}"]\n\nV→A19\n').as_dict()
        assert v["valid"] is False and v["error"]["ply"] is None, other
        assert v["error"]["article"] == "13"
    ok = validate_text('[Variants "tri-level, alternating-placement"]\n\nV→A19\nV→I11\n')
    assert ok.valid, ok.error
    # The Goal carried to the corner of the empty region wins nothing.
    p = build("VH89", "VI11", green_goal="H89", gold_goal="I11")
    p = p.apply(mv("H89", "I99", VANGUARD, True))
    p = p.apply(mv("I11", "I12", VANGUARD, True))
    assert p.outcome is None and p.crowned == -1


def test_cli_validate_perft_and_show(tmp_path):
    from games.kz.engine_commands import main
    from games.kz.position_show import handle_show

    positions, moves = play_random_game(5)
    moves, positions = moves[:40], positions[:41]
    path = tmp_path / "tri.kzr"
    path.write_text(record_text(positions, moves), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["validate", str(path), "--json"]) == 0
    assert json.loads(out.getvalue())["valid"] is True
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["perft", str(path), "--depth", "2", "--json"]) == 0
    assert json.loads(out.getvalue()) == {"depth": 2, "nodes": positions[-1].perft(2)}
    svg = tmp_path / "out.svg"
    code = handle_show(
        {"path": str(path), "ply": None, "svg": str(svg)}, io.StringIO(), io.StringIO()
    )
    assert code == 0 and ET.parse(svg).getroot().tag == SVG_NS + "svg"
    text = io.StringIO()
    assert handle_show({"path": str(path), "ply": None, "svg": None}, text, io.StringIO()) == 0
    assert "Level 3" in text.getvalue()


def test_position_strings_name_cells_with_their_level():
    p = build("V2:E37,FlI99,Fe3:F37", "B2:G24,VI11", green_goal="I99", gold_goal="I11")
    text = position_to_string(p)
    assert text == "laws tri-level green 20 -/Fe3:F37,FlI99,V2:E37/I99 -/VI11,B2:G24/I11"
    again = parse_position(text)
    assert isinstance(again, TriLevelPosition) and again == p
    assert again.count_moves() == p.count_moves()
    for bad in ("V4:E37", "V2:I11", "X:E37"):
        with pytest.raises(RulesError):
            parse_position(f"laws tri-level green 20 -/{bad}/- -/-/-")
    with pytest.raises(RulesError):
        parse_position("laws - green 20 -/V2:E37/- -/-/-")  # no levels on the flat board


# --- pictures -------------------------------------------------------------------------------
def test_svg_draws_three_levels_pieces_and_the_last_move():
    p = build("V2:E37,FlI99,FeC28", "B3:F37,VI11", green_goal="I99", gold_goal="I11")
    svg = render_svg(p, last=mv("E37", "2:E37", VANGUARD))
    root = ET.fromstring(svg)
    polys = root.findall(f".//{SVG_NS}polygon[@data-level]")
    assert len(polys) == 126
    levels = {lv: sum(1 for x in polys if x.get("data-level") == lv) for lv in "123"}
    assert levels == {"1": 81, "2": 36, "3": 9}
    assert root.find(f".//{SVG_NS}polygon[@id='sq-E37']") is not None
    assert root.find(f".//{SVG_NS}polygon[@id='sq-2-E37']") is not None
    pieces = {g.get("data-square") for g in root.findall(f".//{SVG_NS}g[@data-kind]")}
    assert pieces == {"2:E37", "I99", "C28", "3:F37", "I11"}
    zone = {
        x.get("data-square")
        for x in root.findall(f".//{SVG_NS}polygon")
        if "zoc" in (x.get("class") or "")
    }
    assert zone == {"3:F36", "3:F47", "3:E37", "2:F37"}
    assert {x.get("data-last") for x in root.findall(f".//{SVG_NS}polygon[@data-last]")} == {
        "E37",
        "2:E37",
    }
    assert svg == render_svg(p, last=mv("E37", "2:E37", VANGUARD))  # deterministic


def test_text_diagram_has_the_three_levels():
    p = build("V2:E37,FlI99", "S3:F37,VI11", green_goal="I99", gold_goal="I11")
    text = render_text(p, last=mv("E37", "2:E37", VANGUARD))
    assert "Level 1" in text and "Level 2" in text and "Level 3" in text
    assert "Last move: V@E37 → 2:E37" in text
    level3 = text.split("Level 3")[1].split("green:")[0]
    assert " s " in level3 and level3.count(".") == 8


# --- fuzzing --------------------------------------------------------------------------------
NOTATIONS = [
    NOTE,
    Notation("it", tri_level=True),
    Notation("fr", descriptive=True, seat=1, tri_level=True),
]


@st.composite
def tri_games(draw):
    first = draw(st.integers(0, 1))
    ruleset = draw(st.sampled_from(["laws", "loyd-1989"]))
    pos = new_position(Rules(ruleset, frozenset({"tri-level"})), first)
    positions, moves = random_line(draw, pos, 18, 70)
    return positions, moves


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tri_games(), st.sampled_from(NOTATIONS))
def test_random_tri_level_games_replay_from_their_record(game, notation):
    positions, moves = game
    for pos, m in zip(positions, moves, strict=False):
        ply = describe_move(pos, m)
        assert parse_ply(format_ply(ply, notation), notation).to_move() == m
    text = record_text(positions, moves, notation)
    record = read_record(text)
    assert read_record(write_record(record)) == record
    verdict = validate_record(record)
    assert verdict.valid, verdict.error
    assert verdict.plies == len(moves)
    assert verdict.position == positions[-1]
    assert parse_position(position_to_string(positions[-1])) == positions[-1]


PIECES = ["Fe", "L", "S", "Fl", "V", "B", "G", "(L)", "x"]
CELL_TEXTS = [CELL_NAME[c] for c in CELLS] + ["4:E37", "2:I11", "Z9", "2:"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(PIECES),
            st.sampled_from(CELL_TEXTS),
            st.sampled_from(CELL_TEXTS),
            st.sampled_from(["→", "x", " -> ", "@"]),
        ),
        max_size=30,
    ),
    st.text(max_size=40),
)
def test_garbage_never_crashes(plies, noise):
    body = "\n".join(
        f"{k}→{a}" if i < 5 else f"{k}@{a}{sep}{b}" for i, (k, a, b, sep) in enumerate(plies)
    )
    text = f'[Variants "tri-level"]\n[FirstPlacement "gold"]\n\n{body}\n{noise}\n'
    with contextlib.suppress(RulesError):
        verdict = validate_text(text)
        json.dumps(verdict.as_dict())
        if verdict.position is not None:
            render_svg(verdict.position)
            render_text(verdict.position)
