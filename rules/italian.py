"""Ruleset `italian-society`: the Italian Klin Zha Society's rules and its time-out count."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar, Final

from rules.board import (
    BIT,
    BOARD,
    FLY,
    NAME,
    NB,
    RAYS,
    REGION,
    REGION_BB,
    iter_bits,
)
from rules.errors import IllegalMoveError
from rules.messages import Message, message
from rules.points import format_points
from rules.position import (
    BLOCKADER,
    COLOR_NAMES,
    FENCER,
    FLIER,
    GOAL,
    IS_CARRIER,
    KIND_NAMES,
    LANCER,
    NEAR4,
    NO_SQUARE,
    RULESET_ITALIAN,
    SWIFT,
    VANGUARD,
    WARRIOR_KINDS,
    Move,
    Position,
    Rules,
)
from rules.registry import register_ruleset
from rules.safety import walkers_attack, walkers_strike
from rules.variants import parse_removed as parse_removed

# Article names for the society's own rules: the numbered reminders of "RICORDATE CHE",
# the placement protocol, the Flier's description and the tournament section.
ART_PLACEMENT: Final = "italian-society: placement"
ART_CARRIER: Final = "italian-society: carrier"
ART_TRAP: Final = "italian-society 7"
ART_FLIER: Final = "italian-society: Flier"
ART_COUNT: Final = "italian-society: tournament"

# Built once: move generation asks for the placement problem of every free triangle.
_WARRIOR_IN_FIELD: Final = message("italian_warrior_in_field")
_GOAL_IN_FIELD: Final = message("italian_goal_in_field")
_FIELDS_OVERLAP: Final = message("italian_fields_overlap")
_BEHIND_BLOCKADER: Final = message("italian_behind_blockader")

# Points for a killed warrior at the time-out count; a trapped one counts half.
COUNT_VALUE: Final = {VANGUARD: 2, LANCER: 4, FENCER: 6, SWIFT: 8, FLIER: 10, BLOCKADER: 0}
# (Stored doubled so that half points stay integers; `TimeoutCount` halves them.)

# The warrior a Bach'san die removes: the die's face is the warrior's ID of Appendix D.1.1.
BACHSAN_KIND_OF_FACE: Final = {1: BLOCKADER, 2: FENCER, 3: VANGUARD, 4: LANCER, 5: FLIER, 6: SWIFT}


# The Flier's tables, empty until the first position of the society is made (its __init__
# calls flier_tables_build): importing the engine builds no variant's tables, and the hot
# methods still read them as plain module lists (a cached builder called on every read cost
# the society's perft 2%).
# FLIER_NEAR[s]: the squares from which a Flier's lines pass over or onto `s`.
FLIER_NEAR: Final[list[int]] = []
# FLIER_TO[o][t]: the squares a Flier on `o` flies over to land on `t` (two steps or more).
FLIER_TO: Final[list[dict[int, int]]] = []
# FLIER_LANDS[o]: where a Flier on `o` lands with no Blockader in its way; FLIER_SHADE[o][b]:
# those of them it may not land on while a Blockader stands on `b` (one look-up a Blockader
# instead of a walk over FLIER_TO on every move generated).
FLIER_LANDS: Final[list[int]] = []
FLIER_SHADE: Final[list[list[int]]] = []


@cache
def flier_tables_build() -> None:
    """Fill the Flier's tables (once: the cache makes every later call a no-op)."""
    near = [0] * len(RAYS)
    over: list[dict[int, int]] = [{} for _ in RAYS]
    for o, rays in enumerate(RAYS):
        for ray in rays:
            passed = 0
            for step, s in enumerate(ray[:6]):
                near[s] |= BIT[o]
                if step >= 2:
                    over[o][s] = passed
                passed |= BIT[s]
    lands = [0] * len(RAYS)
    shade = [[0] * len(RAYS) for _ in RAYS]
    for o, landings in enumerate(over):
        for t, passed in landings.items():
            lands[o] |= BIT[t]
            for s in iter_bits(passed):
                shade[o][s] |= BIT[t]
    FLIER_NEAR[:] = near
    FLIER_TO[:] = over
    FLIER_LANDS[:] = lands
    FLIER_SHADE[:] = shade


class ItalianPosition(Position):
    """A battle under the Italian society's rules.

    Setup: the first placer (the higher cast) places its Goal alone and then its declared
    carrier; the second placer places its Goal, its carrier and the rest of its squad; the
    first placer places the rest; the second placer moves first. Only the declared carrier
    carries its Goal, and never again once killed. A Blockader may end its move with warriors
    in its field, which stay trapped (cannot move) while it stays; it captures a lying Goal
    only as its side's last warrior. A carried Goal crosses the enemy zone of control only
    while it is in jeopardy. A Flier flies over warriors and zones but not over a Blockader.
    Any move that leaves the own Goal in jeopardy is illegal (strict goal safety).
    """

    __slots__ = ("carrier",)

    carrier: list[int]

    def __init__(self, rules: Rules, first: int = 0) -> None:
        super().__init__(rules, first)
        self.carrier = [NO_SQUARE, NO_SQUARE]
        flier_tables_build()

    def copy(self) -> ItalianPosition:
        p = super().copy()
        assert isinstance(p, ItalianPosition)
        p.carrier = self.carrier[:]
        return p

    # --- the placement protocol ---------------------------------------------------------------
    @property
    def warriors_per_squad(self) -> int:
        return sum(self.rules.squad)

    @property
    def setup_plies(self) -> int:
        return 2 * self.warriors_per_squad + 2

    def stage(self) -> tuple[int, str]:
        ply = self.ply
        first = self.first
        second = 1 - first
        n = self.warriors_per_squad
        if ply >= 2 * n + 2:
            return (second if (ply - 2 * n - 2) % 2 == 0 else first), "battle"
        if ply == 0:
            return first, "goal"
        if ply == 1:
            return first, "warrior"
        if ply == 2:
            return second, "goal"
        if ply < 3 + n:
            return second, "warrior"
        return first, "warrior"

    @property
    def in_battle(self) -> bool:
        return self.ply >= self.setup_plies

    def _is_carrier_ply(self) -> bool:
        return self.ply in (1, 3)

    def _goal_squares(self, side: int) -> int:
        """A Goal is placed alone, first, on an empty triangle of a region the enemy is not in;
        that fixes the squad's region."""
        taken = self.region[1 - side]
        allowed = 0
        for r in range(3):
            if r != taken:
                allowed |= REGION_BB[r]
        occupied = self.occ[0] | self.occ[1] | self.goals_bb()
        return allowed & ~occupied & ~self._goal_forbidden()

    def _placement_moves_bb(self, side: int, kind: int) -> int:
        if self._is_carrier_ply() and not IS_CARRIER[kind]:
            return 0
        region = self.region[side]
        if region < 0:
            return 0
        free = REGION_BB[region] & ~(self.occ[0] | self.occ[1] | self.goals_bb())
        free &= ~self._all_zoc()
        ok = 0
        for t in iter_bits(free):
            if self._placement_problem(side, kind, t) is None:
                ok |= BIT[t]
        return ok

    def _placement_problem(self, side: int, kind: int, t: int) -> Message | None:
        """Why `side` may not place a `kind` on `t` (given a free triangle of its region)."""
        if kind == BLOCKADER:
            z = NB[t]
            if z & (self.occ[0] | self.occ[1]):
                return _WARRIOR_IN_FIELD
            if z & self.goals_bb():
                return _GOAL_IN_FIELD
            eb = self.blk[1 - side]
            if eb >= 0 and z & NB[eb]:
                return _FIELDS_OVERLAP
        if not self._honourable(side, kind, t):
            return _BEHIND_BLOCKADER
        return None

    def _placement_by_kind(self) -> bool:
        return True

    def _check_goal_placement(self, t: int, side: int, what: str) -> None:
        if what != "goal":
            raise IllegalMoveError.coded("italian_goal_first_of_all", ART_PLACEMENT)
        if self._goal_squares(side) & BIT[t]:
            return
        if self.sq[t] or self.goals_bb() & BIT[t]:
            raise IllegalMoveError.coded("italian_goal_alone", "2.6")
        if REGION[t] is None:
            raise IllegalMoveError.coded("shared_triangle", "2.2", square=NAME[t])
        if self.rules.cloud_bb & BIT[t]:
            raise IllegalMoveError.coded("goal_placed_in_cloud", "13.4")
        raise IllegalMoveError.coded("enemy_region", "2.5", square=NAME[t])

    def _check_warrior_placement(self, kind: int, t: int, side: int, what: str) -> None:
        if what != "warrior":
            raise IllegalMoveError.coded("italian_goal_first", ART_PLACEMENT)
        if self._is_carrier_ply() and not IS_CARRIER[kind]:
            raise IllegalMoveError.coded("italian_carrier_kind", ART_CARRIER)
        self._check_room(side, kind, t)
        if self.goals_bb() & BIT[t]:
            raise IllegalMoveError.coded("italian_goal_not_loaded", ART_CARRIER)
        region = self.region[side]
        if not REGION_BB[region] & BIT[t]:
            if REGION[t] is None:
                raise IllegalMoveError.coded("shared_triangle", "2.2", square=NAME[t])
            raise IllegalMoveError.coded("italian_outside_region", "2.5", square=NAME[t])
        if self._all_zoc() & BIT[t]:
            raise IllegalMoveError.coded("italian_warrior_in_field", ART_PLACEMENT)
        problem = self._placement_problem(side, kind, t)
        if problem is not None:
            raise IllegalMoveError(problem, ART_PLACEMENT)

    def push(self, move: Move) -> None:
        if move.origin is None:
            side = self.stage()[0]
            if move.kind == GOAL:
                region = REGION[move.dest]
                assert region is not None
                self.region[side] = region
            elif self._is_carrier_ply():
                self.carrier[side] = move.dest
        super().push(move)

    # --- the battle ---------------------------------------------------------------------------
    def trapped(self) -> int:
        """Warriors standing in a Blockader's field: they cannot move. (A Blockader is never
        in a field: no move or placement may end in the enemy's.)"""
        return (self.occ[0] | self.occ[1]) & self._all_zoc()

    def _movable(self, side: int) -> int:
        return self.occ[side] & ~self._all_zoc()

    def _holder(self, side: int) -> int:
        c = self.carrier[side]
        return c if c >= 0 and self.goal[side] == c else NO_SQUARE

    def _reach(self, o: int, kind: int, passable: int) -> int:
        if kind != FLIER:
            return super()._reach(o, kind, passable)
        return self._flier_reach(o)

    def _flier_reach(self, o: int) -> int:
        # Over warriors and fields, but not over a Blockader (of either side).
        reach = FLIER_LANDS[o]
        b0, b1 = self.blk
        if b0 >= 0:
            reach &= ~FLIER_SHADE[o][b0]
        if b1 >= 0:
            reach &= ~FLIER_SHADE[o][b1]
        return reach

    def _blockader_zone_bars(self, side: int, carrying: bool = False) -> int:
        # Warriors in its field are trapped, not a bar (reminder 7); Goals still are.
        return self.goals_bb()

    def _dests(self, o: int, kind: int, side: int, carrying: bool = False) -> int:
        # Position._dests (paths cross ablated triangles here) in one call, as move generation
        # asks it for every warrior: the Flier's reach read from its tables.
        enemy = 1 - side
        own = self.occ[side]
        opp = self.occ[enemy]
        eb = self.blk[enemy]
        ezoc = NB[eb] if eb >= 0 else 0
        if kind == FLIER:
            d = self._flier_reach(o)
        else:
            d = Position._reach(self, o, kind, BOARD & ~(own | opp | ezoc))
        d &= ~(own | ezoc | self.holes)
        if eb >= 0:
            d &= ~BIT[eb]
        clouds = self.rules.cloud_bb
        if clouds:
            d &= ~(clouds & opp)
        if kind != BLOCKADER:
            return d
        d = self._blockader_dests(side, d, carrying)
        eg = self.goal[enemy]
        if eg >= 0 and own != BIT[o]:
            # Only a Blockader left alone on the board may capture the enemy Goal.
            d &= ~BIT[eg]
        return d

    def _carry_dests(self, o: int, kind: int, side: int, dests: int) -> int:
        forbidden = self._goal_forbidden()
        if not self._plain_jeopardy(side):
            return dests & ~forbidden
        # Under threat the carrier may take its Goal through the enemy's field (not into it).
        enemy = 1 - side
        own = self.occ[side]
        eb = self.blk[enemy]
        ezoc = NB[eb] if eb >= 0 else 0
        passable = BOARD & ~(own | self.occ[enemy])
        wide = self._reach(o, kind, passable) & ~own & ~ezoc & ~self.holes
        if eb >= 0:
            wide &= ~BIT[eb]
        if self.rules.cloud_bb:
            wide &= ~(self.rules.cloud_bb & self.occ[enemy])
        return (dests | wide) & ~forbidden

    def check_battle_move(self, side: int, move: Move) -> None:
        o, t = move.origin, move.dest
        assert o is not None
        code = self.sq[o]
        if code and code >> 3 == side and code & 7 == move.kind:
            if self.trapped() & BIT[o]:
                raise IllegalMoveError.coded(
                    "italian_trapped", ART_TRAP, kind=KIND_NAMES[move.kind], square=NAME[o]
                )
            d = self._dests(o, move.kind, side)
            if move.carry:
                if self._holder(side) != o and IS_CARRIER[move.kind] and self.goal[side] == o:
                    raise IllegalMoveError.coded("italian_declared_carrier", ART_CARRIER)
                legal = self._carry_dests(o, move.kind, side, d) if self._holder(side) == o else 0
            else:
                legal = d
            if legal & BIT[t]:
                return
            if move.kind == FLIER and FLY[o] & ~self._reach(o, FLIER, 0) & BIT[t]:
                raise IllegalMoveError.coded("italian_flier_over_blockader", ART_FLIER)
        super().check_battle_move(side, move)
        kind = code & 7
        if kind == FLIER:
            raise IllegalMoveError.coded("italian_flier_over_blockader", ART_FLIER)
        if kind == BLOCKADER and self.goal[1 - side] == t:
            raise IllegalMoveError.coded("italian_blockader_captures", ART_TRAP)
        raise IllegalMoveError.coded("italian_not_allowed", ART_TRAP)

    def push_battle_move(self, side: int, move: Move) -> None:
        o = move.origin
        assert o is not None
        enemy = 1 - side
        if self.carrier[enemy] == move.dest and self.sq[move.dest]:
            self.carrier[enemy] = NO_SQUARE
        if self.carrier[side] == o:
            self.carrier[side] = move.dest
        super().push_battle_move(side, move)

    # --- goal safety (strict) -----------------------------------------------------------------
    def is_in_jeopardy(self, side: int) -> bool:
        """Whether one of the enemy's warriors may move onto `side`'s Goal: as the Laws read
        it (_plain_jeopardy), or by the enemy carrier taking its own threatened Goal through
        `side`'s field (reminder 6 with reminder 5)."""
        return self._plain_jeopardy(side) or self._crossing_threat(side)

    def _crossing_threat(self, side: int) -> bool:
        """Whether the enemy's carrier, holding its Goal while that Goal is at risk (the Laws'
        reading), may carry it onto `side`'s Goal through `side`'s Blockader's field."""
        attacker = 1 - side
        g = self.goal[side]
        h = self._holder(attacker)
        dblk = self.blk[side]
        if g < 0 or h < 0 or dblk < 0:
            return False
        code = self.sq[h]
        if not code or code >> 3 != attacker or not IS_CARRIER[code & 7]:
            return False  # the carrier was killed on its Goal (a move judged in place)
        if self.trapped() & BIT[h] or not self._plain_jeopardy(attacker):
            return False
        d = self._dests(h, code & 7, attacker)
        return bool(self._carry_dests(h, code & 7, attacker, d) & BIT[g])

    def _plain_jeopardy(self, side: int) -> bool:
        """Whether one of the enemy's warriors may move onto `side`'s Goal (its _dests hold
        the Goal), read from the Goal outwards as _attack_map reads it, stopping at the first:
        the Fliers here, the walkers (those outside both fields) as the flat game reads them."""
        attacker = 1 - side
        g = self.goal[side]
        if g < 0:
            return False
        dblk = self.blk[side]
        dzoc = NB[dblk] if dblk >= 0 else 0
        if BIT[g] & dzoc:
            return False
        ab = self.blk[attacker]
        foes = self.occ[attacker]
        # Trapped warriors do not move; only those within a walk's reach can strike.
        free = foes & ~(dzoc | (NB[ab] if ab >= 0 else 0))
        kb = self.kbb[attacker]
        if kb[FLIER] & free & FLIER_NEAR[g] and self._flier_attackers(attacker, free, g, dblk):
            return True
        near = free & NEAR4[g] & ~kb[FLIER]
        if not near:
            return False
        # Only a Blockader left alone may capture, not a held Goal, its field clear of Goals.
        blk = kb[BLOCKADER] & near if foes == kb[BLOCKADER] and not self.sq[g] else 0
        return walkers_strike(
            kb,
            near,
            g,
            BOARD & ~(self.occ[side] | foes | dzoc),
            self.rules.power_vanguards,
            blk,
            self.goals_bb() | dzoc if blk else 0,
        )

    def _flier_attackers(self, attacker: int, free: int, g: int, dblk: int) -> int:
        """Those of `attacker`'s `free` Fliers that land on `g`: over anything but a
        Blockader (`dblk` the defender's)."""
        fliers = self.kbb[attacker][FLIER] & free & FLIER_NEAR[g]
        if not fliers:
            return 0
        ab = self.blk[attacker]
        blks = (BIT[ab] if ab >= 0 else 0) | (BIT[dblk] if dblk >= 0 else 0)
        att = 0
        for o in iter_bits(fliers):
            over = FLIER_TO[o].get(g)
            if over is not None and not over & blks:
                att |= BIT[o]
        return att

    # _attack_map below keeps in step with is_in_jeopardy, so moves are judged from maps
    # (Position._safe_battle_dests) unless _maps_hold says a kill could change more.
    _plain_safety: ClassVar[bool] = True

    def _maps_hold(self, side: int) -> bool:
        # Killing a warrior may leave the enemy Blockader alone, and so free to capture; an
        # enemy carrier holding its Goal may cross the own field once that Goal is threatened,
        # which no map of the own Goal reads.
        enemy = 1 - side
        if self._holder(enemy) >= 0 and self.blk[side] >= 0:
            return False
        return not (self.kbb[enemy][BLOCKADER] and self.occ[enemy].bit_count() <= 2)

    def _attack_map(
        self, side: int, g: int, own: int, foes: int, dblk: int, held: bool
    ) -> tuple[int, int]:
        """is_in_jeopardy as a map (see Position._attack_map): the warriors outside both
        fields that can move onto `g` (Fliers over all but Blockaders; a Blockader only
        alone), and the squares their paths were read from."""
        a = 1 - side
        ab = self.blk[a]
        dzoc = NB[dblk] if dblk >= 0 else 0
        if BIT[g] & dzoc:
            return 0, 0
        free = foes & ~(dzoc | (NB[ab] if ab >= 0 else 0))
        if not free & (NEAR4[g] | FLIER_NEAR[g]):
            # No warrior that could strike stands near: no move of the defender's (but its
            # Blockader's, judged with a map of its own) brings one, so nothing need be read.
            return 0, 0
        kb = self.kbb[a]
        att = self._flier_attackers(a, free, g, dblk)
        passable = BOARD & ~(own | foes | dzoc)
        vang = kb[VANGUARD] & free
        walkers, read, r2 = walkers_attack(kb, free, g, passable, vang, self.rules.power_vanguards)
        att |= walkers
        blk = kb[BLOCKADER] & free
        r1 = NB[g]
        if blk & (r1 | r2) and not held and foes == blk and not r1 & (self.goals_bb() | dzoc):
            att |= blk
        return att, read

    def is_battle_move_safe(self, side: int, o: int, t: int, kind: int, carry: bool) -> bool:
        # Trapped warriors and the carrier's crossing: only the next position tells.
        if self.rules.ablative:
            return self._safe_by_playing(side, Move(o, t, kind, carry))
        return self._safe_in_place(side, o, t, kind, carry)

    def _needs_safety_check(self) -> bool:
        return self.ply >= self.setup_plies - 1

    def is_safe(self, move: Move) -> bool:
        if self.answers_crown():
            return True
        side, what = self.stage()
        if what == "battle":
            assert move.origin is not None
            return self.is_battle_move_safe(side, move.origin, move.dest, move.kind, move.carry)
        if self.ply != self.setup_plies - 1:
            return True
        # The first placer's last placement: the second placer moves next (reminder 4).
        return not self.apply(move).is_in_jeopardy(side)

    def end_tags_problem(self, tags: dict[str, str]) -> tuple[str, str | None] | None:
        return tag_problem(self, tags)

    counts_at_time_out: ClassVar[bool] = True
    # The booklet's ablative variant: "i pezzi potranno passarci sopra ma non sostarvi".
    _PASS_OVER_ABLATED: ClassVar[bool] = True

    def time_out_count(self) -> tuple[int | None, str, str] | None:
        count = timeout_count(self)
        return count.winner, count.describe(), ART_COUNT

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ItalianPosition):
            return NotImplemented
        return Position.__eq__(self, other) and self.carrier == other.carrier

    def __hash__(self) -> int:
        return hash((Position.__hash__(self), tuple(self.carrier)))


@dataclass(frozen=True, slots=True)
class TimeoutCount:
    """The time-out count: each side's points for enemy warriors killed (whole) and trapped
    (half), doubled so that halves stay integers; `winner` None on a tie (a coin decides)."""

    doubled: tuple[int, int]

    @property
    def points(self) -> tuple[float, float]:
        return self.doubled[0] / 2, self.doubled[1] / 2

    @property
    def winner(self) -> int | None:
        a, b = self.doubled
        return None if a == b else (0 if a > b else 1)

    def describe(self) -> str:
        g, o = (format_points(p) for p in self.points)
        return f"time-out count green {g}, gold {o}"

    def sides(self) -> dict[str, str]:
        """Each colour's points as `describe` writes them, by colour (a message's parameters)."""
        g, o = (format_points(p) for p in self.points)
        return {"green": g, "gold": o}


def timeout_count(pos: Position) -> TimeoutCount:
    """Count a battle stopped at time-out: killed enemy warriors score their value, enemy
    warriors trapped in a Blockader's field half of it (Vanguard 1, Lancer 2, Fencer 3,
    Swift 4, Flier 5)."""
    squad = pos.rules.squad
    zones = 0
    for b in pos.blk:
        if b >= 0:
            zones |= NB[b]
    doubled = [0, 0]
    for side in (0, 1):
        enemy = 1 - side
        for kind in WARRIOR_KINDS:
            on_board = pos.kbb[enemy][kind]
            killed = squad[kind] - on_board.bit_count()
            trapped = (on_board & zones).bit_count()
            doubled[side] += killed * COUNT_VALUE[kind] + trapped * COUNT_VALUE[kind] // 2
    return TimeoutCount((doubled[0], doubled[1]))


def tag_problem(pos: Position, tags: dict[str, str]) -> tuple[str, str | None] | None:
    """What a finished record's tags contradict under the society's tournament rules: no
    draws, and a battle ended by time is won by the count (a tie by the `Coin` tag)."""
    result = tags.get("Result", "*").strip().lower() or "*"
    if result == "draw":
        return message("italian_no_draws"), ART_COUNT
    term = tags.get("Termination", "").strip().lower()
    if term != "time" or pos.outcome is not None or result == "*":
        return None
    count = timeout_count(pos)
    winner = count.winner
    if winner is None:
        coin = tags.get("Coin", "").strip().lower()
        if coin not in COLOR_NAMES:
            return message("italian_count_tie", **count.sides()), ART_COUNT
        expected = coin
    else:
        expected = COLOR_NAMES[winner]
    if result != expected:
        return (
            message("italian_count_winner", **count.sides(), expected=expected, claimed=result),
            ART_COUNT,
        )
    return None


register_ruleset(RULESET_ITALIAN, ItalianPosition)
