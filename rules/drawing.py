"""What every picture shares, whatever its board: colours, SVG marks, text tokens, status."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from rules.board import iter_bits
from rules.notation import ENGLISH, Notation, Ply, format_ply
from rules.position import CAPTURED, COLOR_NAMES, KIND_KEYS, Move, Position

REGION_FILL = ("#e8eef8", "#f8ebe8", "#eaf5e6")
BORDER_FILL = "#b9b9b9"
SIDE_FILL = ("#2f7d32", "#d4a017")
SIDE_TEXT = ("#ffffff", "#1d1d1d")
ZOC_FILL = ("#2f7d32", "#d4a017")

Point = tuple[float, float]


class Layout(Protocol):
    """Where a board's squares (or cells) are drawn."""

    def points(self, sq: int) -> list[Point]:
        """The three corners of the square's triangle."""
        ...

    def centre(self, sq: int) -> Point:
        """The middle of the square's triangle."""
        ...


def fmt(v: float) -> str:
    """A coordinate with at most one decimal, as short as it can be written."""
    return f"{v:.1f}".rstrip("0").rstrip(".")


def poly(pts: Iterable[Point]) -> str:
    """An SVG points list."""
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in pts)


def triangle_centre(pts: Sequence[Point]) -> Point:
    return sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3


def zones_svg(pos: Position, lay: Layout) -> list[str]:
    """Each Blockader's zone of control, shaded in its side's colour."""
    names = pos.square_names
    out = []
    for side, zone in enumerate(pos.zones()):
        for sq in iter_bits(zone):
            out.append(
                f'<polygon class="zoc zoc-{COLOR_NAMES[side]}" data-square="{names[sq]}" '
                f'points="{poly(lay.points(sq))}" fill="{ZOC_FILL[side]}"/>'
            )
    return out


def last_move_svg(pos: Position, lay: Layout, last: Move | None) -> list[str]:
    """The last move's triangles outlined, and a dashed line from origin to destination."""
    if last is None:
        return []
    names = pos.square_names
    out = [
        f'<polygon class="last" data-last="{names[marked]}" points="{poly(lay.points(marked))}"/>'
        for marked in (last.origin, last.dest)
        if marked is not None
    ]
    if last.origin is not None:
        (x1, y1), (x2, y2) = lay.centre(last.origin), lay.centre(last.dest)
        out.append(
            f'<line class="last last-move" x1="{fmt(x1)}" y1="{fmt(y1)}" '
            f'x2="{fmt(x2)}" y2="{fmt(y2)}" stroke-dasharray="6 4"/>'
        )
    return out


def goals_svg(pos: Position, lay: Layout, r: float) -> list[str]:
    """Each Goal as a ring (a `G` inside when it lies alone) around a piece of radius `r`."""
    names = pos.square_names
    out = []
    for side in (0, 1):
        g = pos.goal[side]
        if g < 0:
            continue
        x, y = lay.centre(g)
        held = " held" if pos.holds_goal(side, g) else ""
        out.append(
            f'<circle class="goal goal-{COLOR_NAMES[side]}{held}" '
            f'data-square="{names[g]}" cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(r * 1.45)}" '
            f'fill="none" stroke="{SIDE_FILL[side]}" stroke-width="3"/>'
        )
        if not pos.sq[g]:
            out.append(
                f'<text class="pc goal-key" x="{fmt(x)}" y="{fmt(y)}" '
                f'fill="{SIDE_FILL[side]}">G</text>'
            )
    return out


def pieces_svg(
    pos: Position, lay: Layout, squares: Iterable[int], r: float, level: Sequence[int] = ()
) -> list[str]:
    """The warriors on `squares`, as discs of radius `r` with their keys (and the cell's
    level, from `level`, on a board of several)."""
    names = pos.square_names
    out = []
    for sq in squares:
        code = pos.sq[sq]
        if not code:
            continue
        side, key = code >> 3, KIND_KEYS[code & 7]
        x, y = lay.centre(sq)
        lv = f'data-level="{level[sq]}" ' if level else ""
        out.append(
            f'<g class="piece piece-{COLOR_NAMES[side]}" data-square="{names[sq]}" '
            f'{lv}data-kind="{key}">'
            f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(r)}" fill="{SIDE_FILL[side]}" '
            f'stroke="#222" stroke-width="1"/>'
            f'<text class="pc" x="{fmt(x)}" y="{fmt(y)}" fill="{SIDE_TEXT[side]}">'
            f"{_xml_text(key)}</text></g>"
        )
    return out


def _xml_text(text: str) -> str:
    """`text` for an XML element's content: `&`, `<` and `>` escaped."""
    # xml.sax.saxutils.escape does the same, but importing it imports urllib.request (with
    # http.client, ssl and email): some 30 ms on every start-up of the engine.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def label_svg(at: Point, dy: float, text: str) -> str:
    """A square's name written `dy` below its centre `at` (above when negative)."""
    x, y = at
    return f'<text class="lbl" x="{fmt(x)}" y="{fmt(y + dy)}" text-anchor="middle">{text}</text>'


def marks_svg(
    out: list[str],
    pos: Position,
    lay: Layout,
    last: Move | None,
    r: float,
    squares: Iterable[int],
    level: Sequence[int] = (),
) -> str:
    """The picture `out` began (the board) finished: the last move, the Goals and the pieces
    (discs of radius `r`) drawn over it, and the SVG closed."""
    out += last_move_svg(pos, lay, last)
    out += goals_svg(pos, lay, r)
    out += pieces_svg(pos, lay, squares, r, level)
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- text diagrams ----------------------------------------------------------------------------
def cell_token(pos: Position, sq: int) -> str:
    """The short text for one triangle: green keys upper case, gold lower case; `*` marks a
    carrier holding its Goal, `+` a Swift or Flier sharing its lying Goal, `G`/`g` a Goal
    lying alone, `.` an empty triangle, `#` an ablated one."""
    code = pos.sq[sq]
    goal_side = next((s for s in (0, 1) if pos.goal[s] == sq), None)
    if code:
        side, kind = code >> 3, code & 7
        key = KIND_KEYS[kind]
        key = key if side == 0 else key.lower()
        if goal_side == side:
            key += "*" if pos.holds_goal(side, sq) else "+"
        return key
    if goal_side is not None:
        return "G" if goal_side == 0 else "g"
    if pos.holes >> sq & 1:
        return "#"
    return "."


def legend_lines(ablation: bool = True) -> list[str]:
    """What a text diagram's tokens mean."""
    return [
        "green: upper case (Fe L S Fl V B), gold: lower case; * holds its Goal,",
        "+ shares its lying Goal, G/g a Goal lying alone" + (", # ablated." if ablation else "."),
    ]


def status_lines(
    pos: Position, *, last: Move | None, last_text: str | None, notation: Notation = ENGLISH
) -> list[str]:
    """What a diagram says below the board: each Goal, what a variant keeps beyond the
    board (Kinta's scorecard), whose ply it is or how the battle ended, and the last move."""
    lines = []
    for side in (0, 1):
        g = pos.goal[side]
        where = "captured" if g == CAPTURED else ("not placed" if g < 0 else notation.square(g))
        lines.append(f"{COLOR_NAMES[side]} Goal: {where}")
    lines.extend(pos.report_lines())
    outcome = pos.final_outcome()
    if outcome is not None:
        lines.append(f"Battle over: {outcome.termination}, {outcome.winner_name} wins.")
    else:
        side, stage = pos.stage()
        what = {"warrior": "to place a warrior", "goal": "to place the Goal"}.get(stage, "to move")
        lines.append(f"Ply {pos.ply + 1}: {COLOR_NAMES[side]} {what}.")
    if last_text is not None:
        lines.append(f"Last move: {last_text}")
    elif last is not None:
        move = Ply(last.kind, last.dest, last.origin, last.carry)
        lines.append(f"Last move: {format_ply(move, notation)}")
    return lines


def text_diagram(
    board: list[str],
    pos: Position,
    last: Move | None,
    last_text: str | None,
    notation: Notation,
    ablation: bool = True,
) -> str:
    """A text diagram: the `board`'s lines as a board draws them, then the legend and the
    status lines."""
    lines = board + legend_lines(ablation)
    lines += status_lines(pos, last=last, last_text=last_text, notation=notation)
    return "\n".join(lines) + "\n"


__all__ = [
    "BORDER_FILL",
    "REGION_FILL",
    "SIDE_FILL",
    "SIDE_TEXT",
    "ZOC_FILL",
    "Layout",
    "cell_token",
    "fmt",
    "goals_svg",
    "label_svg",
    "last_move_svg",
    "legend_lines",
    "marks_svg",
    "pieces_svg",
    "poly",
    "status_lines",
    "text_diagram",
    "triangle_centre",
    "zones_svg",
]
