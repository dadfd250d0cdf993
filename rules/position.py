"""Positions of a battle, move generation, legality with reasons, goal safety, deadlock, perft."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

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
SQUAD: Final = (0, 1, 1, 1, 2, 3, 1)
CARRIERS: Final = frozenset((FENCER, LANCER, VANGUARD))
IS_CARRIER: Final = (False, True, True, False, False, True, False, False)

RULESETS: Final = ("laws", "loyd-1989", "italian-society")

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

    ruleset: str = "laws"
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
    cloud_bb: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        v = self.variants
        object.__setattr__(self, "power_vanguards", "power-vanguards" in v)
        object.__setattr__(self, "alternating", "alternating-placement" in v)
        object.__setattr__(self, "forward", "forward-placement" in v)
        object.__setattr__(self, "honor", "honor-in-setup" in v)
        object.__setattr__(self, "ablative", "ablative" in v)
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
        return self.ruleset != "laws"


LAWS: Final = Rules()


@dataclass(frozen=True, slots=True)
class Move:
    """One ply: a placement (origin None) or a battle move, identified as rules.md §4 says."""

    origin: int | None
    dest: int
    kind: int
    carry: bool = False

    @property
    def is_placement(self) -> bool:
        return self.origin is None

    def __str__(self) -> str:
        key = ("", "Fe", "L", "S", "Fl", "V", "B", "G")[self.kind]
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

    Positions are treated as values: `apply` returns a new position.
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

    def piece_at(self, sq: int) -> tuple[int, int] | None:
        """(side, kind) of the warrior on a square, or None."""
        code = self.sq[sq]
        return None if code == 0 else (code >> 3, code & 7)

    def holds_goal(self, side: int, sq: int) -> bool:
        """Whether the warrior of `side` on `sq` is a carrier standing on its own Goal."""
        return sq >= 0 and self._holder(side) == sq

    # Hooks the variants' positions override; the flat game's answers are the plain ones.
    def _holder(self, side: int) -> int:
        """The square of the warrior holding `side`'s Goal (and so able to carry it), or -1."""
        g = self.goal[side]
        if g >= 0:
            code = self.sq[g]
            if code and code >> 3 == side and IS_CARRIER[code & 7]:
                return g
        return NO_SQUARE

    def _movable(self, side: int) -> int:
        """The squares of `side`'s warriors that may move."""
        return self.occ[side]

    def _blockader_zone_bars(self, side: int) -> int:
        """What `side`'s Blockader may not end its move with in its zone (Art. 3.11.4)."""
        return self.occ[1 - side] | self.goals_bb()

    def _carry_dests(self, o: int, kind: int, side: int, dests: int) -> int:
        """Where the holder on `o` may take its Goal, given its destinations without it."""
        return dests & ~self._goal_forbidden()

    def goals_bb(self) -> int:
        g = 0
        for s in self.goal:
            if s >= 0:
                g |= BIT[s]
        return g

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

    def _dests(self, o: int, kind: int, side: int) -> int:
        """Legal destinations (rules.md §3-4) of the warrior on `o`, carrying aside."""
        enemy = 1 - side
        own = self.occ[side]
        opp = self.occ[enemy]
        eb = self.blk[enemy]
        ezoc = NB[eb] if eb >= 0 else 0
        passable = BOARD & ~(own | opp | ezoc | self.holes)
        d = self._reach(o, kind, passable) & ~own & ~ezoc & ~self.holes
        if eb >= 0:
            d &= ~BIT[eb]
        clouds = self.rules.cloud_bb
        if clouds:
            d &= ~(clouds & opp)
        if kind == BLOCKADER:
            d &= ~opp
            g = self.goal[side]
            if g >= 0:
                d &= ~BIT[g]
            bad = self._blockader_zone_bars(side)
            ok = 0
            dd = d
            while dd:
                b = dd & -dd
                dd ^= b
                t = b.bit_length() - 1
                z = NB[t]
                if z & bad:
                    continue
                if eb >= 0 and z & ezoc:
                    continue
                ok |= b
            d = ok
        return d

    def _goal_forbidden(self) -> int:
        """Squares a Goal may not end on: every zone of control, and clouds (Art. 13.4)."""
        return self._all_zoc() | self.rules.cloud_bb

    def _all_zoc(self) -> int:
        z = 0
        for b in self.blk:
            if b >= 0:
                z |= NB[b]
        return z

    # --- generation ---------------------------------------------------------------------------
    def generate_legal_moves(self) -> list[Move]:
        """Every move rules.md §3-4 allows, safe or not (empty once the battle is over)."""
        if self.outcome is not None:
            return []
        side, what = self.stage()
        if what == "warrior":
            out = []
            for kind in WARRIOR_KINDS:
                if self.kbb[side][kind].bit_count() < self.rules.squad[kind]:
                    bb = self._placement_moves_bb(side, kind)
                    while bb:
                        b = bb & -bb
                        bb ^= b
                        out.append(Move(None, b.bit_length() - 1, kind))
            return out
        if what == "goal":
            return [Move(None, s, GOAL) for s in iter_bits(self._goal_squares(side))]
        moves = []
        holder = self._holder(side)
        for o in iter_bits(self._movable(side)):
            kind = self.sq[o] & 7
            d = self._dests(o, kind, side)
            dests = iter_bits(d)
            for t in dests:
                moves.append(Move(o, t, kind))
            if o == holder:
                for t in iter_bits(self._carry_dests(o, kind, side, d)):
                    moves.append(Move(o, t, kind, True))
        return moves

    def _placement_squares(self, side: int) -> int:
        """Empty squares where `side` may place a warrior: inside a region that holds all its
        placed warriors and leaves the enemy a different region holding all of theirs."""
        table = FORWARD_REGION_BB if self.rules.forward else REGION_BB
        mine = self.occ[side]
        theirs = self.occ[1 - side]
        allowed = 0
        for r1 in range(3):
            if mine & ~table[r1]:
                continue
            if any(r2 != r1 and not theirs & ~table[r2] for r2 in range(3)):
                allowed |= table[r1]
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

    def _goal_squares(self, side: int) -> int:
        kb = self.kbb[side]
        carriers = kb[FENCER] | kb[LANCER] | kb[VANGUARD]
        return carriers & ~self._goal_forbidden()

    def generate_moves(self) -> list[Move]:
        """The moves accepted in this position: all legal ones under `laws` unless the side to
        move is deadlocked, only the safe ones under a strict ruleset."""
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
        t = move.dest
        if move.origin is not None:
            self.push_battle_move(side, move)
            return
        if move.kind == GOAL:
            self.goal[side] = t
        else:
            self.sq[t] = side * 8 + move.kind
            self.occ[side] |= BIT[t]
            self.kbb[side][move.kind] |= BIT[t]
            if move.kind == BLOCKADER:
                self.blk[side] = t
            if self.region[side] < 0:
                self.region[side] = self._region_of_squad(side)
        self.ply += 1

    def push_battle_move(self, side: int, move: Move) -> None:
        """push for a legal battle move by `side`, whose turn it is."""
        o = move.origin
        assert o is not None
        t = move.dest
        enemy = 1 - side
        sq = self.sq
        code = sq[o]
        kind = code & 7
        ob = BIT[o]
        tb = BIT[t]
        victim = sq[t]
        if victim:
            self.occ[enemy] &= ~tb
            self.kbb[enemy][victim & 7] &= ~tb
        sq[o] = 0
        sq[t] = code
        self.occ[side] ^= ob | tb
        self.kbb[side][kind] ^= ob | tb
        if kind == BLOCKADER:
            self.blk[side] = t
        if move.carry:
            self.goal[side] = t
        if self.goal[enemy] == t:
            self.goal[enemy] = CAPTURED
            self.outcome = Outcome("capture", side)
        rules = self.rules
        if rules.ablative:
            goal_after = self.goal[side]
            self.holes = self._holes_after(o, goal_after)
            self.ablated = self._ablated_after(o, goal_after)
        if rules.crown >= 0 or "kaggas-crown" in rules.variants:
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
        self,
        side: int,
        g: int,
        occ_def: int,
        occ_att: int,
        keep: int,
        dblk: int,
        g_held: bool,
        holes: int,
    ) -> bool:
        """Whether the attacker (not `side`) can capture a Goal on `g` given these squares.

        `keep` masks the attacker's warriors (a killed one is left out); `g_held` tells
        whether a defender's warrior stands on the Goal's triangle.
        """
        a = 1 - side
        kb = self.kbb[a]
        dzoc = NB[dblk] if dblk >= 0 else 0
        if BIT[g] & dzoc:
            return False
        fliers = kb[FLIER] & keep
        if fliers & FLY[g]:
            return True
        if not occ_att & keep & ~fliers & NEAR4[g]:
            # Nothing but Fliers within reach, and none of them lands on the Goal.
            return False
        passable = BOARD & ~(occ_def | occ_att | dzoc | holes)
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
        if blk & (r1 | r2) and not g_held:
            ag = self.goal[a]
            bad = occ_def | (BIT[ag] if ag >= 0 else 0) | dzoc
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

    def is_battle_move_safe(self, side: int, o: int, t: int, kind: int, carry: bool) -> bool:
        """is_safe for a legal battle move, without building the next position."""
        enemy = 1 - side
        if self.goal[enemy] == t:
            return True
        g = self.goal[side]
        if g < 0:
            return True
        tb = BIT[t]
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
            (self.occ[side] & ~BIT[o]) | tb,
            self.occ[enemy] & ~tb,
            ~tb,
            t if kind == BLOCKADER else self.blk[side],
            held,
            self._holes_after(o, g) if self.rules.ablative else 0,
        )

    def _ablated_after(self, o: int, goal_after: int) -> tuple[int, ...]:
        """Art. 13.6: the ablated squares after a warrior leaves `o`."""
        if goal_after == o:
            # A marker cannot sit under a Goal left lying, so that triangle stays open.
            return self.ablated
        ablated = self.ablated + (o,)
        limit = self.rules.ablation_limit
        if limit and len(ablated) > limit:
            ablated = ablated[len(ablated) - limit :]
        return ablated

    def _holes_after(self, o: int, goal_after: int) -> int:
        holes = 0
        for a in self._ablated_after(o, goal_after):
            holes |= BIT[a]
        return holes

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
        holder = self._holder(side)
        sqs = self.sq
        own = self._movable(side)
        while own:
            b = own & -own
            own ^= b
            o = b.bit_length() - 1
            kind = sqs[o] & 7
            d = self._dests(o, kind, side)
            carry = self._carry_dests(o, kind, side, d) if o == holder else 0
            for t in iter_bits(d):
                if self.is_battle_move_safe(side, o, t, kind, False):
                    return True
            for t in iter_bits(carry):
                if self.is_battle_move_safe(side, o, t, kind, True):
                    return True
        return False

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
            raise IllegalMoveError("ply follows the end of the battle", "5.1")
        side, what = self.stage()
        if move.origin is None:
            self._check_placement(move, side, what)
            return
        if what != "battle":
            raise IllegalMoveError(
                "a warrior moves before setup is complete", "2.7" if what == "goal" else "2.5"
            )
        self.check_battle_move(side, move)

    def check_battle_move(self, side: int, move: Move) -> None:
        """check_move for a battle move by `side`, whose turn it is."""
        o, t = move.origin, move.dest
        assert o is not None
        code = self.sq[o]
        if not code or code >> 3 != side:
            raise IllegalMoveError(f"no warrior of the side to move on {NAME[o]}", "3.1")
        kind = code & 7
        if move.kind != kind:
            raise IllegalMoveError(
                f"the warrior on {NAME[o]} is a {KIND_NAMES[kind]}, not a {KIND_NAMES[move.kind]}",
                "Appendix C",
            )
        holds = self._holder(side) == o
        if move.carry and not holds:
            if not IS_CARRIER[kind]:
                raise IllegalMoveError(f"a {KIND_NAMES[kind]} cannot carry the Goal", "2.8")
            raise IllegalMoveError(f"the {KIND_NAMES[kind]} on {NAME[o]} holds no Goal", "3.11.1")
        enemy = 1 - side
        eb = self.blk[enemy]
        ezoc = NB[eb] if eb >= 0 else 0
        tb = BIT[t]
        if t == o:
            raise IllegalMoveError("a move must leave its triangle", "3.7")
        if self.occ[side] & tb:
            raise IllegalMoveError("destination holds a warrior of the mover's side", "3.3")
        if eb == t:
            raise IllegalMoveError("nothing kills a Blockader", "3.11.4")
        if ezoc & tb:
            raise IllegalMoveError("destination is in the enemy Blockader's zone of control", "3.5")
        if self.holes & tb:
            raise IllegalMoveError(f"{NAME[t]} is ablated", "13.6")
        if self.rules.cloud_bb & tb & self.occ[enemy]:
            raise IllegalMoveError("a warrior in a cloud cannot be killed", "13.4")
        occ_all = self.occ[0] | self.occ[1]
        open_board = BOARD & ~self.holes
        passable = open_board & ~(occ_all | ezoc)
        if not self._reach(o, kind, passable) & tb:
            if self._reach(o, kind, open_board) & tb:
                if self._reach(o, kind, open_board & ~ezoc) & tb:
                    raise IllegalMoveError(
                        f"the {KIND_NAMES[kind]}'s path to {NAME[t]} is blocked", MOVE_ARTICLE[kind]
                    )
                raise IllegalMoveError(
                    f"the {KIND_NAMES[kind]}'s path to {NAME[t]} crosses the enemy Blockader's "
                    "zone of control",
                    "3.5",
                )
            raise IllegalMoveError(
                f"a {KIND_NAMES[kind]} cannot move from {NAME[o]} to {NAME[t]}",
                MOVE_ARTICLE[kind],
            )
        if kind == BLOCKADER:
            if self.occ[enemy] & tb:
                raise IllegalMoveError("a Blockader kills nothing", "3.11.4")
            if self.goal[side] == t:
                raise IllegalMoveError("a Blockader may not end on its own Goal", "3.11.4")
            self._check_blockader_end(side, NB[t], ezoc, self.goals_bb())
        if move.carry and tb & self._all_zoc():
            raise IllegalMoveError(
                "a carried Goal may not end in a Blockader's zone of control", "3.6"
            )
        if move.carry and tb & self.rules.cloud_bb:
            raise IllegalMoveError("the Goal may not be moved into a cloud", "13.4")

    def _check_blockader_end(self, side: int, zone: int, ezoc: int, goals: int) -> None:
        """Art. 3.8, 3.11.4: what a Blockader's `zone` may not hold where its move ends."""
        if zone & self.occ[1 - side]:
            raise IllegalMoveError(
                "a Blockader may not end with an enemy warrior in its zone of control", "3.11.4"
            )
        if zone & goals:
            raise IllegalMoveError(
                "a Blockader may not end with a Goal in its zone of control", "3.11.4"
            )
        if zone & ezoc:
            raise IllegalMoveError("the Blockaders' zones of control may not overlap", "3.8")

    def _check_placement(self, move: Move, side: int, what: str) -> None:
        t = move.dest
        if what == "battle":
            raise IllegalMoveError("placement is over; a warrior must move", "2.7")
        if move.kind == GOAL:
            if what != "goal":
                raise IllegalMoveError("the Goal is placed after all warriors are placed", "2.6")
            code = self.sq[t]
            if not code or code >> 3 != side or not IS_CARRIER[code & 7]:
                raise IllegalMoveError(
                    "the Goal must be placed with one of the placer's carriers", "2.6"
                )
            if BIT[t] & self._all_zoc():
                raise IllegalMoveError(
                    "a Goal may not be placed in a Blockader's zone of control", "3.6"
                )
            if BIT[t] & self.rules.cloud_bb:
                raise IllegalMoveError("a Goal may not be placed in a cloud", "13.4")
            return
        if what != "warrior":
            raise IllegalMoveError("all warriors are placed; the Goal comes next", "2.6")
        if self.kbb[side][move.kind].bit_count() >= self.rules.squad[move.kind]:
            raise IllegalMoveError(
                f"all of the squad's {KIND_NAMES[move.kind]}s are already placed", "2.11"
            )
        if self.sq[t]:
            raise IllegalMoveError("destination is occupied", "3.3")
        if not self._placement_squares(side) & BIT[t]:
            if REGION[t] is None and not self.rules.forward:
                raise IllegalMoveError(
                    f"{NAME[t]} is a border triangle, not used for placement", "2.2"
                )
            if self.occ[side]:
                raise IllegalMoveError(
                    f"{NAME[t]} is outside the region this squad is placed in", "2.5"
                )
            raise IllegalMoveError(f"{NAME[t]} is in the region the enemy placed in", "2.5")
        if self.rules.honor and not self._honourable(side, move.kind, t):
            raise IllegalMoveError(
                "a warrior may not stand in a zone of control or where an enemy Fencer could "
                "not reach it",
                "13.8",
            )

    # --- counting -----------------------------------------------------------------------------
    def count_legal_moves(self) -> int:
        """The number of moves rules.md §3-4 allow, safety aside."""
        if self.outcome is not None:
            return 0
        side, what = self.stage()
        if what == "warrior":
            squad = self.rules.squad
            if self.rules.honor:
                return sum(
                    self._placement_moves_bb(side, k).bit_count()
                    for k in WARRIOR_KINDS
                    if self.kbb[side][k].bit_count() < squad[k]
                )
            kinds = sum(1 for k in WARRIOR_KINDS if self.kbb[side][k].bit_count() < squad[k])
            return kinds * self._placement_squares(side).bit_count()
        if what == "goal":
            return self._goal_squares(side).bit_count()
        n = 0
        holder = self._holder(side)
        sqs = self.sq
        own = self._movable(side)
        while own:
            b = own & -own
            own ^= b
            o = b.bit_length() - 1
            kind = sqs[o] & 7
            d = self._dests(o, kind, side)
            n += d.bit_count()
            if o == holder:
                n += self._carry_dests(o, kind, side, d).bit_count()
        return n

    def count_moves(self) -> int:
        """The number of moves accepted here (perft at depth 1)."""
        if self.rules.strict_safety and self._needs_safety_check():
            return sum(1 for m in self.generate_legal_moves() if self.is_safe(m))
        n = self.count_legal_moves()
        if n and self._needs_safety_check() and not self.has_safe_move():
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
