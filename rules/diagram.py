"""Text diagrams of a position: the triangular board in a monospace font."""

from __future__ import annotations

from rules.board import ROWS, SQUARES, WIDTH
from rules.kinta import KintaPosition, describe_combat, scorecard_lines
from rules.notation import ENGLISH, Notation
from rules.position import CAPTURED, COLOR_NAMES, Move, Position

CELL = 3
_KEYS = ("", "Fe", "L", "S", "Fl", "V", "B")


def cell_token(pos: Position, sq: int) -> str:
    """The short text for one triangle: green keys upper case, gold lower case; `*` marks a
    carrier holding its Goal, `+` a Swift or Flier sharing its lying Goal, `G`/`g` a Goal
    lying alone, `.` an empty triangle, `#` an ablated one."""
    code = pos.sq[sq]
    goal_side = next((s for s in (0, 1) if pos.goal[s] == sq), None)
    if code:
        side, kind = code >> 3, code & 7
        key = _KEYS[kind]
        key = key if side == 0 else key.lower()
        if goal_side == side:
            key += "*" if pos.holds_goal(side, sq) else "+"
        return key
    if goal_side is not None:
        return "G" if goal_side == 0 else "g"
    if pos.holes >> sq & 1:
        return "#"
    return "."


def render_text(
    pos: Position,
    *,
    last: Move | None = None,
    last_text: str | None = None,
    notation: Notation = ENGLISH,
) -> str:
    """The position as a monospace triangle, row A on top, with a legend and whose move."""
    if "tri-level" in pos.rules.variants:
        from rules.trilevel_svg import render_trilevel_text

        return render_trilevel_text(pos, last=last, last_text=last_text, notation=notation)
    lines = []
    for r0 in range(9):
        cells = [s for s in SQUARES if s // WIDTH == r0]
        body = "".join(cell_token(pos, s).center(CELL) for s in cells)
        lines.append(f"{ROWS[r0]} " + " " * ((8 - r0) * CELL) + body)
    lines.append("")
    lines.append("green: upper case (Fe L S Fl V B), gold: lower case; * holds its Goal,")
    lines.append("+ shares its lying Goal, G/g a Goal lying alone, # ablated.")
    lines.extend(status_lines(pos, last=last, last_text=last_text, notation=notation))
    return "\n".join(lines) + "\n"


def status_lines(
    pos: Position, *, last: Move | None, last_text: str | None, notation: Notation
) -> list[str]:
    """What a diagram says below the board: each Goal, Kinta's scorecard, whose ply it is or
    how the battle ended, and the last move."""
    lines = []
    for side in (0, 1):
        g = pos.goal[side]
        where = "captured" if g == CAPTURED else ("not placed" if g < 0 else notation.square(g))
        lines.append(f"{COLOR_NAMES[side]} Goal: {where}")
    if isinstance(pos, KintaPosition):
        lines.extend(scorecard_lines(pos))
        if pos.last_combat is not None:
            lines.append(f"Last combat: {describe_combat(pos.last_combat)}")
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
        lines.append(f"Last move: {_last_text(last, notation)}")
    return lines


def _last_text(move: Move, notation: Notation) -> str:
    key = notation.key(move.kind)
    if move.origin is None:
        return f"{key}→{notation.square(move.dest)}"
    head = f"({key})" if move.carry else key
    return f"{head}@{notation.square(move.origin)} → {notation.square(move.dest)}"


__all__ = ["cell_token", "render_text", "status_lines"]
