"""Deadlock and counting: whether the side to act has a safe move (Art. 1.2, 5.1.2), perft."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from rules.board import (
    iter_bits,
)
from rules.pieces import BLOCKADER, Move, Outcome
from rules.safety import GoalSafety


class Deadlock(GoalSafety):
    """The moves accepted in a position (the safe ones, or none when deadlocked), and
    counting them."""

    __slots__ = ()

    def generate_moves(self) -> list[Move]:
        """The moves accepted in this position: all legal ones under `laws` unless the side to
        move is deadlocked, only the safe ones under a strict ruleset."""
        if self.answers_crown():
            return self.generate_legal_moves()
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

    def has_safe_move(self) -> bool:
        """Whether the side to act has a safe move (no deadlock)."""
        if self.outcome is not None:
            return False
        if self.answers_crown():
            return self.count_legal_moves() > 0
        side, what = self.stage()
        if what != "battle":
            if not self._needs_safety_check():
                return self.count_legal_moves() > 0
            return any(self.is_safe(m) for m in self.generate_legal_moves())
        return self._any_safe(side, self._battle_dests(side))

    def _any_safe(self, side: int, dests: Iterable[tuple[int, int, int, int]]) -> bool:
        """Whether one of the battle moves `dests` (as _battle_dests gives them) is safe."""
        if not self._plain_safety or self.rules.ablative:
            return self._any_safe_each(side, dests)
        # First the moves the maps judge at once, warrior by warrior (most often the first
        # has one), then (none safe) the others one by one, carrying the Goal away first.
        # The common ways out stay inline: this runs for every position perft counts.
        taken: list[tuple[int, int, int, int]] = []
        pending = iter(dests)

        def take() -> Iterator[tuple[int, int, int, int]]:
            """The destinations: those read before, then the others as they are read."""
            yield from taken
            for item in pending:
                taken.append(item)
                yield item

        g = self.goal[side]
        if g >= 0 and self._maps_hold(side):
            att, read = self._attack_map(
                side, g, self.occ[side], self.occ[1 - side], self.blk[side], self.sq[g] != 0
            )
            if att:
                return self._any_safe_in_jeopardy(side, take, att, read)
            # Nothing reaches the Goal: a warrior whose origin no path to it crosses may go
            # anywhere it can.
            for o, kind, d, _carry in take():
                if d and kind != BLOCKADER and o != g and not (1 << o) & read:
                    return True
        rest = []
        for o, kind, ok, slow in self._safe_battle_dests(side, take(), exact=False):
            if ok:
                return True
            rest.append((o, kind, slow))
        if self._carries_away(side, take()):
            return True
        safe = self.is_battle_move_safe
        return any(safe(side, o, t, kind, False) for o, kind, slow in rest for t in iter_bits(slow))

    def _any_safe_each(self, side: int, dests: Iterable[tuple[int, int, int, int]]) -> bool:
        """_any_safe move by move, for a safety the maps do not judge: a capture of the Goal,
        then carrying the own Goal away, then the other moves."""
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

    def _any_safe_in_jeopardy(
        self,
        side: int,
        dests: Callable[[], Iterator[tuple[int, int, int, int]]],
        att: int,
        read: int,
    ) -> bool:
        """_any_safe with the Goal in jeopardy by `att` (`read` the squares the map
        read): killing its one attacker or carrying it away saves it most often, and costs
        no map of a warrior's own; then the moves that may close the paths."""
        if not att & (att - 1) and self._kills_lone_attacker(side, dests(), att, read):
            return True
        if self._carries_away(side, dests()):
            return True
        return self._blocks_attack(side, dests(), att, read)

    def _kills_lone_attacker(
        self, side: int, dests: Iterable[tuple[int, int, int, int]], att: int, read: int
    ) -> bool:
        """Whether a move of `dests` kills the Goal's one attacker (`att`) safely: a kill by a
        warrior off the squares the map read is safe by the map (as _safe_battle_dests judges
        it); the others are tested one by one."""
        safe = self.is_battle_move_safe
        g = self.goal[side]
        a = att.bit_length() - 1
        for o, kind, d, _carry in dests:
            if d & att and (
                (kind != BLOCKADER and o != g and not (1 << o) & read)
                or safe(side, o, a, kind, False)
            ):
                return True
        return False

    def _carries_away(self, side: int, dests: Iterable[tuple[int, int, int, int]]) -> bool:
        """Whether a move of `dests` carrying the Goal is safe."""
        safe = self.is_battle_move_safe
        for o, kind, _d, carry in dests:
            for t in iter_bits(carry):
                if safe(side, o, t, kind, True):
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
        if self.answers_crown():
            return self.count_legal_moves()
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


def _count(dests: Iterable[tuple[int, int, int, int]]) -> int:
    """The number of battle moves in `dests` (as Position._battle_dests gives them)."""
    n = 0
    for _o, _kind, d, carry in dests:
        n += d.bit_count() + carry.bit_count()
    return n
