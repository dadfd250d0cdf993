"""Positions of a battle, move generation, legality with reasons, goal safety, deadlock, perft."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Final, NamedTuple

from rules.board import (
    BIT,
    BOARD,
    BORDER_BB,
    CORNER,
    FLY,
    FORWARD_REGION_BB,
    NAME,
    NB,
    NSQ,
    RAYS,
    REGION,
    REGION_BB,
    SQUARE_OF,
    SQUARES,
    iter_bits,
    neighbours_bb,
)
from rules.errors import IllegalMoveError

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
for _s in SQUARES:
    LANCER_RAYS[_s] = _lancer_rays(_s)

# NEAR4[s]: squares within four steps of s, the farthest any walking warrior can strike from.
NEAR4: list[int] = [0] * NSQ
for _s in SQUARES:
    _near = BIT[_s]
    for _ in range(4):
        _near |= neighbours_bb(_near)
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


class Position:
    """A position: pieces, Goals, regions, the ply count and who placed first.

    Positions are treated as values: `apply` returns a new position. The variants' positions
    are subclasses that override the narrow hooks below (the `_`-methods each of which does
    one step of generating, checking, playing or judging a move) rather than whole methods.
    """

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

    # Whether goal safety is the flat game's (_jeopardy, is_battle_move_safe) or a variant's
    # that keeps _attack_map in step with its _jeopardy, so that _safe_battle_dests may judge
    # a warrior's moves together from one attack map.
    _plain_safety: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "_plain_safety" in cls.__dict__:
            return  # a variant that maps its own safety says so
        cls._plain_safety = (
            cls._jeopardy is Position._jeopardy
            and cls.is_battle_move_safe is Position.is_battle_move_safe
            and cls._ZONE is NB
        )

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

    def copy(self) -> Position:
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

    # --- raw reach ----------------------------------------------------------------------------
    def _reach(self, o: int, kind: int, passable: int) -> int:
        """Squares a warrior of `kind` on `o` reaches by a path of its length, before the
        destination rules; every intermediate square must be in `passable`."""
        if kind == VANGUARD:
            if self.rules.power_vanguards:
                return (NB[o] | neighbours_bb(NB[o] & passable)) & ~BIT[o]
            return NB[o]
        if kind == FLIER:
            return FLY[o]
        if kind == LANCER:
            reach = 0
            for ray in LANCER_RAYS[o]:
                for b in ray:
                    reach |= b
                    if not b & passable:
                        break
            return reach
        w1 = NB[o]
        if kind == BLOCKADER:
            return (w1 | neighbours_bb(w1 & passable)) & ~BIT[o]
        w2 = neighbours_bb(w1 & passable)
        w3 = neighbours_bb(w2 & passable)
        if kind == FENCER:
            return (w1 | w2 | w3) & ~BIT[o]
        # Swift: the board's smallest cycle has six triangles, so walks of two to four steps
        # reach exactly the path destinations, except the origin and its neighbours.
        w4 = neighbours_bb(w3 & passable)
        return (w2 | w3 | w4) & ~w1 & ~BIT[o]

    def _dests(self, o: int, kind: int, side: int, carrying: bool = False) -> int:
        """Legal destinations (rules.md §3-4) of the warrior on `o`; `carrying` matters only
        to a Blockader that carries its Goal (Kinta)."""
        enemy = 1 - side
        own = self.occ[side]
        opp = self.occ[enemy]
        eb = self.blk[enemy]
        ezoc = NB[eb] if eb >= 0 else 0
        holes = self.holes
        over = 0 if self._PASS_OVER_ABLATED else holes
        d = self._reach(o, kind, BOARD & ~(own | opp | ezoc | over)) & ~(own | ezoc | holes)
        if eb >= 0:
            d &= ~BIT[eb]
        clouds = self.rules.cloud_bb
        if clouds:
            d &= ~(clouds & opp)
        if kind == BLOCKADER:
            return self._blockader_dests(side, d, carrying)
        return d

    def _blockader_dests(self, side: int, reach: int, carrying: bool) -> int:
        """Art. 3.8, 3.11.4: the squares of `reach` (free of the enemy zone) where `side`'s
        Blockader may end: no kill, not on its own Goal unless it carries it, and its zone
        clear of what bars it and of the enemy zone."""
        enemy = 1 - side
        d = reach & ~self.occ[enemy]
        g = self.goal[side]
        if g >= 0 and not self._CARRIER[BLOCKADER]:
            d &= ~(1 << g)
        bars = self._blockader_zone_bars(side, carrying)
        eb = self.blk[enemy]
        if eb >= 0:
            bars |= self._ZONE[eb]
        return self._zones_clear(d, bars)

    def _zones_clear(self, squares: int, bars: int) -> int:
        """Those of `squares` where a Blockader's zone would hold none of `bars`."""
        zone = self._ZONE
        ok = 0
        for t in iter_bits(squares):
            if not zone[t] & bars:
                ok |= 1 << t
        return ok

    def _goal_forbidden(self) -> int:
        """Squares a Goal may not end on: every zone of control, and clouds (Art. 13.4)."""
        return self._all_zoc() | self.rules.cloud_bb

    def _all_zoc(self) -> int:
        green, gold = self.zones()
        return green | gold

    # --- generation ---------------------------------------------------------------------------
    def _battle_dests(self, side: int) -> Iterator[tuple[int, int, int, int]]:
        """(origin, kind, destinations, destinations carrying the Goal) of each of `side`'s
        warriors that may move, one warrior at a time (the deadlock test stops early)."""
        holder = self._holder(side)
        sqs = self.sq
        for o in iter_bits(self._movable(side)):
            kind = sqs[o] & 7
            d = self._dests(o, kind, side)
            yield o, kind, d, (self._carry_dests(o, kind, side, d) if o == holder else 0)

    def generate_legal_moves(self) -> list[Move]:
        """Every move rules.md §3-4 allows, safe or not (empty once the battle is over)."""
        if self.outcome is not None:
            return []
        side, what = self.stage()
        if what == "warrior":
            return [
                Move(None, t, kind)
                for kind in self._kinds_to_place(side)
                for t in iter_bits(self._placement_moves_bb(side, kind))
            ]
        if what == "goal":
            return [Move(None, s, GOAL) for s in iter_bits(self._goal_squares(side))]
        moves: list[Move] = []
        append = moves.append
        for o, kind, d, carry in self._battle_dests(side):
            for t in iter_bits(d):
                append(Move(o, t, kind))
            if carry:
                for t in iter_bits(carry):
                    append(Move(o, t, kind, True))
        return moves

    def _kinds_to_place(self, side: int) -> list[int]:
        """The kinds of which `side` still has warriors to place."""
        placed = self.kbb[self._colour(side)]
        squad = self.rules.squad
        return [k for k in WARRIOR_KINDS if placed[k].bit_count() < squad[k]]

    def _placement_squares(self, side: int) -> int:
        """Empty squares where `side` may place a warrior: inside a region that holds all its
        placed warriors and leaves the enemy a different region holding all of theirs."""
        table = FORWARD_REGION_BB if self.rules.forward else REGION_BB
        mine = self.occ[side]
        theirs = self.occ[1 - side]
        # Bit r set: the squad's warriors all stand in region r (a loop, not a generator per
        # region: every placement of a record asks).
        fits_mine = fits_theirs = 0
        for r in (0, 1, 2):
            region = table[r]
            if not mine & ~region:
                fits_mine |= 1 << r
            if not theirs & ~region:
                fits_theirs |= 1 << r
        allowed = 0
        for r in (0, 1, 2):
            if fits_mine >> r & 1 and fits_theirs & ~(1 << r):
                allowed |= table[r]
        return allowed & ~(mine | theirs)

    def _region_of_squad(self, side: int) -> int:
        """The one region holding all of a squad's warriors, or NO_SQUARE while undecided."""
        table = FORWARD_REGION_BB if self.rules.forward else REGION_BB
        mine = self.occ[side]
        fits = [r for r in range(3) if mine and not mine & ~table[r]]
        return fits[0] if len(fits) == 1 else NO_SQUARE

    def _honourable(self, side: int, kind: int, t: int) -> bool:
        """Art. 13.8: after placing, no warrior stands in a zone of control, and an enemy
        Fencer could reach each of `side`'s warriors without crossing its Blockader's zone."""
        blk = self.blk[:]
        if kind == BLOCKADER:
            blk[side] = t
        zones = 0
        for b in blk:
            if b >= 0:
                zones |= NB[b]
        warriors = (self.occ[0] | self.occ[1] | BIT[t]) & ~(
            (BIT[blk[0]] if blk[0] >= 0 else 0) | (BIT[blk[1]] if blk[1] >= 0 else 0)
        )
        if warriors & zones:
            return False
        own_zone = NB[blk[side]] if blk[side] >= 0 else 0
        open_sq = BOARD & ~own_zone
        reach = BORDER_BB & open_sq
        while True:
            grown = (reach | neighbours_bb(reach)) & open_sq
            if grown == reach:
                break
            reach = grown
        mine = (self.occ[side] | BIT[t]) & ~(BIT[blk[side]] if blk[side] >= 0 else 0)
        return not mine & ~reach

    def _placement_moves_bb(self, side: int, kind: int) -> int:
        allowed = self._placement_squares(side)
        if self.rules.honor:
            ok = 0
            for t in iter_bits(allowed):
                if self._honourable(side, kind, t):
                    ok |= BIT[t]
            return ok
        return allowed

    def _placement_by_kind(self) -> bool:
        """Whether where a warrior may be placed depends on its kind (honourable placement,
        13.8), or every kind has the same squares."""
        return self.rules.honor

    def _goal_squares(self, side: int) -> int:
        """Where `side` may place its Goal: on one of its carriers, outside every zone."""
        kb = self.kbb[side]
        carriers = 0
        for kind in WARRIOR_KINDS:
            if self._CARRIER[kind]:
                carriers |= kb[kind]
        return carriers & ~self._goal_forbidden()

    def generate_moves(self) -> list[Move]:
        """The moves accepted in this position: all legal ones under `laws` unless the side to
        move is deadlocked, only the safe ones under a strict ruleset."""
        if self.rules.strict_safety and self.outcome is None and self.stage()[1] == "battle":
            moves: list[Move] = []
            append = moves.append
            for o, kind, d, carry in self._safe_battle_dests(self.stage()[0]):
                for t in iter_bits(d):
                    append(Move(o, t, kind))
                for t in iter_bits(carry):
                    append(Move(o, t, kind, True))
            return moves
        moves = self.generate_legal_moves()
        if not moves:
            return moves
        if self.rules.strict_safety:
            return [m for m in moves if self.is_safe(m)]
        if self._needs_safety_check():
            for m in moves:
                if self.is_safe(m):
                    return moves
            return []
        return moves

    def _needs_safety_check(self) -> bool:
        side, what = self.stage()
        return what == "battle" or (what == "goal" and side != self.first)

    # --- applying -----------------------------------------------------------------------------
    def apply(self, move: Move) -> Position:
        """The position after `move`, which must be legal (see `check_move`)."""
        p = self.copy()
        p.push(move)
        return p

    def push(self, move: Move) -> None:
        """Play a legal `move` on this position itself."""
        side = self.stage()[0]
        if move.origin is not None:
            self.push_battle_move(side, move)
            return
        colour = self._colour(side)
        if move.kind == GOAL:
            self.goal[colour] = move.dest
        else:
            self._put(colour, move.kind, move.dest)
            if self.region[colour] < 0:
                self.region[colour] = self._region_of_squad(colour)
        self.ply += 1

    def push_battle_move(self, side: int, move: Move) -> None:
        """push for a legal battle move by `side`, whose turn it is: the warrior moves,
        killing what stands on its destination, then the Goals settle and the variants
        have their say."""
        o = move.origin
        assert o is not None
        t = move.dest
        sq = self.sq
        if sq[t]:
            self._remove(t)
        code = sq[o]
        colour = code >> 3
        kind = code & 7
        both = (1 << o) | (1 << t)
        sq[o] = 0
        sq[t] = code
        self.occ[colour] ^= both
        self.kbb[colour][kind] ^= both
        if kind == BLOCKADER:
            self.blk[colour] = t
        self._settle_goals(side, move)
        rules = self.rules
        if rules.ablative or rules.crowns:
            self._end_battle_move(side, move)
        else:
            # Most battles play no variant that marks a move: the ply is simply over.
            self.ply += 1

    def _put(self, colour: int, kind: int, sq: int) -> None:
        """Stand a warrior of `colour` and `kind` on the empty `sq`."""
        b = 1 << sq
        self.sq[sq] = colour * 8 + kind
        self.occ[colour] |= b
        self.kbb[colour][kind] |= b
        if kind == BLOCKADER:
            self.blk[colour] = sq

    def _remove(self, sq: int) -> None:
        """Take the warrior on `sq` off the board (a killed Blockader takes its zone along)."""
        code = self.sq[sq]
        colour = code >> 3
        kind = code & 7
        keep = ~(1 << sq)
        self.sq[sq] = 0
        self.occ[colour] &= keep
        self.kbb[colour][kind] &= keep
        if kind == BLOCKADER:
            self.blk[colour] = NO_SQUARE

    def _settle_goals(self, side: int, move: Move) -> None:
        """The Goals once the warrior has moved: a carried one goes along, the enemy's on
        the destination is captured."""
        if move.carry:
            self.goal[side] = move.dest
        if self.goal[1 - side] == move.dest:
            self._capture(side)

    def _capture(self, side: int) -> None:
        """`side` captures the enemy Goal and wins (Art. 5.1.1)."""
        self.goal[1 - side] = CAPTURED
        self.outcome = Outcome("capture", side)

    def _end_battle_move(self, side: int, move: Move) -> None:
        """What the variants do once a warrior has moved, ablation (13.6) and Kagga's Crown
        (13.3); then the ply is over."""
        rules = self.rules
        if rules.ablative:
            o = move.origin
            assert o is not None
            self.ablated = self._ablated_after(o, o in self.goal)
            self.holes = _holes(self.ablated)
        if rules.crowns:
            self._crown_after(side, move)
        self.ply += 1

    def _crown_after(self, side: int, move: Move) -> None:
        """Art. 13.3: a Goal carried onto the designated apex wins unless captured at once."""
        crown = self.rules.crown
        if crown < 0:
            empty = {0, 1, 2} - set(self.region)
            crown = CORNER[empty.pop()] if len(empty) == 1 else NO_SQUARE
        if crown < 0 or self.outcome is not None:
            return
        enemy = 1 - side
        if self.crowned == enemy:
            self.outcome = Outcome("crown", enemy)
        elif move.carry and move.dest == crown:
            self.crowned = side

    def _ablated_after(self, o: int, goal_left: bool) -> tuple[int, ...]:
        """Art. 13.6: the ablated squares after a warrior leaves `o` (`goal_left`: leaving
        a Goal lying there)."""
        if goal_left:
            # A marker cannot sit under a Goal left lying, so that triangle stays open.
            return self.ablated
        ablated = self.ablated + (o,)
        limit = self.rules.ablation_limit
        if limit and len(ablated) > limit:
            ablated = ablated[len(ablated) - limit :]
        return ablated

    # --- safety -------------------------------------------------------------------------------
    def is_in_jeopardy(self, side: int) -> bool:
        """Whether the other side, were it to move now, could capture `side`'s Goal."""
        g = self.goal[side]
        if g < 0:
            return False
        return self._jeopardy(
            side,
            g,
            self.occ[side],
            self.occ[1 - side],
            -1,
            self.blk[side],
            self.sq[g] != 0,
            self.holes,
        )

    def _jeopardy(
        self, side: int, g: int, own: int, foes: int, keep: int, dblk: int, held: bool, holes: int
    ) -> bool:
        """Whether the attacker (not `side`) can capture a Goal on `g` when the defender's
        warriors stand on `own`, the attacker's on `foes` and the defender's Blockader on
        `dblk`, with `holes` ablated. `keep` masks the attacker's warriors that may strike (a
        killed one is left out); `held` tells whether a defender's warrior holds the Goal."""
        a = 1 - side
        kb = self.kbb[a]
        dzoc = NB[dblk] if dblk >= 0 else 0
        if BIT[g] & dzoc:
            return False
        fliers = kb[FLIER] & keep
        if fliers & FLY[g]:
            return True
        if not foes & keep & ~fliers & NEAR4[g]:
            # Nothing but Fliers within reach, and none of them lands on the Goal.
            return False
        passable = BOARD & ~(own | foes | dzoc | holes)
        r1 = NB[g]
        vang = kb[VANGUARD] & keep
        if vang:
            if self.rules.power_vanguards:
                if vang & (r1 | neighbours_bb(r1 & passable)):
                    return True
            elif vang & r1:
                return True
        lancer = kb[LANCER] & keep
        if lancer:
            for ray in LANCER_RAYS[g]:
                for b in ray:
                    if b & lancer:
                        return True
                    if not b & passable:
                        break
        fencer = kb[FENCER] & keep
        swift = kb[SWIFT] & keep
        blk = kb[BLOCKADER] & keep
        if not (fencer | swift | blk):
            return False
        if fencer & r1:
            return True
        r2 = neighbours_bb(r1 & passable)
        if blk & (r1 | r2) and not held:
            ag = self._goal_bar(a)
            bad = own | (BIT[ag] if ag >= 0 else 0) | dzoc
            if not r1 & bad:
                return True
        if not (fencer | swift):
            return False
        r3 = neighbours_bb(r2 & passable)
        if fencer & (r2 | r3):
            return True
        if swift:
            r4 = neighbours_bb(r3 & passable)
            if swift & (r2 | r3 | r4) & ~r1:
                return True
        return False

    def _maps_hold(self, side: int) -> bool:
        """Whether _safe_battle_dests may judge `side`'s moves from attack maps here (a
        variant says no where a kill could open more than it closes)."""
        return True

    def _goal_bar(self, a: int) -> int:
        """The square of `a`'s own Goal when it bars `a`'s Blockader from ending with it in its
        zone (Art. 3.11.4), else -1: always, in the flat game."""
        return self.goal[a]

    def _attack_map(
        self, side: int, g: int, own: int, foes: int, dblk: int, held: bool
    ) -> tuple[int, int]:
        """_jeopardy's answer as a map, without ablation: (the attacker's warriors that can
        capture a Goal on `g`, the squares whose contents that answer was read from).

        A defender's move that neither leaves nor enters one of those squares (nor moves
        the Goal, its holder or the Blockader) leaves the paths to `g` as they were: it is
        unsafe exactly when an attacker it does not kill is left. So one map serves every
        such move, and only the moves into the squares read need _jeopardy itself.
        """
        a = 1 - side
        kb = self.kbb[a]
        dzoc = NB[dblk] if dblk >= 0 else 0
        if BIT[g] & dzoc:
            return 0, 0
        att = kb[FLIER] & FLY[g]
        read = 0
        passable = BOARD & ~(own | foes | dzoc)
        r1 = NB[g]
        vang = kb[VANGUARD]
        if vang:
            if self.rules.power_vanguards:
                read |= r1
                att |= vang & (r1 | neighbours_bb(r1 & passable))
            else:
                att |= vang & r1
        lancer = kb[LANCER]
        if lancer:
            for ray in LANCER_RAYS[g]:
                for b in ray:
                    read |= b
                    if b & lancer:
                        att |= b
                        break
                    if not b & passable:
                        break
        fencer = kb[FENCER]
        swift = kb[SWIFT]
        blk = kb[BLOCKADER]
        if not (fencer | swift | blk):
            return att, read
        read |= r1
        att |= fencer & r1
        r2 = neighbours_bb(r1 & passable)
        if blk & (r1 | r2) and not held:
            ag = self._goal_bar(a)
            if not r1 & (own | (BIT[ag] if ag >= 0 else 0) | dzoc):
                att |= blk & (r1 | r2)
        if not (fencer | swift):
            return att, read
        read |= r2
        r3 = neighbours_bb(r2 & passable)
        att |= fencer & (r2 | r3)
        if swift:
            read |= r3
            att |= swift & (r2 | r3 | neighbours_bb(r3 & passable)) & ~r1
        return att, read

    def is_battle_move_safe(self, side: int, o: int, t: int, kind: int, carry: bool) -> bool:
        """is_safe for a legal battle move, without building the next position."""
        enemy = 1 - side
        if self.goal[enemy] == t:
            return True
        g = self.goal[side]
        if g < 0:
            return True
        tb = 1 << t
        if carry:
            g = t
            held = True
        elif g == o:
            held = False
        elif g == t:
            held = True
        else:
            held = self.sq[g] != 0
        return not self._jeopardy(
            side,
            g,
            (self.occ[side] & ~(1 << o)) | tb,
            self.occ[enemy] & ~tb,
            ~tb,
            t if kind == BLOCKADER else self.blk[side],
            held,
            _holes(self._ablated_after(o, g == o)) if self.rules.ablative else 0,
        )

    def _after(self, side: int, move: Move) -> Position:
        """The position after a legal battle move by `side`."""
        p = self.copy()
        p.push_battle_move(side, move)
        return p

    def _safe_by_playing(self, side: int, move: Move) -> bool:
        """is_battle_move_safe judged on the position after the move: for the variants whose
        threats the flat game's shortcut cannot see (combats, trapped warriors, one Goal)."""
        if move.dest == self._goal_to_capture(side):
            return True
        return not self._after(side, move).is_in_jeopardy(side)

    def _safe_in_place(self, side: int, o: int, t: int, kind: int, carry: bool) -> bool:
        """_safe_by_playing for a variant whose jeopardy test reads nothing but the warriors,
        the Blockaders and the Goals (no ablation): the move is made on this position and
        taken back, instead of played on a copy."""
        enemy = 1 - side
        if t == self.goal[enemy]:
            return True
        sq, occ, blk, goal = self.sq, self.occ, self.blk, self.goal
        own_kinds, foe_kinds = self.kbb[side], self.kbb[enemy]
        code, victim = sq[o], sq[t]
        if victim & 7 == BLOCKADER:
            return self._safe_by_playing(side, Move(o, t, kind, carry))  # its zone goes too
        both = (1 << o) | (1 << t)
        saved_blk, saved_goal = blk[side], goal[side]
        sq[o] = 0
        sq[t] = code
        occ[side] ^= both
        own_kinds[kind] ^= both
        if victim:
            occ[enemy] ^= 1 << t
            foe_kinds[victim & 7] ^= 1 << t
        if kind == BLOCKADER:
            blk[side] = t
        if carry:
            goal[side] = t
        try:
            return not self.is_in_jeopardy(side)
        finally:
            sq[o] = code
            sq[t] = victim
            occ[side] ^= both
            own_kinds[kind] ^= both
            if victim:
                occ[enemy] ^= 1 << t
                foe_kinds[victim & 7] ^= 1 << t
            blk[side] = saved_blk
            goal[side] = saved_goal

    def is_safe(self, move: Move) -> bool:
        """Whether a legal move captures the enemy Goal or leaves the own Goal out of jeopardy."""
        side, what = self.stage()
        if what == "warrior" or (what == "goal" and side == self.first):
            return True
        if move.origin is not None:
            return self.is_battle_move_safe(side, move.origin, move.dest, move.kind, move.carry)
        after = self.apply(move)
        if after.outcome is not None:
            return True
        return not after.is_in_jeopardy(side)

    def has_safe_move(self) -> bool:
        """Whether the side to act has a safe move (no deadlock)."""
        if self.outcome is not None:
            return False
        side, what = self.stage()
        if what != "battle":
            if not self._needs_safety_check():
                return self.count_legal_moves() > 0
            return any(self.is_safe(m) for m in self.generate_legal_moves())
        return self._any_safe(side, self._battle_dests(side))

    def _any_safe(self, side: int, dests: Iterable[tuple[int, int, int, int]]) -> bool:
        """Whether one of the battle moves `dests` (as _battle_dests gives them) is safe."""
        if self._plain_safety and not self.rules.ablative:
            # First the moves the maps judge at once, warrior by warrior (most often the first
            # has one), then (none safe) the others one by one, carrying the Goal away first.
            taken: list[tuple[int, int, int, int]] = []
            pending = iter(dests)

            def take() -> Iterator[tuple[int, int, int, int]]:
                yield from taken
                for item in pending:
                    taken.append(item)
                    yield item

            safe = self.is_battle_move_safe
            g = self.goal[side]
            if g >= 0 and self._maps_hold(side):
                own = self.occ[side]
                att, read = self._attack_map(
                    side, g, own, self.occ[1 - side], self.blk[side], self.sq[g] != 0
                )
                if not att:
                    # Nothing reaches the Goal: a warrior whose origin no path to it crosses
                    # may go anywhere it can.
                    for o, kind, d, _carry in take():
                        if d and kind != BLOCKADER and o != g and not (1 << o) & read:
                            return True
                else:
                    # The Goal in jeopardy: killing its one attacker or carrying it away
                    # saves it most often, and costs no map of a warrior's own. A kill by a
                    # warrior off the squares the map read is safe by the map (as
                    # _safe_battle_dests judges it); other kills are tested one by one.
                    if not att & (att - 1):
                        a = att.bit_length() - 1
                        for o, kind, d, _carry in take():
                            if d & att and (
                                (kind != BLOCKADER and o != g and not (1 << o) & read)
                                or safe(side, o, a, kind, False)
                            ):
                                return True
                    for o, kind, _d, carry in take():
                        for t in iter_bits(carry):
                            if safe(side, o, t, kind, True):
                                return True
                    return self._blocks_attack(side, take(), att, read)
            rest = []
            for o, kind, ok, slow in self._safe_battle_dests(side, take(), exact=False):
                if ok:
                    return True
                rest.append((o, kind, slow))
            for o, kind, _d, carry in taken:
                for t in iter_bits(carry):
                    if safe(side, o, t, kind, True):
                        return True
            return any(
                safe(side, o, t, kind, False) for o, kind, slow in rest for t in iter_bits(slow)
            )
        safe = self.is_battle_move_safe
        g = self._goal_to_capture(side)
        target = 1 << g if g >= 0 else 0
        for o, kind, d, carry in dests:
            if d & target:
                return True  # capturing the Goal is always safe
            # Carrying the Goal away is the likeliest way out of jeopardy: try that first.
            for t in iter_bits(carry):
                if safe(side, o, t, kind, True):
                    return True
            for t in iter_bits(d):
                if safe(side, o, t, kind, False):
                    return True
        return False

    def _blocks_attack(
        self, side: int, dests: Iterable[tuple[int, int, int, int]], att: int, read: int
    ) -> bool:
        """_any_safe's last resort with the Goal in jeopardy by `att` (the map's attackers,
        `read` the squares it read), its kills of a lone attacker and its carries already
        tried: a capture, or a move found safe among those that may close the paths.

        Leaving a square only opens paths, so once a warrior has moved each attacker it
        does not kill still has the paths the map found; a move that saves the Goal ends on
        one of them (or onto the Goal, to hold it), unless it is the Blockader's, whose zone
        moves. Judging those alone spares a map a warrior.
        """
        safe = self.is_battle_move_safe
        eg = self._goal_to_capture(side)
        capture = 1 << eg if eg >= 0 else 0
        g = self.goal[side]
        # A lone attacker's kills were tried; with more, no kill alone saves the Goal.
        closing = (read | (1 << g)) & ~att if not att & (att - 1) else read | (1 << g)
        for o, kind, d, _carry in dests:
            if d & capture:
                return True
            for t in iter_bits(d if kind == BLOCKADER else d & closing):
                if safe(side, o, t, kind, False):
                    return True
        return False

    def _safe_battle_dests(
        self,
        side: int,
        dests: Iterable[tuple[int, int, int, int]] | None = None,
        exact: bool = True,
    ) -> Iterator[tuple[int, int, int, int]]:
        """_battle_dests (or `dests`, as it gives them) keeping only the safe moves: (origin,
        kind, safe destinations, safe destinations carrying the Goal), in the same order.

        Under the flat game's safety, one attack map (_attack_map) judges most of a
        warrior's moves at once: once it has left its origin, a warrior entering a triangle
        only closes paths (or kills an attacker), so with no attacker left every such move
        is safe, and with some left only a move into a triangle the map read, or onto the
        one attacker, may be. A carried Goal is judged move by move, and so is a Blockader
        (its zone moves), unless no attacker reaches the Goal even without the Blockader.
        Not `exact`: (origin, kind, the destinations found safe at once, those still to
        judge one by one), carrying aside.
        """
        safe = self.is_battle_move_safe
        g = self.goal[side]
        quick = g >= 0 and self._plain_safety and not self.rules.ablative and self._maps_hold(side)
        own = self.occ[side]
        foes = self.occ[1 - side]
        dblk = self.blk[side]
        held = g >= 0 and self.sq[g] != 0
        eg = self._goal_to_capture(side)
        capture = 1 << eg if eg >= 0 else 0
        gb = 1 << g if g >= 0 else 0
        att0 = read0 = 0
        if quick:
            att0, read0 = self._attack_map(side, g, own, foes, dblk, held)
        for o, kind, d, carry in self._battle_dests(side) if dests is None else dests:
            ok = 0
            if quick and kind != BLOCKADER:
                ob = 1 << o
                att, read = att0, read0
                if o == g:
                    # Leaving the Goal lying: it is held no more.
                    att, read = self._attack_map(side, g, own & ~ob, foes, dblk, False)
                elif ob & read0:
                    att, read = self._attack_map(side, g, own & ~ob, foes, dblk, held)
                if not att:
                    ok = d
                    slow = 0
                else:
                    read |= gb
                    if not att & (att - 1):
                        # Killing the one attacker saves the Goal (the move closes, at most,
                        # other paths); elsewhere outside what the map read, nothing does.
                        ok = d & att
                    ok |= d & capture
                    slow = d & read & ~ok
            elif (
                quick
                and o != g
                and not self._attack_map(side, g, own & ~(1 << o), foes, -1, held)[0]
            ):
                # Nothing reaches the Goal even with no Blockader at all: its zone, wherever
                # it goes, only closes more paths.
                ok = d
                slow = 0
            else:
                slow = d
            if not exact:
                yield o, kind, ok, slow
                continue
            if slow:
                for t in iter_bits(slow):
                    if safe(side, o, t, kind, False):
                        ok |= 1 << t
            ok_carry = 0
            if carry:
                for t in iter_bits(carry):
                    if safe(side, o, t, kind, True):
                        ok_carry |= 1 << t
            yield o, kind, ok, ok_carry

    def is_deadlock(self) -> bool:
        """Whether the side to act has no safe move, and so has lost (Art. 1.2, 5.1.2)."""
        return self.outcome is None and not self.has_safe_move()

    def final_outcome(self) -> Outcome | None:
        """What the moves decide here: a capture, a deadlock, or nothing (None)."""
        if self.outcome is not None:
            return self.outcome
        if self.is_deadlock():
            return Outcome("deadlock", 1 - self.turn)
        return None

    # --- checking a proposed move ------------------------------------------------------------
    def check_move(self, move: Move) -> None:
        """Raise IllegalMoveError naming the rule and Article a move breaks (safety aside)."""
        if self.outcome is not None:
            raise IllegalMoveError.coded("ply_after_end", "5.1")
        side, what = self.stage()
        if move.origin is None:
            self._check_placement(move, side, what)
            return
        if what != "battle":
            raise IllegalMoveError.coded("moves_before_setup", "2.7" if what == "goal" else "2.5")
        self.check_battle_move(side, move)

    def check_battle_move(self, side: int, move: Move) -> None:
        """check_move for a battle move by `side`, whose turn it is, step by step."""
        kind = self._check_mover(side, move)
        friends, foes, foe_blockader = self._sides(side, kind)
        zone = self._ZONE[foe_blockader] if foe_blockader >= 0 else 0
        self._check_destination(move, kind, friends, foes, foe_blockader, zone)
        self._check_path(side, move, kind, zone)
        if kind == BLOCKADER:
            self._check_blockader_move(side, move, foes, zone)
        if move.carry:
            self._check_carried_goal(move, kind, zone)

    def _check_mover(self, side: int, move: Move) -> int:
        """The kind of the warrior `move` takes, which must be `side`'s, of the kind written,
        and holding its Goal if it carries one (Art. 3.1, 2.8, 3.11.1, Appendix C)."""
        o = move.origin
        assert o is not None
        code = self.sq[o]
        if not code or code >> 3 != side:
            name = self.square_names[o]
            raise IllegalMoveError.coded("no_warrior_on", "3.1", square=name)
        kind = code & 7
        if move.kind != kind:
            raise IllegalMoveError.coded(
                "wrong_kind",
                "Appendix C",
                square=self.square_names[o],
                kind=KIND_NAMES[kind],
                claimed=KIND_NAMES[move.kind],
            )
        if move.carry and self._holder(side) != o:
            name = KIND_NAMES[kind]
            if not self._CARRIER[kind]:
                raise IllegalMoveError.coded("cannot_carry", "2.8", kind=name)
            raise IllegalMoveError.coded(
                "holds_no_goal", "3.11.1", kind=name, square=self.square_names[o]
            )
        return kind

    def _sides(self, side: int, kind: int) -> tuple[int, int, int]:
        """(the mover's fellow warriors, the warriors it may kill, the Blockader whose zone
        bars it) for a warrior of `kind` moved by `side`."""
        enemy = 1 - side
        return self.occ[side], self.occ[enemy], self.blk[enemy]

    def _check_destination(
        self, move: Move, kind: int, friends: int, foes: int, foe_blockader: int, zone: int
    ) -> None:
        """What the destination itself may not be (Art. 3.3, 3.5, 3.7, 13.4, 13.6)."""
        t = move.dest
        tb = 1 << t
        if t == move.origin:
            raise IllegalMoveError.coded("must_leave", "3.7")
        if friends & tb:
            raise IllegalMoveError.coded("destination_friend", "3.3")
        if t == foe_blockader:
            self._check_attack_on_blockader(kind)
        if zone & tb:
            raise IllegalMoveError.coded("destination_in_zone", "3.5", owner=self._ZONE_OWNER)
        if self.holes & tb:
            raise IllegalMoveError.coded("ablated", "13.6", square=self.square_names[t])
        if self.rules.cloud_bb & tb & foes:
            raise IllegalMoveError.coded("cloud_kill", "13.4")

    def _check_attack_on_blockader(self, kind: int) -> None:
        """Whether a warrior of `kind` may move onto the enemy Blockader: never (3.11.4)."""
        raise IllegalMoveError.coded("blockader_unkillable", "3.11.4")

    def _check_path(self, side: int, move: Move, kind: int, zone: int) -> None:
        """The warrior must reach the destination by a path of its kind whose triangles
        before the destination are empty and outside `zone` (Art. 3.5, 3.11)."""
        o, t = move.origin, move.dest
        assert o is not None
        tb = 1 << t
        open_board = BOARD & ~self.holes
        if self._reach(o, kind, open_board & ~(self.occ[0] | self.occ[1] | zone)) & tb:
            return
        name = KIND_NAMES[kind]
        if not self._reach(o, kind, open_board) & tb:
            raise IllegalMoveError.coded(
                "cannot_move", MOVE_ARTICLE[kind], kind=name, origin=NAME[o], dest=NAME[t]
            )
        if self._reach(o, kind, open_board & ~zone) & tb:
            raise IllegalMoveError.coded(
                "path_blocked", MOVE_ARTICLE[kind], kind=name, dest=NAME[t]
            )
        raise IllegalMoveError.coded(
            "path_crosses_zone", "3.5", kind=name, dest=NAME[t], owner=self._ZONE_OWNER
        )

    def _check_blockader_move(self, side: int, move: Move, foes: int, zone: int) -> None:
        """Art. 3.8, 3.11.4: a Blockader kills nothing, ends off its own Goal (unless it
        carries it), and its zone may then hold no enemy warrior and no Goal and may not
        overlap the enemy's `zone`."""
        o, t = move.origin, move.dest
        assert o is not None
        if foes & (1 << t):
            raise IllegalMoveError.coded("blockader_kills_nothing", "3.11.4")
        if self.goal[side] == t and not self._CARRIER[BLOCKADER]:
            raise IllegalMoveError.coded("blockader_on_own_goal", "3.11.4")
        goals = self.goals_bb()
        if move.carry:
            # The Goal it carries comes along, out of its zone.
            goals &= ~(1 << o)
        z = self._ZONE[t]
        if z & foes:
            raise IllegalMoveError.coded("blockader_enemy_in_zone", "3.11.4")
        if z & goals:
            raise IllegalMoveError.coded("blockader_goal_in_zone", "3.11.4")
        if z & zone:
            raise IllegalMoveError.coded("zones_overlap", "3.8")

    def _check_carried_goal(self, move: Move, kind: int, zone: int) -> None:
        """Art. 3.6, 13.4: a carried Goal may not end in a zone of control or a cloud."""
        tb = 1 << move.dest
        # A carrying Blockader (Kinta) takes its own zone along: only the enemy's counts.
        if tb & (zone if kind == BLOCKADER else self._all_zoc()):
            raise IllegalMoveError.coded("carried_goal_in_zone", "3.6")
        if tb & self.rules.cloud_bb:
            raise IllegalMoveError.coded("goal_into_cloud", "13.4")

    def _check_room(self, colour: int, kind: int, t: int) -> None:
        """Art. 2.11, 3.3: a warrior of `kind` still to place, and an empty `t` for it."""
        if self.kbb[colour][kind].bit_count() >= self.rules.squad[kind]:
            raise IllegalMoveError.coded("kind_all_placed", "2.11", kind=KIND_NAMES[kind])
        if self.sq[t]:
            raise IllegalMoveError.coded("destination_occupied", "3.3")

    def _check_placement(self, move: Move, side: int, what: str) -> None:
        """check_move for a placement by `side` at the stage `what` of the setup."""
        if what == "battle":
            raise IllegalMoveError.coded("placement_over", "2.7")
        if move.kind == GOAL:
            self._check_goal_placement(move.dest, side, what)
        else:
            self._check_warrior_placement(move.kind, move.dest, side, what)

    def _check_goal_placement(self, t: int, side: int, what: str) -> None:
        """Art. 2.6, 3.6, 13.4: the Goal, after the warriors, on a carrier outside the zones."""
        if what != "goal":
            raise IllegalMoveError.coded("goal_after_warriors", "2.6")
        code = self.sq[t]
        if not code or code >> 3 != side or not self._CARRIER[code & 7]:
            raise IllegalMoveError.coded("goal_with_carrier", "2.6")
        if (1 << t) & self._all_zoc():
            raise IllegalMoveError.coded("goal_placed_in_zone", "3.6")
        if (1 << t) & self.rules.cloud_bb:
            raise IllegalMoveError.coded("goal_placed_in_cloud", "13.4")

    def _check_warrior_placement(self, kind: int, t: int, side: int, what: str) -> None:
        """Art. 2.2, 2.5, 2.11, 13.5, 13.8: a warrior still to place, in the squad's region."""
        if what != "warrior":
            raise IllegalMoveError.coded("goal_comes_next", "2.6")
        self._check_room(side, kind, t)
        if not self._placement_squares(side) & BIT[t]:
            if REGION[t] is None and not self.rules.forward:
                raise IllegalMoveError.coded("border_triangle", "2.2", square=NAME[t])
            if self.occ[side]:
                raise IllegalMoveError.coded("outside_region", "2.5", square=NAME[t])
            raise IllegalMoveError.coded("enemy_region", "2.5", square=NAME[t])
        if self.rules.honor and not self._honourable(side, kind, t):
            raise IllegalMoveError.coded("dishonourable_placement", "13.8")

    # --- describing a move ---------------------------------------------------------------------
    def decoration(self, move: Move, side: int) -> tuple[bool, int | None, bool]:
        """(kill mark, destination key, '!') that Appendix C asks for when `side` plays the
        legal `move` here."""
        if move.origin is None:
            return False, None, False
        t = move.dest
        capture = t == self._goal_to_capture(side)
        code = self.sq[t]
        if code:
            return True, code & 7, capture
        if capture:
            return True, GOAL, True
        if self.goal[side] == t:
            return False, GOAL, False
        return False, None, False

    # --- counting -----------------------------------------------------------------------------
    def count_legal_moves(self) -> int:
        """The number of moves rules.md §3-4 allow, safety aside."""
        if self.outcome is not None:
            return 0
        side, what = self.stage()
        if what == "warrior":
            kinds = self._kinds_to_place(side)
            if self._placement_by_kind():
                return sum(self._placement_moves_bb(side, k).bit_count() for k in kinds)
            return len(kinds) * self._placement_squares(side).bit_count()
        if what == "goal":
            return self._goal_squares(side).bit_count()
        return _count(self._battle_dests(side))

    def count_moves(self) -> int:
        """The number of moves accepted here (perft at depth 1)."""
        needs_safety = self._needs_safety_check()
        side, what = self.stage()
        if what == "battle" and needs_safety and self.outcome is None:
            # Counting and the safety tests share the destinations, and build no Move.
            if self.rules.strict_safety:
                return _count(self._safe_battle_dests(side))
            dests = list(self._battle_dests(side))
            n = _count(dests)
            return n if n and self._any_safe(side, dests) else 0
        if self.rules.strict_safety and needs_safety:
            return sum(1 for m in self.generate_legal_moves() if self.is_safe(m))
        n = self.count_legal_moves()
        if n and needs_safety and not self.has_safe_move():
            return 0
        return n

    def perft(self, depth: int) -> int:
        """rules.md §6: the number of move sequences of `depth` plies from here."""
        if depth <= 0:
            return 1
        if depth == 1:
            return self.count_moves()
        total = 0
        for m in self.generate_moves():
            total += self.apply(m).perft(depth - 1)
        return total

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


def _count(dests: Iterable[tuple[int, int, int, int]]) -> int:
    """The number of battle moves in `dests` (as Position._battle_dests gives them)."""
    n = 0
    for _o, _kind, d, carry in dests:
        n += d.bit_count() + carry.bit_count()
    return n


def _holes(ablated: tuple[int, ...]) -> int:
    """The bitboard of the ablated squares."""
    holes = 0
    for a in ablated:
        holes |= 1 << a
    return holes
