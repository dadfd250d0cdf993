"""Text diagrams and SVG pictures of positions."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from rules.board import NAME, NB, SQUARE_OF, SQUARES
from rules.diagram import render_text
from rules.notation import parse_ply
from rules.posstring import parse_position
from rules.svg import render_svg, triangle_points
from rules.validate import validate_text

NS = {"s": "http://www.w3.org/2000/svg"}


def start_of_battle(example_text):
    v = validate_text(example_text("example-perft-start-of-battle.kzr"))
    assert v.position is not None
    return v.position


def test_text_diagram_shows_every_piece(example_text):
    pos = start_of_battle(example_text)
    text = render_text(pos)
    rows = text.splitlines()[:9]
    assert [r[0] for r in rows] == list("ABCDEFGHI")
    tokens = " ".join(r[1:] for r in rows).split()
    pieces = [t for t in tokens if t != "."]
    assert len(pieces) == 18
    assert sum(t[0].isupper() for t in pieces) == 9  # green
    assert "L*" in pieces or "V*" in pieces or "Fe*" in pieces
    assert "Ply 21: green to move." in text


def test_text_diagram_is_a_triangle(example_text):
    rows = render_text(start_of_battle(example_text)).splitlines()[:9]
    widths = [len(r.rstrip()) for r in rows]
    assert widths == sorted(widths)
    assert len(rows[8].split()) == 18  # row letter + 17 triangles


def test_svg_has_81_triangles_zones_and_last_move(example_text):
    pos = start_of_battle(example_text)
    svg = render_svg(pos, last=parse_ply("G→G35").to_move())
    root = ET.fromstring(svg)
    squares = root.findall(".//s:polygon[@class='sq']", NS)
    assert len(squares) == 81
    assert {p.get("id") for p in squares} == {f"sq-{NAME[s]}" for s in SQUARES}
    zoc = {
        p.get("data-square")
        for p in root.findall(".//s:polygon", NS)
        if "zoc" in (p.get("class") or "")
    }
    expected = {NAME[s] for b in pos.blk for s in SQUARES if NB[b] >> s & 1}
    assert zoc == expected
    assert root.find(".//s:polygon[@data-last='G35']", NS) is not None
    pieces = root.findall(".//s:g", NS)
    assert len(pieces) == 18
    assert svg == render_svg(pos, last=parse_ply("G→G35").to_move())  # deterministic


def test_triangles_tile_the_board():
    # Neighbours share an edge: two corners in common.
    for s in SQUARES:
        pts = {(round(x, 3), round(y, 3)) for x, y in triangle_points(s)}
        for n in SQUARES:
            if NB[s] >> n & 1:
                other = {(round(x, 3), round(y, 3)) for x, y in triangle_points(n)}
                assert len(pts & other) == 2, (NAME[s], NAME[n])


def test_ablated_and_lying_goal_shown():
    pos = parse_position("laws ablative green 21 apex/VE38,VA19/E37 east/VI99/I99 ablated=E27")
    text = render_text(pos)
    assert " G " in text and " # " in text
    svg = render_svg(pos)
    assert 'class="pc goal-key"' in svg
    assert SQUARE_OF["E27"]
