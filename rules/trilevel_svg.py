"""Pictures of tri-level positions: an SVG of the three levels and a monospace text diagram."""

from __future__ import annotations

import math
from dataclasses import replace

from rules.board import REGION, ROWS
from rules.board import ijk as flat_ijk
from rules.drawing import (
    BORDER_FILL,
    REGION_FILL,
    Point,
    cell_token,
    fmt,
    label_svg,
    marks_svg,
    poly,
    text_diagram,
    triangle_centre,
    zones_svg,
)
from rules.notation import Notation
from rules.position import Move, Position
from rules.registry import register_pictures
from rules.trilevel_board import CELL_NAME, CELLS, CELLS_OF_LEVEL, FLAT_OF, FLOOR, LEVEL_OF, LEVELS

COVERED_FILL = "#8d8d8d"
UPPER_FILL = ("", "", "#dfe7d8", "#f3e7c4")


def edge(level: int) -> int:
    """Triangles per edge of a level: 9, 6, 3."""
    return 12 - 3 * level


def level_place(c: int) -> tuple[int, int]:
    """(row from the level's own apex, position in that row from the west) of a cell."""
    lv = LEVEL_OF[c]
    i, j, k = (x - (lv - 1) for x in flat_ijk(FLAT_OF[c]))
    n = edge(lv)
    up = i + j + k == n - 1
    return n - 1 - i, 2 * j + (0 if up else 1)


class Layout:
    """Where each level is drawn: the bottom level on the left, the second level above the
    third on the right, all with triangles of one size so that a cell and the cell above it
    look alike."""

    def __init__(self, size: int, margin: float = 24.0, gap: float = 28.0) -> None:
        self.margin = margin
        self.side = (size - 2 * margin - gap) / 15
        self.h = self.side * math.sqrt(3) / 2
        self.width = size
        title = 16.0
        s, h = self.side, self.h
        self.height = int(2 * margin + title + 9 * h + title)
        right = margin + 9 * s + gap
        # (x of the apex, y of the apex) per level
        self.apex = {
            1: (margin + 4.5 * s, margin + title),
            2: (right + 3 * s, margin + title),
            3: (right + 3 * s, margin + 2 * title + 6 * h),
        }

    def points(self, c: int) -> list[Point]:
        s, h = self.side, self.h
        ax, ay = self.apex[LEVEL_OF[c]]
        r0, p = level_place(c)
        x0 = ax - r0 * s / 2
        top = ay + r0 * h
        x = x0 + (p // 2) * s
        if p % 2 == 0:
            return [(x, top), (x - s / 2, top + h), (x + s / 2, top + h)]
        return [(x, top), (x + s, top), (x + s / 2, top + h)]

    def centre(self, c: int) -> Point:
        return triangle_centre(self.points(c))


def _id(c: int) -> str:
    # ':' may not appear in an XML id; the bottom level keeps the flat board's ids (sq-E37)
    # so that the viewer's scripts find its squares.
    return "sq-" + CELL_NAME[c].replace(":", "-")


def render_trilevel_svg(
    pos: Position, *, last: Move | None = None, size: int = 600, labels: bool = True
) -> str:
    """A standalone SVG of a tri-level position: three levels, pieces, zones, last move."""
    lay = Layout(size)
    s, h = lay.side, lay.h
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {lay.width} {lay.height}" '
        f'width="{lay.width}" height="{lay.height}" class="kz-board kz-tri-level" role="img" '
        'aria-label="Klin Zha tri-level board">',
        "<style>.sq{stroke:#555;stroke-width:1}.zoc{fill-opacity:.28;pointer-events:none}"
        ".lbl{font:7px sans-serif;fill:#666;pointer-events:none}"
        ".ttl{font:bold 12px sans-serif;fill:#333}"
        ".pc{font:bold 10px sans-serif;text-anchor:middle;dominant-baseline:central;"
        "pointer-events:none}.last{fill:none;stroke:#c62828;stroke-width:3}"
        ".shadow{fill:none;stroke:#333;stroke-width:2;stroke-dasharray:4 3}</style>",
    ]
    for lv in LEVELS:
        ax, ay = lay.apex[lv]
        title = "Level 1 (bottom)" if lv == 1 else f"Level {lv}"
        out.append(
            f'<text class="ttl" x="{fmt(ax)}" y="{fmt(ay - 4)}" text-anchor="middle">{title}</text>'
        )
        out.append(f'<g class="level" data-level="{lv}">')
        for c in CELLS_OF_LEVEL[lv]:
            if lv == 1:
                reg = REGION[c]
                fill = REGION_FILL[reg] if reg is not None else BORDER_FILL
                if FLOOR >> c & 1:
                    fill = COVERED_FILL if pos.in_battle else fill
            else:
                fill = UPPER_FILL[lv]
            name = CELL_NAME[c]
            covered = " covered" if FLOOR >> c & 1 else ""
            out.append(
                f'<polygon id="{_id(c)}" data-square="{name}" data-level="{lv}" '
                f'class="sq{covered}" points="{poly(lay.points(c))}" fill="{fill}">'
                f"<title>{name}</title></polygon>"
            )
        out.append("</g>")
    # The footprint of each upper level on the one below it.
    for lv in (2, 3):
        outline = _footprint(lay, lv)
        out.append(f'<polygon class="shadow" data-covers="{lv}" points="{poly(outline)}"/>')
    out += zones_svg(pos, lay)
    if labels:
        for c in CELLS:
            up = level_place(c)[1] % 2 == 0
            out.append(
                label_svg(lay.centre(c), h * (0.2 if up else -0.16), CELL_NAME[c].split(":")[-1])
            )
    return marks_svg(out, pos, lay, last, s * 0.2, CELLS, LEVEL_OF)


def _footprint(lay: Layout, lv: int) -> list[tuple[float, float]]:
    """The outline, drawn on level lv-1, of the triangles level lv covers."""
    s, h = lay.side, lay.h
    ax, ay = lay.apex[lv - 1]
    # The covered triangles are those touching no edge of the level below, even at a corner:
    # a triangle inset by one row on every side, so its apex is two rows down.
    top_x, top_y = ax, ay + 2 * h
    n = edge(lv)
    return [(top_x, top_y), (top_x - n * s / 2, top_y + n * h), (top_x + n * s / 2, top_y + n * h)]


CELL = 3


def render_trilevel_text(
    pos: Position, last: Move | None, last_text: str | None, notation: Notation
) -> str:
    """rules.diagram.render_text for a tri-level position: each level as a monospace
    triangle, bottom level first, with a legend and whose move."""
    lines = []
    for lv in LEVELS:
        n = edge(lv)
        lines.append(f"Level {lv}" + (" (bottom; ':' covered by level 2)" if lv == 1 else ""))
        rows: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for c in CELLS_OF_LEVEL[lv]:
            r0, p = level_place(c)
            rows[r0].append((p, c))
        for r0, row in enumerate(rows):
            body = ""
            for _p, c in sorted(row):
                token = cell_token(pos, c)
                if token == "." and FLOOR >> c & 1:
                    token = ":"
                body += token.center(CELL)
            label = ROWS[r0 + 9 - n] if lv == 1 else " "
            lines.append(f"{label} " + " " * ((n - 1 - r0) * CELL) + body)
        lines.append("")
    # Cells are named with their level; nothing is ever ablated on this board.
    notation = replace(notation, tri_level=True)
    return text_diagram(lines, pos, last, last_text, notation, ablation=False)


__all__ = ["Layout", "render_trilevel_svg", "render_trilevel_text"]

register_pictures("tri-level", svg=render_trilevel_svg, text=render_trilevel_text)
