"""Positions of a battle: one class assembled from the engine's topics, and their names.

Each topic has its module, each a layer of the class: what a position holds and the
variants' hooks (rules.state), placement (rules.placement), movement (rules.movement), the
Goal's safety (rules.safety), deadlock and counting (rules.deadlock). The names of the
pieces, the rule sets and the moves live in rules.pieces; they are all importable from here.
"""

from __future__ import annotations

from rules.deadlock import Deadlock
from rules.pieces import (
    BLOCKADER,
    CAPTURED,
    CARRIERS,
    COLOR_NAMES,
    FENCER,
    FLIER,
    GOAL,
    GOLD,
    GREEN,
    IS_CARRIER,
    KIND_KEYS,
    KIND_NAMES,
    LANCER,
    LANCER_RAYS,
    LAWS,
    MOVE_ARTICLE,
    NEAR4,
    NO_SQUARE,
    RULESET_ITALIAN,
    RULESET_LAWS,
    RULESET_LOYD_1989,
    RULESETS,
    SQUAD,
    SWIFT,
    VANGUARD,
    WARRIOR_KINDS,
    WARRIOR_OF_KEY,
    Move,
    Outcome,
    Rules,
)


class Position(Deadlock):
    """A position: pieces, Goals, regions, the ply count and who placed first.

    Positions are treated as values: `apply` returns a new position. The variants' positions
    are subclasses that override the narrow hooks of its layers (the `_`-methods each of which does
    one step of generating, checking, playing or judging a move) rather than whole methods.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self.rules == other.rules
            and self.first == other.first
            and self.ply == other.ply
            and self.sq == other.sq
            and self.goal == other.goal
            and self.region == other.region
            and self.outcome == other.outcome
        )

    def __hash__(self) -> int:
        return hash((self.rules, self.first, self.ply, tuple(self.sq), tuple(self.goal)))


__all__ = [
    "BLOCKADER",
    "CAPTURED",
    "CARRIERS",
    "COLOR_NAMES",
    "FENCER",
    "FLIER",
    "GOAL",
    "GOLD",
    "GREEN",
    "IS_CARRIER",
    "KIND_KEYS",
    "KIND_NAMES",
    "LANCER",
    "LANCER_RAYS",
    "LAWS",
    "MOVE_ARTICLE",
    "Move",
    "NEAR4",
    "NO_SQUARE",
    "Outcome",
    "Position",
    "RULESETS",
    "RULESET_ITALIAN",
    "RULESET_LAWS",
    "RULESET_LOYD_1989",
    "Rules",
    "SQUAD",
    "SWIFT",
    "VANGUARD",
    "WARRIOR_KINDS",
    "WARRIOR_OF_KEY",
]
