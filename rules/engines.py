"""Which position class plays a rule set: the flat board's `Position`, or a variant's own."""

from __future__ import annotations

from importlib import import_module
from typing import Final

from rules.position import Position, Rules

# Variants (and rulesets) that change more than parameters get a Position subclass of their
# own, imported only when a record asks for it. When several are named, the first in this
# order wins; combinations the Laws do not allow are refused by rules_from_tags.
ENGINES: Final = (
    ("variant", "tri-level", "rules.trilevel:TriLevelPosition"),
    ("variant", "reflective", "rules.reflective:ReflectivePosition"),
    ("variant", "kinta", "rules.kinta:KintaPosition"),
    ("ruleset", "italian-society", "rules.italian:ItalianPosition"),
)


def position_class(rules: Rules) -> type[Position]:
    """The class whose positions play `rules`."""
    for what, name, target in ENGINES:
        named = name in rules.variants if what == "variant" else rules.ruleset == name
        if named:
            module, _, attr = target.partition(":")
            cls: type[Position] = getattr(import_module(module), attr)
            return cls
    return Position


def new_position(rules: Rules, first: int) -> Position:
    """The empty board (or the variant's empty battlefield) under `rules`."""
    return position_class(rules)(rules, first)
