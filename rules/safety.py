"""The Goal's safety: jeopardy, attack maps, and which moves leave the own Goal safe (Art. 3.9)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import ClassVar, Self

from rules.board import (
    BIT,
    BOARD,
    FLY,
    NB,
    iter_bits,
    neighbours_bb,
)
from rules.movement import Movement
from rules.pieces import (
    BLOCKADER,
    FENCER,
    FLIER,
    LANCER,
    LANCER_RAYS,
    LANCER_REACH,
    NEAR2,
    NEAR4,
    SWIFT,
    VANGUARD,
    Move,
    holes_bb,
)


class GoalSafety(Movement):
    """Whether a Goal is in jeopardy, and whether a move leaves the mover's out of it."""

    __slots__ = ()

    # Whether goal safety is the flat game's (_jeopardy, is_battle_move_safe) or a variant's
    # that keeps _attack_map in step with its _jeopardy, so that _safe_battle_dests may judge
    # a warrior's moves together from one attack map.
    _plain_safety: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "_plain_safety" in cls.__dict__:
            return  # a variant that maps its own safety says so
        cls._plain_safety = (
            cls._jeopardy is GoalSafety._jeopardy
            and cls.is_battle_move_safe is GoalSafety.is_battle_move_safe
            and cls._ZONE is NB
        )

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
        # The attacker's Blockader strikes only a lying Goal, from two steps at most (what
        # bars it is asked for only then).
        blk = 0 if held else kb[BLOCKADER] & keep & NEAR2[g]
        return walkers_strike(
            kb,
            keep,
            g,
            BOARD & ~(own | foes | dzoc | holes),
            self.rules.power_vanguards,
            blk,
            self._blockader_bar(a, own, dzoc) if blk else 0,
        )

    def _blockader_bar(self, a: int, own: int, dzoc: int) -> int:
        """The squares that bar `a`'s Blockader from taking a Goal when one of them is beside
        it: the defender's warriors (`own`) and zone (`dzoc`), and `a`'s own Goal where it
        bars (_goal_bar)."""
        ag = self._goal_bar(a)
        return own | dzoc | (BIT[ag] if ag >= 0 else 0)

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
        if blk & (r1 | r2) and not held and not r1 & self._blockader_bar(a, own, dzoc):
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
            holes_bb(self._ablated_after(o, g == o)) if self.rules.ablative else 0,
        )

    def _after(self, side: int, move: Move) -> Self:
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

    def answers_crown(self) -> bool:
        """Whether the side to move replies to the enemy's crowning (Art. 13.3): the battle is
        over after this move, so nothing can capture afterwards and every legal move is safe
        (docs/rules.md, Readings 1)."""
        return self.outcome is None and self.crowned >= 0 and self.crowned != self.turn

    def is_safe(self, move: Move) -> bool:
        """Whether a legal move captures the enemy Goal or leaves the own Goal out of jeopardy."""
        if self.answers_crown():
            return True
        side, what = self.stage()
        if what == "warrior" or (what == "goal" and side == self.first):
            return True
        if move.origin is not None:
            return self.is_battle_move_safe(side, move.origin, move.dest, move.kind, move.carry)
        after = self.apply(move)
        if after.outcome is not None:
            return True
        return not after.is_in_jeopardy(side)

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
        quick, att0, read0, held, capture, gb = self._maps_start(side)
        g = self.goal[side]
        own = self.occ[side]
        foes = self.occ[1 - side]
        dblk = self.blk[side]
        # The maps' judging stays inline, a warrior at a time: it runs for every warrior of
        # every position a strict ruleset's perft or validation looks at.
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
                ok |= self._safe_among(side, o, kind, slow, False)
            yield o, kind, ok, self._safe_among(side, o, kind, carry, True) if carry else 0

    def _maps_start(self, side: int) -> tuple[bool, int, int, bool, int, int]:
        """What _safe_battle_dests judges `side`'s moves from: whether attack maps may judge
        them, the map of its Goal as it stands (attackers, squares read; 0, 0 when maps may
        not), whether the Goal is held, and the enemy Goal to capture and the own as bits."""
        g = self.goal[side]
        quick = g >= 0 and self._plain_safety and not self.rules.ablative and self._maps_hold(side)
        held = g >= 0 and self.sq[g] != 0
        eg = self._goal_to_capture(side)
        capture = 1 << eg if eg >= 0 else 0
        gb = 1 << g if g >= 0 else 0
        if not quick:
            return False, 0, 0, held, capture, gb
        att, read = self._attack_map(
            side, g, self.occ[side], self.occ[1 - side], self.blk[side], held
        )
        return True, att, read, held, capture, gb

    def _safe_among(self, side: int, o: int, kind: int, dests: int, carry: bool) -> int:
        """Those of `dests` where the move from `o` (carrying the Goal or not) is safe, judged
        one by one (is_battle_move_safe)."""
        safe = self.is_battle_move_safe
        ok = 0
        for t in iter_bits(dests):
            if safe(side, o, t, kind, carry):
                ok |= 1 << t
        return ok


def walkers_attack(
    kb: list[int], free: int, g: int, passable: int, vanguards: int, power: bool
) -> tuple[int, int, int]:
    """The walking warriors' part of an attack map on `g`, for a variant's own map
    (GoalSafety._attack_map reads the flat game's inline, as the hottest test there is):
    (those of `free` among the attacker's Vanguards given as `vanguards`, Lancers, Fencers
    and Swifts that reach `g` by paths over `passable`, every square those paths were read
    from, and the squares two steps from `g`, where a Blockader strikes from)."""
    r1 = NB[g]
    read = r1
    att = vanguards & (r1 | neighbours_bb(r1 & passable)) if power else vanguards & r1
    lancer = kb[LANCER] & free
    for ray in LANCER_RAYS[g] if lancer else ():
        for b in ray:
            read |= b
            if b & lancer:
                att |= b
                break
            if not b & passable:
                break
    r2 = neighbours_bb(r1 & passable)
    r3 = neighbours_bb(r2 & passable)
    read |= r2 | r3
    att |= kb[FENCER] & free & (r1 | r2 | r3)
    att |= kb[SWIFT] & free & (r2 | r3 | neighbours_bb(r3 & passable)) & ~r1
    return att, read, r2


def walkers_strike(
    kb: list[int], strikers: int, g: int, passable: int, power: bool, blockaders: int, bar: int
) -> bool:
    """Whether one of the attacker's walking warriors reaches a Goal on `g`: those of
    `strikers` among its Vanguards, Lancers, Fencers and Swifts (`kb` its squares by kind), by
    paths over `passable`, and its `blockaders`, from one or two steps when no square beside
    `g` is in `bar`. Read from the Goal outwards, stopping at the first: the one reading of
    the flat game's jeopardy test (GoalSafety._jeopardy) and of the variants' that only
    choose which warriors strike (the Italian society's)."""
    r1 = NB[g]
    vang = kb[VANGUARD] & strikers
    if vang & r1:
        return True
    if vang and power and vang & neighbours_bb(r1 & passable):
        return True
    # A Lancer off the lines through `g` is never on a ray: the walk is skipped.
    lancer = kb[LANCER] & strikers & LANCER_REACH[g]
    if lancer:
        for ray in LANCER_RAYS[g]:
            for b in ray:
                if b & lancer:
                    return True
                if not b & passable:
                    break
    fencer = kb[FENCER] & strikers
    if fencer & r1:
        return True
    swift = kb[SWIFT] & strikers
    if not (fencer | swift | blockaders):
        return False
    r2 = neighbours_bb(r1 & passable)
    if blockaders & (r1 | r2) and not r1 & bar:
        return True
    if not (fencer | swift):
        return False
    r3 = neighbours_bb(r2 & passable)
    if fencer & (r2 | r3):
        return True
    return bool(swift) and bool(swift & (r2 | r3 | neighbours_bb(r3 & passable)) & ~r1)
