"""The pieces, the rule sets and the moves: the names every module of the engine shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, NamedTuple

from rules.board import (
    BIT,
    NAME,
    NSQ,
    RAYS,
    SQUARES,
    neighbours_bb,
)

GREEN: Final = 0
GOLD: Final = 1
COLOR_NAMES: Final = ("green", "gold")

FENCER: Final = 1
LANCER: Final = 2
SWIFT: Final = 3
FLIER: Final = 4
VANGUARD: Final = 5
BLOCKADER: Final = 6
GOAL: Final = 7
WARRIOR_KINDS: Final = (FENCER, LANCER, SWIFT, FLIER, VANGUARD, BLOCKADER)
KIND_NAMES: Final = ("", "Fencer", "Lancer", "Swift", "Flier", "Vanguard", "Blockader", "Goal")
# The English keys (Appendix C) by kind, and the warriors' read back in any case.
KIND_KEYS: Final = ("", "Fe", "L", "S", "Fl", "V", "B", "G")
WARRIOR_OF_KEY: Final = {KIND_KEYS[k].lower(): k for k in WARRIOR_KINDS}
SQUAD: Final = (0, 1, 1, 1, 2, 3, 1)
CARRIERS: Final = frozenset((FENCER, LANCER, VANGUARD))
IS_CARRIER: Final = (False, True, True, False, False, True, False, False)

# The rule sets a record may name in its Ruleset tag.
RULESET_LAWS: Final = "laws"
RULESET_LOYD_1989: Final = "loyd-1989"
RULESET_ITALIAN: Final = "italian-society"
RULESETS: Final = (RULESET_LAWS, RULESET_LOYD_1989, RULESET_ITALIAN)

NO_SQUARE: Final = -1
CAPTURED: Final = -2

# Article cited for a warrior that cannot reach its destination.
MOVE_ARTICLE: Final = ("", "3.11.6", "3.11.7", "3.11.3", "3.11.2", "3.11.5", "3.11.4")


def _lancer_rays(sq: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(BIT[s] for s in ray[:3]) for ray in RAYS[sq])


LANCER_RAYS: list[tuple[tuple[int, ...], ...]] = [()] * NSQ
# LANCER_REACH[s]: the squares of LANCER_RAYS[s], the only ones a Lancer strikes `s` from.
LANCER_REACH: list[int] = [0] * NSQ
for _s in SQUARES:
    LANCER_RAYS[_s] = _lancer_rays(_s)
    for _ray in LANCER_RAYS[_s]:
        for _b in _ray:
            LANCER_REACH[_s] |= _b

# NEAR4[s]: squares within four steps of s, the farthest any walking warrior can strike from;
# NEAR2[s] within two, where a Blockader strikes from.
NEAR4: list[int] = [0] * NSQ
NEAR2: list[int] = [0] * NSQ
for _s in SQUARES:
    _near = BIT[_s]
    for _step in range(4):
        _near |= neighbours_bb(_near)
        if _step == 1:
            NEAR2[_s] = _near
    NEAR4[_s] = _near


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule set a battle is played under, with the variants' parameters.

    `clouds` are the clouded squares (Art. 13.4), `crown` the designated apex of Kagga's
    Crown (13.3, -1 when unused), `ablation_limit` the most squares ablated at once (13.6,
    0 for no limit), `removed` the kind each squad plays without (0: none; the Italian
    society's Bach'san replay).
    """

    ruleset: str = RULESET_LAWS
    variants: frozenset[str] = frozenset()
    clouds: frozenset[int] = frozenset()
    crown: int = -1
    ablation_limit: int = 0
    removed: int = 0
    squad: tuple[int, ...] = field(init=False, compare=False, repr=False)
    power_vanguards: bool = field(init=False, compare=False, repr=False)
    alternating: bool = field(init=False, compare=False, repr=False)
    forward: bool = field(init=False, compare=False, repr=False)
    honor: bool = field(init=False, compare=False, repr=False)
    ablative: bool = field(init=False, compare=False, repr=False)
    crowns: bool = field(init=False, compare=False, repr=False)
    cloud_bb: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        v = self.variants
        object.__setattr__(self, "power_vanguards", "power-vanguards" in v)
        object.__setattr__(self, "alternating", "alternating-placement" in v)
        object.__setattr__(self, "forward", "forward-placement" in v)
        object.__setattr__(self, "honor", "honor-in-setup" in v)
        object.__setattr__(self, "ablative", "ablative" in v)
        object.__setattr__(self, "crowns", self.crown >= 0 or "kaggas-crown" in v)
        cloud_bb = 0
        if "clouded" in v:
            for c in self.clouds:
                cloud_bb |= BIT[c]
        object.__setattr__(self, "cloud_bb", cloud_bb)
        squad = list(SQUAD)
        if self.removed:
            squad[self.removed] -= 1
        object.__setattr__(self, "squad", tuple(squad))

    @property
    def strict_safety(self) -> bool:
        """Whether a move leaving the own Goal in jeopardy is illegal (not just a warning)."""
        return self.ruleset != RULESET_LAWS


LAWS: Final = Rules()


class Move(NamedTuple):
    """One ply: a placement (origin None) or a battle move, identified as rules.md §4 says
    (a named tuple: perft and the validator make one a move, and a frozen dataclass took
    three times as long to build)."""

    origin: int | None
    dest: int
    kind: int
    carry: bool = False

    def __str__(self) -> str:
        key = KIND_KEYS[self.kind]
        if self.origin is None:
            return f"{key}→{NAME[self.dest]}"
        if self.carry:
            return f"({key})@{NAME[self.origin]} → {NAME[self.dest]}"
        return f"{key}@{NAME[self.origin]} → {NAME[self.dest]}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the moves ended the battle."""

    termination: str
    winner: int

    @property
    def winner_name(self) -> str:
        return COLOR_NAMES[self.winner]


def holes_bb(ablated: tuple[int, ...]) -> int:
    """The bitboard of the ablated squares."""
    holes = 0
    for a in ablated:
        holes |= 1 << a
    return holes
