"""The variants' plug-in table: each one's position class, coordinates and pictures."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import import_module
from typing import Final, cast

from rules.board import FLAT_COORDINATES, Coordinates
from rules.position import RULESET_ITALIAN, Position, Rules

# The core modules ask here, so that none of them imports a variant's module: a variant is
# named by the dotted path of what it supplies, imported the first time it is asked for.
#
# Variants (and rulesets) that change more than parameters get a Position subclass of their
# own, imported only when a record asks for it. When several are named, the first in this
# order wins; combinations the Laws do not allow are refused by rules_from_tags.
ENGINES: Final = (
    ("variant", "tri-level", "rules.trilevel:TriLevelPosition"),
    ("variant", "reflective", "rules.reflective:ReflectivePosition"),
    ("variant", "kinta", "rules.kinta:KintaPosition"),
    ("ruleset", RULESET_ITALIAN, "rules.italian:ItalianPosition"),
)

# What a variant supplies beyond its position class, by what it is for: a board of its own
# has its `coordinates` (a rules.board.Coordinates) and its pictures, `svg` (called as
# rules.svg.render_svg is) and `text` (called with render_text's arguments in order:
# position, last move, its text, notation).
SUPPLIES: Final = {
    ("tri-level", "coordinates"): "rules.trilevel_board:COORDINATES",
    ("tri-level", "svg"): "rules.trilevel_svg:render_trilevel_svg",
    ("tri-level", "text"): "rules.trilevel_svg:render_trilevel_text",
}

Picture = Callable[..., str]


def _load(target: str) -> object:
    module, _, attr = target.partition(":")
    found: object = getattr(import_module(module), attr)
    return found


def position_class(rules: Rules) -> type[Position]:
    """The class whose positions play `rules`."""
    for what, name, target in ENGINES:
        named = name in rules.variants if what == "variant" else rules.ruleset == name
        if named:
            cls = _load(target)
            assert isinstance(cls, type) and issubclass(cls, Position)
            return cls
    return Position


def new_position(rules: Rules, first: int) -> Position:
    """The empty board (or the variant's empty battlefield) under `rules`."""
    return position_class(rules)(rules, first)


def supplied(variants: Iterable[str], role: str) -> object | None:
    """What the first of `variants` (in sorted order) supplies for `role`, or None."""
    for variant in sorted(variants):
        target = SUPPLIES.get((variant, role))
        if target is not None:
            return _load(target)
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
    return cast(Picture, found)
