"""The one-line position string (like FEN) for sharing positions, and its reader.

Format, six space-separated fields and an optional seventh:
    <ruleset> <variants> <first placer> <plies made> <green> <gold> [<state>]
`variants` is a comma-separated list or `-`; a variant's parameter follows a colon:
`clouded:E37+F36`, `ablative:10`, `kaggas-crown:I99`. `state` holds what the variants
remember: `ablated=E37+F36` (oldest first), `crowned=green` and Kinta's changed strengths
`strength=C29:87+I33:120`, joined by `;`.
Each side is `<region>/<warriors>/<goal>`: region `apex`, `west`, `east` or `-` (not yet
placed); warriors comma-separated English key plus square (`FeC29,LC17`) or `-`; goal a
square, `-` (not placed) or `x` (captured).
Example: `laws - green 20 west/BH67,FlG47/H79 apex/BI22,VI34/G35`.
"""

from __future__ import annotations

from typing import Any

from rules.board import BIT, NAME, REGION_NAMES, SQUARE_OF, iter_bits
from rules.engines import new_position
from rules.errors import IllegalMoveError, PositionStringError
from rules.position import (
    CAPTURED,
    COLOR_NAMES,
    FLIER,
    KIND_KEYS,
    NO_SQUARE,
    RULESETS,
    SQUAD,
    SWIFT,
    WARRIOR_OF_KEY,
    Outcome,
    Position,
    Rules,
)
from rules.variants import KNOWN_VARIANTS, variant_parameters


def position_to_string(pos: Position) -> str:
    """The position as one line; squares are named as the position's board names them (a
    tri-level cell above the bottom level with its level, `2:E37`)."""
    state = _state_field(pos)
    return (
        f"{pos.rules.ruleset} {_variants_field(pos.rules)} {COLOR_NAMES[pos.first]} {pos.ply} "
        f"{_side_field(pos, 0)} {_side_field(pos, 1)}" + (" " + state if state else "")
    )


def _variants_field(rules: Rules) -> str:
    """The variants field: each variant by name, sorted, with its parameter; `-` for none."""
    names = []
    for v in sorted(rules.variants):
        if v == "clouded" and rules.clouds:
            v += ":" + "+".join(sorted(NAME[c] for c in rules.clouds))
        elif v == "ablative" and rules.ablation_limit:
            v += f":{rules.ablation_limit}"
        elif v == "kaggas-crown" and rules.crown >= 0:
            v += f":{NAME[rules.crown]}"
        names.append(v)
    return ",".join(names) or "-"


def _state_field(pos: Position) -> str:
    """The state field: what the variants remember, `;`-joined (empty when nothing)."""
    state = []
    if pos.ablated:
        state.append("ablated=" + "+".join(NAME[a] for a in pos.ablated))
    if pos.crowned >= 0:
        state.append(f"crowned={COLOR_NAMES[pos.crowned]}")
    state.extend(f"{key}={text}" for key, text in pos.state_fields().items())
    return ";".join(state)


def _side_field(pos: Position, side: int) -> str:
    """One side's field: region, warriors by kind and square, Goal."""
    sqname = pos.square_names
    reg = REGION_NAMES[pos.region[side]] if pos.region[side] >= 0 else "-"
    pieces = [
        f"{KIND_KEYS[pos.sq[s] & 7]}{sqname[s]}"
        for s in sorted(iter_bits(pos.occ[side]), key=lambda s: (pos.sq[s] & 7, sqname[s]))
    ]
    g = pos.goal[side]
    goal = "x" if g == CAPTURED else ("-" if g == NO_SQUARE else sqname[g])
    return f"{reg}/{','.join(pieces) or '-'}/{goal}"


def parse_position(text: str) -> Position:
    """Read a position string; PositionStringError says what is wrong."""
    fields = text.split()
    if len(fields) not in (6, 7):
        raise PositionStringError(
            f"a position string has 6 or 7 fields separated by spaces, not {len(fields)}"
        )
    ruleset, variants_text, first_text, ply_text, *side_texts = fields[:6]
    pos = _empty_position(ruleset, variants_text, first_text, ply_text)
    for side, side_text in enumerate(side_texts):
        _read_side(pos, side, side_text)
    if len(fields) == 7:
        _read_state(pos, fields[6])
    _check_goal_sharers(pos)
    if pos.crowned >= 0 and pos.outcome is None and pos.turn == pos.crowned:
        # The enemy has moved since the crowning and did not capture: the crown stands (13.3).
        pos.outcome = Outcome("crown", pos.crowned)
    try:
        pos.check_parsed()
    except IllegalMoveError as exc:
        raise PositionStringError(str(exc)) from None
    return pos


def _empty_position(ruleset: str, variants_text: str, first_text: str, ply_text: str) -> Position:
    """The empty position the first four fields describe, `ply_text` plies made."""
    if ruleset not in RULESETS:
        raise PositionStringError(f"unknown ruleset {ruleset!r}")
    variants, kwargs = _read_variants(variants_text)
    if first_text not in COLOR_NAMES:
        raise PositionStringError(f"first placer must be green or gold, not {first_text!r}")
    if not ply_text.isdigit():
        raise PositionStringError(f"plies made must be a number, not {ply_text!r}")
    rules = Rules(ruleset, variants, **kwargs)
    # Variants with their own position class (Kinta's scorecard, the reflective squad, the
    # tri-level board, the Italian society's protocol) read into that class.
    try:
        pos = new_position(rules, COLOR_NAMES.index(first_text))
    except IllegalMoveError as exc:
        raise PositionStringError(str(exc)) from None
    pos.ply = int(ply_text)
    return pos


def _read_variants(text: str) -> tuple[frozenset[str], dict[str, Any]]:
    """The variants field read: (the variants, Rules' keyword arguments for their
    parameters)."""
    params: dict[str, str] = {}
    names = set()
    for item in [] if text == "-" else text.split(","):
        name, _, value = item.partition(":")
        names.add(name)
        params[name] = value
    variants = frozenset(names)
    unknown = variants - KNOWN_VARIANTS
    if unknown:
        raise PositionStringError(f"unknown variants: {', '.join(sorted(unknown))}")
    try:
        return variants, variant_parameters(variants, params)
    except ValueError as exc:
        raise PositionStringError(str(exc)) from None


def _read_side(pos: Position, side: int, text: str) -> None:
    """Stand `side`'s region, warriors and Goal as its field `text` writes them."""
    parts = text.split("/")
    if len(parts) != 3:
        raise PositionStringError(f"{COLOR_NAMES[side]}: expected region/warriors/goal")
    reg, pieces, goal = parts
    if reg != "-":
        if reg not in REGION_NAMES:
            raise PositionStringError(f"{COLOR_NAMES[side]}: unknown region {reg!r}")
        pos.region[side] = REGION_NAMES.index(reg)
    if pieces != "-":
        for item in pieces.split(","):
            place_warrior(pos, side, item)
    if goal == "x":
        pos.goal[side] = CAPTURED
        pos.outcome = Outcome("capture", 1 - side)
    elif goal != "-":
        sq = pos.square_of.get(goal.upper())
        if sq is None:
            raise PositionStringError(f"{COLOR_NAMES[side]}: no triangle {goal!r} for the Goal")
        pos.goal[side] = sq


def _check_goal_sharers(pos: Position) -> None:
    """Refuse a Goal that shares its triangle with a warrior that may not share it."""
    for side in (0, 1):
        g = pos.goal[side]
        if g < 0:
            continue
        code = pos.sq[g]
        kind = code & 7
        # A carrier holds its Goal; a Swift or Flier may share its lying Goal's triangle.
        sharer = pos.is_carrier(kind) or kind in (SWIFT, FLIER)
        if code and (code >> 3 != side or not sharer):
            raise PositionStringError(
                f"{COLOR_NAMES[side]} Goal on {pos.square_names[g]} shares a triangle it "
                "cannot share"
            )


def place_warrior(pos: Position, side: int, item: str) -> None:
    """Stand `side`'s warrior written `item` (English key and square, `FeC29`, `L2:E37`) on
    the board; PositionStringError (a ValueError) when it cannot."""
    # A square's name has three characters; a tri-level cell may have a level in front.
    size = 5 if item[-4:-3] == ":" else 3
    head = item[:-size]
    sq = pos.square_of.get(item[-size:].upper())
    kind = WARRIOR_OF_KEY.get(head.lower())
    if sq is None or kind is None:
        raise PositionStringError(f"{COLOR_NAMES[side]}: cannot read warrior {item!r}")
    if pos.sq[sq]:
        raise PositionStringError(f"two warriors on {item[-size:]}")
    if pos.kbb[side][kind].bit_count() >= SQUAD[kind]:
        raise PositionStringError(f"{COLOR_NAMES[side]} has too many of {head}")
    pos._put(side, kind, sq)


def _read_state(pos: Position, text: str) -> None:
    """Read the state field into `pos`: ablated squares, the crown, the variants' own."""
    for item in text.split(";"):
        key, _, value = item.partition("=")
        if key == "ablated":
            try:
                order = [SQUARE_OF[n.upper()] for n in value.split("+") if n]
            except KeyError:
                raise PositionStringError(f"cannot read ablated squares {value!r}") from None
            pos.ablated = tuple(order)
            holes = 0
            for a in order:
                holes |= BIT[a]
            pos.holes = holes
        elif key == "crowned" and value in COLOR_NAMES:
            pos.crowned = COLOR_NAMES.index(value)
        else:
            try:
                known = pos.read_state_field(key, value)
            except ValueError as exc:
                raise PositionStringError(str(exc)) from None
            if not known:
                raise PositionStringError(f"cannot read state {item!r}")
