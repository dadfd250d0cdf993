"""Text diagrams of a position: the triangular board in a monospace font."""

from __future__ import annotations

from rules.board import ROWS, SQUARES, WIDTH
from rules.drawing import cell_token, status_lines, text_diagram
from rules.engines import picture
from rules.notation import ENGLISH, Notation
from rules.position import Move, Position

CELL = 3


def render_text(
    pos: Position,
    *,
    last: Move | None = None,
    last_text: str | None = None,
    notation: Notation = ENGLISH,
) -> str:
    """The position as a monospace triangle, row A on top, with a legend and whose move."""
    own = picture(pos.rules.variants, "text")
    if own is not None:
        return own(pos, last, last_text, notation)
    lines = []
    for r0 in range(9):
        cells = [s for s in SQUARES if s // WIDTH == r0]
        body = "".join(cell_token(pos, s).center(CELL) for s in cells)
        lines.append(f"{ROWS[r0]} " + " " * ((8 - r0) * CELL) + body)
    lines.append("")
    return text_diagram(lines, pos, last, last_text, notation)


__all__ = ["cell_token", "render_text", "status_lines"]
