"""Board geometry against rules.md §1: names, neighbours, straight lines, regions, seats.

Neighbours and straight lines are compared, exactly, with tables derived in
tests/rules/reference.py from the triangles' corners, not from the engine's tables."""

from __future__ import annotations

import pytest

from rules.board import (
    APEX,
    BORDER_BB,
    EAST,
    NAME,
    NB,
    NEIGHBOURS,
    RAYS,
    REGION,
    REGION_BB,
    SQUARE_OF,
    SQUARES,
    WEST,
    ijk,
    is_straight,
    iter_bits,
    parse_square,
    square_name,
)
from tests.rules.reference import (
    NEIGHBOUR_NAMES,
    STRIPS,
    TRIANGLES,
    neighbour_differences,
    ray_table,
    straight_names,
)


def names(squares):
    return [NAME[s] for s in squares]


def engine_neighbours() -> dict[str, list[str]]:
    """The engine's neighbour table, by name."""
    return {NAME[s]: names(NEIGHBOURS[s]) for s in SQUARES}


def test_81_triangles_and_the_validity_rule():
    assert len(SQUARES) == 81
    for s in SQUARES:
        name = NAME[s]
        r = "ABCDEFGHI".index(name[0]) + 1
        d1, d2 = int(name[1]), int(name[2])
        assert d2 - d1 in (9 - r, 10 - r)
    # every name that satisfies the rule is a triangle, and no other
    count = 0
    for r, row in enumerate("ABCDEFGHI", start=1):
        for d1 in range(1, 10):
            for d2 in range(1, 10):
                real = d2 - d1 in (9 - r, 10 - r)
                assert (f"{row}{d1}{d2}" in SQUARE_OF) == real
                count += real
    assert count == 81


def test_the_drawn_board_names_the_same_triangles():
    # The reference draws the triangles and names each by its strips: the same 81 names.
    assert set(TRIANGLES) == set(SQUARE_OF)
    assert {n for n in TRIANGLES if n[0] == "I"} >= {"I11", "I12", "I22", "I23", "I33", "I99"}
    assert STRIPS["E37"] == (5, 3, 7)


def test_corners_and_middle():
    assert ijk(SQUARE_OF["A19"]) == (8, 0, 0)
    assert ijk(SQUARE_OF["I11"]) == (0, 0, 8)
    assert ijk(SQUARE_OF["I99"]) == (0, 8, 0)
    row_e = [NAME[s] for s in SQUARES if NAME[s][0] == "E"]
    assert row_e[len(row_e) // 2] == "E37"


def test_row_i_west_to_east():
    row = [NAME[s] for s in SQUARES if NAME[s][0] == "I"]
    assert row[:5] == ["I11", "I12", "I22", "I23", "I33"]
    assert row[-2:] == ["I89", "I99"]
    assert len(row) == 17


def test_integer_form():
    for s in SQUARES:
        i, j, k = ijk(s)
        name = NAME[s]
        assert "ABCDEFGHI"[9 - i - 1] == name[0]
        assert int(name[1]) == j + 1 and int(name[2]) == 9 - k
        assert i + j + k in (7, 8)


def test_neighbours_of_e37():
    assert sorted(names(NEIGHBOURS[SQUARE_OF["E37"]])) == ["E27", "E38", "F37"]
    assert NEIGHBOUR_NAMES["E37"] == {"E27", "E38", "F37"}  # the spec's example, drawn


def test_neighbours_are_exactly_the_triangles_sharing_an_edge():
    assert neighbour_differences(engine_neighbours()) == []
    # The bitboards the move generator uses say the same.
    assert neighbour_differences({NAME[s]: names(iter_bits(NB[s])) for s in SQUARES}) == []


def test_the_neighbour_check_reports_every_difference():
    # The comparison must fail when the engine's table is wrong: a neighbour missing, one
    # too many, a triangle missing.
    table = engine_neighbours()
    table["E37"] = [n for n in table["E37"] if n != "F37"]
    assert neighbour_differences(table) == ["E37: lacks neighbour F37"]
    table = engine_neighbours()
    table["A19"] = [*table["A19"], "B18"]
    assert neighbour_differences(table) == ["A19: has B18, not a neighbour"]
    table = engine_neighbours()
    del table["I55"]
    assert neighbour_differences(table) == ["I55: not in the table"]


def test_straight_lines_from_e37():
    expected = {
        "F37 F36 G36 G35 H35 H34 I34 I33",
        "F37 F47 G47 G57 H57 H67 I67 I77",
        "E27 E26 E16 E15",
        "E27 D27 D17 C17",
        "E38 E48 E49 E59",
        "E38 D38 D39 C39",
    }
    got = {" ".join(names(ray)) for ray in RAYS[SQUARE_OF["E37"]]}
    assert got == expected
    assert {" ".join(ray) for ray in ray_table()["E37"]} == expected


def test_straight_lines_are_exactly_the_drawn_strips():
    engine = {NAME[s]: {tuple(names(ray)) for ray in RAYS[s]} for s in SQUARES}
    assert engine == ray_table()


def test_is_straight_agrees_with_the_strips():
    for s in SQUARES:
        for ray in RAYS[s]:
            path = (s, *ray)
            assert is_straight(path) and straight_names(names(path))
            # Turning off the strip at the end is no longer straight, for both readings.
            for turn in NEIGHBOURS[ray[-1]]:
                bent = (*path, turn)
                assert is_straight(bent) == straight_names(names(bent))


def test_corner_has_two_lines():
    assert {" ".join(names(r)) for r in RAYS[SQUARE_OF["A19"]]} == {
        "B19 B18 C18 C17 D17 D16 E16 E15 F15 F14 G14 G13 H13 H12 I12 I11",
        "B19 B29 C29 C39 D39 D49 E49 E59 F59 F69 G69 G79 H79 H89 I89 I99",
    }


def test_regions_and_borders():
    assert sorted(names(iter_bits(BORDER_BB))) == sorted(
        ["E15", "E59", "F26", "F36", "F47", "F48", "G46", "H46", "I55"]
    )
    assert [bin(b).count("1") for b in REGION_BB] == [24, 24, 24]
    assert REGION[SQUARE_OF["A19"]] == APEX
    assert REGION[SQUARE_OF["I11"]] == WEST
    assert REGION[SQUARE_OF["I99"]] == EAST
    # No triangle of one region shares an edge (of the drawn board) with another region's.
    for a, around in NEIGHBOUR_NAMES.items():
        for b in around:
            ra, rb = REGION[SQUARE_OF[a]], REGION[SQUARE_OF[b]]
            if ra is not None and rb is not None:
                assert ra == rb, (a, b)


@pytest.mark.parametrize(
    "seat,pairs",
    [
        ("apex", {"A19": "A1", "I99": "I1", "I11": "I17", "E37": "E5"}),
        ("west", {"I11": "A1", "A19": "I1", "I99": "I17", "I12": "B2", "E37": "G5"}),
        ("east", {"I99": "A1", "I11": "I1", "A19": "I17", "E37": "G9"}),
    ],
)
def test_descriptive_names(seat, pairs):
    seat_index = ("apex", "west", "east").index(seat)
    for geo, desc in pairs.items():
        s = SQUARE_OF[geo]
        assert square_name(s, descriptive=True, seat=seat_index) == desc
        assert parse_square(desc, descriptive=True, seat=seat_index) == s


def test_descriptive_is_a_bijection_for_each_seat():
    for seat in range(3):
        seen = {square_name(s, descriptive=True, seat=seat) for s in SQUARES}
        assert len(seen) == 81


def test_parse_square_errors():
    with pytest.raises(ValueError, match="no triangle"):
        parse_square("E36x")
    with pytest.raises(ValueError):
        parse_square("A11")
    assert parse_square("e37") == SQUARE_OF["E37"]
