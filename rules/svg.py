"""SVG pictures of a position: the triangular board, regions, zones of control, pieces,
Goals and the last move. The web viewer scripts it through the ids `sq-E37`."""

from __future__ import annotations

import math

from rules.board import BORDER_BB, NAME, REGION, SQUARES, WIDTH
from rules.drawing import (
    BORDER_FILL,
    REGION_FILL,
    Point,
    label_svg,
    marks_svg,
    poly,
    triangle_centre,
    zones_svg,
)
from rules.engines import picture
from rules.position import Move, Position


def _geometry(size: int, margin: float) -> tuple[float, float]:
    side = (size - 2 * margin) / 9
    return side, side * math.sqrt(3) / 2


def triangle_points(sq: int, size: int = 600, margin: float = 24.0) -> list[Point]:
    """The three corners of a square's triangle in picture coordinates."""
    s, h = _geometry(size, margin)
    r0, p = divmod(sq, WIDTH)
    x0 = size / 2 - r0 * s / 2
    top = margin + r0 * h
    j = p // 2
    if p % 2 == 0:
        x = x0 + j * s
        return [(x, top), (x - s / 2, top + h), (x + s / 2, top + h)]
    x = x0 + j * s
    return [(x, top), (x + s, top), (x + s / 2, top + h)]


def centre(sq: int, size: int = 600, margin: float = 24.0) -> Point:
    return triangle_centre(triangle_points(sq, size, margin))


class FlatLayout:
    """The flat board drawn `size` wide."""

    def __init__(self, size: int, margin: float = 24.0) -> None:
        self.size = size
        self.margin = margin

    def points(self, sq: int) -> list[Point]:
        return triangle_points(sq, self.size, self.margin)

    def centre(self, sq: int) -> Point:
        return centre(sq, self.size, self.margin)


def render_svg(
    pos: Position, *, last: Move | None = None, size: int = 600, labels: bool = True
) -> str:
    """A standalone SVG of the position (same input, same bytes)."""
    own = picture(pos.rules.variants, "svg")
    if own is not None:
        return own(pos, last=last, size=size, labels=labels)
    margin = 24.0
    lay = FlatLayout(size, margin)
    s, h = _geometry(size, margin)
    height = int(margin * 2 + 9 * h)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {height}" '
        f'width="{size}" height="{height}" class="kz-board" role="img" '
        'aria-label="Klin Zha board">',
        "<style>.sq{stroke:#555;stroke-width:1}.zoc{fill-opacity:.28;pointer-events:none}"
        ".lbl{font:8px sans-serif;fill:#777;pointer-events:none}"
        ".pc{font:bold 11px sans-serif;text-anchor:middle;dominant-baseline:central;"
        "pointer-events:none}.last{fill:none;stroke:#c62828;stroke-width:3}</style>",
    ]
    for sq in SQUARES:
        reg = REGION[sq]
        fill = BORDER_FILL if BORDER_BB >> sq & 1 else REGION_FILL[reg if reg is not None else 0]
        if pos.holes >> sq & 1:
            fill = "#444444"
        name = NAME[sq]
        cloud = " cloud" if pos.rules.cloud_bb >> sq & 1 else ""
        out.append(
            f'<polygon id="sq-{name}" data-square="{name}" class="sq{cloud}" '
            f'points="{poly(lay.points(sq))}" fill="{fill}"><title>{name}</title></polygon>'
        )
    out += zones_svg(pos, lay)
    if labels:
        for sq in SQUARES:
            # Up triangles (even positions) carry the label below the piece, down ones above.
            out.append(label_svg(lay.centre(sq), h * (0.17 if sq % 2 == 0 else -0.13), NAME[sq]))
    return marks_svg(out, pos, lay, last, s * 0.2, SQUARES)
