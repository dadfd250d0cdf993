"""SVG pictures of a position: the triangular board, regions, zones of control, pieces,
Goals and the last move. The web viewer scripts it through the ids `sq-E37`."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from rules.board import BORDER_BB, NAME, NB, REGION, SQUARES, WIDTH
from rules.position import Move, Position

_KEYS = ("", "Fe", "L", "S", "Fl", "V", "B")
REGION_FILL = ("#e8eef8", "#f8ebe8", "#eaf5e6")
BORDER_FILL = "#b9b9b9"
SIDE_FILL = ("#2f7d32", "#d4a017")
SIDE_TEXT = ("#ffffff", "#1d1d1d")
ZOC_FILL = ("#2f7d32", "#d4a017")


def _geometry(size: int, margin: float) -> tuple[float, float]:
    side = (size - 2 * margin) / 9
    return side, side * math.sqrt(3) / 2


def triangle_points(sq: int, size: int = 600, margin: float = 24.0) -> list[tuple[float, float]]:
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


def centre(sq: int, size: int = 600, margin: float = 24.0) -> tuple[float, float]:
    pts = triangle_points(sq, size, margin)
    return sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def render_svg(
    pos: Position, *, last: Move | None = None, size: int = 600, labels: bool = True
) -> str:
    """A standalone SVG of the position (same input, same bytes)."""
    if "tri-level" in pos.rules.variants:
        from rules.trilevel_svg import render_trilevel_svg

        return render_trilevel_svg(pos, last=last, size=size, labels=labels)
    margin = 24.0
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
    zones = [NB[b] if b >= 0 else 0 for b in pos.blk]
    for sq in SQUARES:
        pts = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in triangle_points(sq, size, margin))
        reg = REGION[sq]
        fill = BORDER_FILL if BORDER_BB >> sq & 1 else REGION_FILL[reg if reg is not None else 0]
        if pos.holes >> sq & 1:
            fill = "#444444"
        name = NAME[sq]
        cloud = " cloud" if pos.rules.cloud_bb >> sq & 1 else ""
        out.append(
            f'<polygon id="sq-{name}" data-square="{name}" class="sq{cloud}" '
            f'points="{pts}" fill="{fill}"><title>{name}</title></polygon>'
        )
    for side in (0, 1):
        for sq in SQUARES:
            if zones[side] >> sq & 1:
                pts = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in triangle_points(sq, size, margin))
                out.append(
                    f'<polygon class="zoc zoc-{("green", "gold")[side]}" data-square="{NAME[sq]}" '
                    f'points="{pts}" fill="{ZOC_FILL[side]}"/>'
                )
    if labels:
        for sq in SQUARES:
            x, y = centre(sq, size, margin)
            # Up triangles (even positions) carry the label below the piece, down ones above.
            dy = h * (0.17 if sq % 2 == 0 else -0.13)
            out.append(
                f'<text class="lbl" x="{_fmt(x)}" y="{_fmt(y + dy)}" '
                f'text-anchor="middle">{NAME[sq]}</text>'
            )
    if last is not None:
        for marked in (last.origin, last.dest):
            if marked is None:
                continue
            pts = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in triangle_points(marked, size, margin))
            out.append(f'<polygon class="last" data-last="{NAME[marked]}" points="{pts}"/>')
        if last.origin is not None:
            (x1, y1), (x2, y2) = centre(last.origin, size, margin), centre(last.dest, size, margin)
            out.append(
                f'<line class="last last-move" x1="{_fmt(x1)}" y1="{_fmt(y1)}" '
                f'x2="{_fmt(x2)}" y2="{_fmt(y2)}" stroke-dasharray="6 4"/>'
            )
    r = s * 0.2
    for side in (0, 1):
        g = pos.goal[side]
        if g >= 0:
            x, y = centre(g, size, margin)
            held = pos.holds_goal(side, g)
            ring = r * 1.45
            out.append(
                f'<circle class="goal goal-{("green", "gold")[side]}{" held" if held else ""}" '
                f'data-square="{NAME[g]}" cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(ring)}" '
                f'fill="none" stroke="{SIDE_FILL[side]}" stroke-width="3"/>'
            )
            if not pos.sq[g]:
                out.append(
                    f'<text class="pc goal-key" x="{_fmt(x)}" y="{_fmt(y)}" '
                    f'fill="{SIDE_FILL[side]}">G</text>'
                )
    for sq in SQUARES:
        code = pos.sq[sq]
        if not code:
            continue
        side, kind = code >> 3, code & 7
        x, y = centre(sq, size, margin)
        color = ("green", "gold")[side]
        out.append(
            f'<g class="piece piece-{color}" data-square="{NAME[sq]}" data-kind="{_KEYS[kind]}">'
            f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(r)}" fill="{SIDE_FILL[side]}" '
            f'stroke="#222" stroke-width="1"/>'
            f'<text class="pc" x="{_fmt(x)}" y="{_fmt(y)}" fill="{SIDE_TEXT[side]}">'
            f"{escape(_KEYS[kind])}</text></g>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
