"""The variants' plug-in table: each one's position class, coordinates and pictures."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from rules.board import FLAT_COORDINATES, Coordinates
from rules.position import Position, Rules

# The core modules ask here, so that none of them imports a variant's module or names one:
# the table is empty until rules.registry fills it, which the variants do when they are
# imported (rules.variants_all imports them all, and the package's __init__ imports that).
#
# Variants (and rulesets) that change more than parameters have a Position subclass of their
# own: (what, name, class) with `what` "variant" or "ruleset". When several are named, the
# first in the table wins (rules.registry keeps it in its order of precedence); combinations
# the Laws do not allow are refused by rules_from_tags.
ENGINES: Final[list[tuple[str, str, type[Position]]]] = []

# What a variant supplies beyond its position class, by (variant, role): a board of its own
# has its `coordinates` (a rules.board.Coordinates) and its pictures, `svg` (called as
# rules.svg.render_svg is) and `text` (called with render_text's arguments in order:
# position, last move, its text, notation).
SUPPLIES: Final[dict[tuple[str, str], object]] = {}

Picture = Callable[..., str]


def position_class(rules: Rules) -> type[Position]:
    """The class whose positions play `rules`."""
    for what, name, cls in ENGINES:
        if (name in rules.variants) if what == "variant" else rules.ruleset == name:
            return cls
    return Position


def new_position(rules: Rules, first: int) -> Position:
    """The empty board (or the variant's empty battlefield) under `rules`."""
    return position_class(rules)(rules, first)


def supplied(variants: Iterable[str], role: str) -> object | None:
    """What the first of `variants` (in sorted order) supplies for `role`, or None."""
    for variant in sorted(variants):
        found = SUPPLIES.get((variant, role))
        if found is not None:
            return found
    return None


def coordinates(variants: Iterable[str]) -> Coordinates:
    """How records played under `variants` name squares (the flat board's unless a
    variant brings a board of its own)."""
    found = supplied(variants, "coordinates")
    if found is None:
        return FLAT_COORDINATES
    assert isinstance(found, Coordinates)
    return found


def picture(variants: Iterable[str], role: str) -> Picture | None:
    """A variant's own picture of its positions (`svg` or `text`), or None."""
    found = supplied(variants, role)
    if found is None:
        return None
    assert callable(found)
    return found
