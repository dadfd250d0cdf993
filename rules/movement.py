"""Movement: where warriors go (Art. 3), playing a move, and the reasons a move is refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Self

from rules.board import (
    BIT,
    BOARD,
    CORNER,
    FLY,
    NAME,
    NB,
    iter_bits,
    neighbours_bb,
)
from rules.errors import IllegalMoveError
from rules.pieces import (
    BLOCKADER,
    CAPTURED,
    FENCER,
    FLIER,
    GOAL,
    KIND_NAMES,
    LANCER,
    LANCER_RAYS,
    MOVE_ARTICLE,
    NO_SQUARE,
    VANGUARD,
    Move,
    Outcome,
    holes_bb,
)
from rules.placement import Placement


class Movement(Placement):
    """Battle moves: each warrior's destinations, generating and playing moves, checking a
    proposed one step by step."""

    __slots__ = ()

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

    # --- applying -----------------------------------------------------------------------------
    def apply(self, move: Move) -> Self:
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
            self.holes = holes_bb(self.ablated)
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
