"""What a position holds and the hooks through which the variants change its rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Self

from rules.board import (
    NAME,
    NB,
    NSQ,
    SQUARE_OF,
)
from rules.pieces import GREEN, IS_CARRIER, LAWS, NO_SQUARE, Outcome, Rules


class PositionState:
    """A position's pieces, Goals, regions, ply count and who placed first, with whose ply
    it is and the narrow hooks the variants override (rules.position.Position adds the
    moves, one topic a module)."""

    __slots__ = (
        "rules",
        "first",
        "ply",
        "sq",
        "occ",
        "kbb",
        "blk",
        "goal",
        "region",
        "outcome",
        "ablated",
        "holes",
        "crowned",
    )

    rules: Rules
    first: int
    ply: int
    sq: list[int]
    occ: list[int]
    kbb: list[list[int]]
    blk: list[int]
    goal: list[int]
    region: list[int]
    outcome: Outcome | None
    ablated: tuple[int, ...]
    holes: int
    crowned: int

    # The board's tables by square, which a variant with a board of its own (the tri-level
    # cells) replaces: names as records write them and read them back, and the zone of
    # control of a Blockader standing on each square.
    square_names: ClassVar[Sequence[str]] = NAME
    square_of: ClassVar[Mapping[str, int]] = SQUARE_OF
    _ZONE: ClassVar[Sequence[int]] = NB
    # The kinds that carry their Goal (Art. 2.8), by kind.
    _CARRIER: ClassVar[Sequence[bool]] = IS_CARRIER
    # Whose zone of control bars a move, as its reasons say.
    _ZONE_OWNER: ClassVar[str] = "the enemy Blockader's"
    # Whether a battle stopped by time is decided by a count (the Italian society's) rather
    # than by whose flag fell (Art. 6.5); see time_out_count.
    counts_at_time_out: ClassVar[bool] = False
    # Whether a path may cross an ablated triangle without ending there (13.6). The Laws: no,
    # the triangle is "unavailable" (docs/rules.md, Readings); the Italian society: yes.
    _PASS_OVER_ABLATED: ClassVar[bool] = False

    def __init__(self, rules: Rules = LAWS, first: int = GREEN) -> None:
        self.rules = rules
        self.first = first
        self.ply = 0
        self.sq = [0] * NSQ
        self.occ = [0, 0]
        self.kbb = [[0] * 8, [0] * 8]
        self.blk = [NO_SQUARE, NO_SQUARE]
        self.goal = [NO_SQUARE, NO_SQUARE]
        self.region = [NO_SQUARE, NO_SQUARE]
        self.outcome = None
        self.ablated = ()
        self.holes = 0
        self.crowned = NO_SQUARE

    def copy(self) -> Self:
        # type(self): the variants' positions are subclasses and extend copy().
        p = type(self).__new__(type(self))
        p.rules = self.rules
        p.first = self.first
        p.ply = self.ply
        p.sq = self.sq[:]
        p.occ = self.occ[:]
        p.kbb = [self.kbb[0][:], self.kbb[1][:]]
        p.blk = self.blk[:]
        p.goal = self.goal[:]
        p.region = self.region[:]
        p.outcome = self.outcome
        p.ablated = self.ablated
        p.holes = self.holes
        p.crowned = self.crowned
        return p

    # --- what a variant records beyond the moves ------------------------------------------------
    def take_annotations(self, comments: tuple[str, ...]) -> None:
        """Read what the movetext's comments after the next ply record beyond the move itself.

        The flat game records nothing there; a variant that records chance in the movetext
        (Kinta's spindle casts) overrides this and raises IllegalMoveError for a bad note.
        """

    def end_tags_problem(self, tags: dict[str, str]) -> tuple[str, str | None] | None:
        """What a record's end tags contradict beyond what the moves decide (reason, Article):
        a ruleset with its own way of ending a battle (the Italian society's time-out count)
        overrides this."""
        return None

    def time_out_count(self) -> tuple[int | None, str, str] | None:
        """How a ruleset that counts at time-out (`counts_at_time_out`) decides a battle
        stopped here: (winner, None for a tie a coin decides; what was counted; Article)."""
        return None

    def state_fields(self) -> dict[str, str]:
        """What a variant remembers beyond pieces, Goals, ablation and the Crown (Kinta's
        strengths), as position-string fields `key=text`."""
        return {}

    def read_state_field(self, key: str, text: str) -> bool:
        """Read a field written by state_fields: False for a key this position has none of,
        ValueError for a text it cannot read."""
        return False

    def report_lines(self) -> list[str]:
        """Lines a diagram prints about what the variant keeps beyond the board (Kinta's
        scorecard and last combat)."""
        return []

    def check_parsed(self) -> None:
        """Raise IllegalMoveError when a position string put pieces where this variant has
        none (the flat game takes any that fit the squads)."""

    # --- whose ply and what kind ------------------------------------------------------------
    def stage(self) -> tuple[int, str]:
        """(side to act, 'warrior' | 'goal' | 'battle') for the next ply."""
        ply = self.ply
        first = self.first
        if ply >= 20:
            return (first if ply % 2 == 0 else 1 - first), "battle"
        if ply < 18 and self.rules.alternating:
            return (first if ply % 2 == 0 else 1 - first), "warrior"
        if ply < 9:
            return first, "warrior"
        if ply < 18:
            return 1 - first, "warrior"
        if ply == 18:
            return first, "goal"
        if ply == 19:
            return 1 - first, "goal"
        return (first if ply % 2 == 0 else 1 - first), "battle"

    @property
    def turn(self) -> int:
        return self.stage()[0]

    @property
    def in_battle(self) -> bool:
        return self.ply >= 20

    def completes_setup(self) -> bool:
        """Whether the next ply completes its placer's setup, its move 1 for the clock (Art.
        6.7): the Goal's placement."""
        return self.stage()[1] == "goal"

    def piece_at(self, sq: int) -> tuple[int, int] | None:
        """(side, kind) of the warrior on a square, or None."""
        code = self.sq[sq]
        return None if code == 0 else (code >> 3, code & 7)

    def is_carrier(self, kind: int) -> bool:
        """Whether a warrior of `kind` carries its Goal (Art. 2.8)."""
        return self._CARRIER[kind]

    def holds_goal(self, side: int, sq: int) -> bool:
        """Whether the warrior of `side` on `sq` is a carrier standing on its own Goal."""
        return sq >= 0 and self._holder(side) == sq

    def zones(self) -> tuple[int, int]:
        """Each side's Blockader's zone of control (0 without a Blockader)."""
        zone = self._ZONE
        green, gold = self.blk
        return (zone[green] if green >= 0 else 0, zone[gold] if gold >= 0 else 0)

    def goals_bb(self) -> int:
        g = 0
        for s in self.goal:
            if s >= 0:
                g |= 1 << s
        return g

    # Hooks the variants' positions override; the flat game's answers are the plain ones.
    def _colour(self, side: int) -> int:
        """The colour of the pieces `side` places and moves: its own."""
        return side

    def _holder(self, side: int) -> int:
        """The square of the warrior holding `side`'s Goal (and so able to carry it), or -1."""
        g = self.goal[side]
        if g >= 0:
            code = self.sq[g]
            if code and code >> 3 == side and self._CARRIER[code & 7]:
                return g
        return NO_SQUARE

    def _movable(self, side: int) -> int:
        """The squares of `side`'s warriors that may move."""
        return self.occ[side]

    def _blockader_zone_bars(self, side: int, carrying: bool = False) -> int:
        """What `side`'s Blockader may not end its move with in its zone (Art. 3.11.4): enemy
        warriors and Goals, but not a Goal it carries along."""
        bars = self.occ[1 - side] | self.goals_bb()
        if carrying and self.goal[side] >= 0:
            bars &= ~(1 << self.goal[side])
        return bars

    def _carry_dests(self, o: int, kind: int, side: int, dests: int) -> int:
        """Where the holder on `o` may take its Goal, given its destinations without it."""
        return dests & ~self._goal_forbidden()

    def _goal_to_capture(self, side: int) -> int:
        """The square of the Goal `side` wins by moving onto (Art. 5.1.1), or -1."""
        return self.goal[1 - side]

    def _goal_forbidden(self) -> int:
        """Squares a Goal may not end on: every zone of control, and clouds (Art. 13.4)."""
        return self._all_zoc() | self.rules.cloud_bb

    def _all_zoc(self) -> int:
        green, gold = self.zones()
        return green | gold
