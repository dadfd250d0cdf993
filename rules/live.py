"""A battle played ply by ply on the server: each ply checked as the validator checks it, the
legal plies of the side to act, the ending, and the record of what was played."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from rules.engines import new_position
from rules.errors import IllegalMoveError, NotationError
from rules.notation import Notation, Ply, describe_move, format_ply, parse_ply, written_reader
from rules.position import COLOR_NAMES, RULESET_ITALIAN, Move, Outcome, Position, Rules
from rules.record import TAG_ORDER, Record, RecordPly, notation_from_tags
from rules.validate import Warning, replay_ply, rules_from_tags

# The tags a battle starts from, kept in its record (the record's own order up to the time
# control; the tags after it are the ending's).
START_TAGS: Final = TAG_ORDER[: TAG_ORDER.index("TimeControl") + 1]
# The Article of a ply that cannot be read, as the validator names it.
_NOTATION_ARTICLE: Final = "Appendix C"


@dataclass(frozen=True, slots=True)
class PlyRefusal:
    """Why the server refused ply `ply`: the validator's reason and Article (`code` and
    `params` name the message in rules/messages.py)."""

    ply: int
    reason: str
    article: str | None
    code: str | None
    params: Mapping[str, str]

    def as_dict(self) -> dict[str, object]:
        """The protocol's `error` object (docs/online-play.md)."""
        return {"ply": self.ply, "article": self.article, "message": str(self.reason)}


class PlyRefused(ValueError):
    """A ply the rules refuse; nothing was played."""

    def __init__(self, refusal: PlyRefusal) -> None:
        super().__init__(str(refusal.reason))
        self.refusal = refusal


@dataclass(frozen=True, slots=True)
class Played:
    """A ply the server accepted: its number, its text in the writer's form (what the
    record keeps), whether it completed its side's move for the clock (Art. 6.7), and the
    validator's warnings (a ply sent without its kill mark, say)."""

    n: int
    text: str
    side: int
    completes_move: bool
    warnings: tuple[Warning, ...]


class LiveBattle:
    """One battle from its start tags: the plies played so far and the position they make."""

    def __init__(self, tags: Mapping[str, str]) -> None:
        """A battle about to start; IllegalMoveError for tags naming unknown or forbidden
        rules (the validator's record-level errors)."""
        self.tags = {k: v for k, v in tags.items() if k in START_TAGS}
        rules, first = rules_from_tags(self.tags)
        self.rules: Rules = rules
        self.first = first
        self.notation: Notation = notation_from_tags(self.tags)
        self.position: Position = new_position(rules, first)
        self.plies: list[Ply] = []
        self.texts: list[str] = []
        self.completed = [0, 0]
        self._outcome: Outcome | None = None
        self._reader = written_reader(self.notation)

    @classmethod
    def replay(cls, tags: Mapping[str, str], texts: Sequence[str]) -> LiveBattle:
        """The battle after `texts`, plies the server accepted before (PlyRefused if one is
        refused now: stored plies that no longer play)."""
        battle = cls(tags)
        for text in texts:
            battle.play(text)
        return battle

    def copy(self) -> LiveBattle:
        """An independent copy (to try a ply without playing it here)."""
        other = LiveBattle.__new__(LiveBattle)
        other.tags = dict(self.tags)
        other.rules = self.rules
        other.first = self.first
        other.notation = self.notation
        other.position = self.position.copy()
        other.plies = self.plies[:]
        other.texts = self.texts[:]
        other.completed = self.completed[:]
        other._outcome = self._outcome
        other._reader = self._reader
        return other

    # --- where it stands -----------------------------------------------------------------
    @property
    def next_n(self) -> int:
        """The number the next ply will have (1-based)."""
        return len(self.plies) + 1

    @property
    def outcome(self) -> Outcome | None:
        """What the moves decided: a capture or a deadlock (Art. 5.1), or None."""
        return self._outcome

    @property
    def side(self) -> int:
        """The side to act (0 green, 1 gold)."""
        return self.position.stage()[0]

    @property
    def turn(self) -> str:
        """The colour to act."""
        return COLOR_NAMES[self.side]

    @property
    def phase(self) -> str:
        """`placement`, `battle` or `over` (the protocol's `phase`)."""
        if self._outcome is not None:
            return "over"
        return "battle" if self.position.stage()[1] == "battle" else "placement"

    def next_completes_move(self) -> bool:
        """Whether the next ply completes its side's move for the clock: a battle move, or
        the ply that completes a side's setup, its move 1 (Art. 6.7)."""
        pos = self.position
        return pos.stage()[1] == "battle" or pos.completes_setup()

    def draws_allowed(self) -> bool:
        """Whether the battle may end by agreement: not under the Italian society's rules,
        which have no draws."""
        return self.rules.ruleset != RULESET_ITALIAN

    def legal(self) -> list[str]:
        """The plies the side to act may play, in the writer's form; empty once it is over.
        Kinta's combats are left out: they are not played online yet."""
        if self._outcome is not None:
            return []
        pos = self.position
        side = pos.stage()[0]
        return [
            format_ply(describe_move(pos, m), self.notation)
            for m in pos.generate_moves()
            if not self._is_kinta_combat(side, m)
        ]

    # --- playing -------------------------------------------------------------------------
    def play(self, text: str) -> Played:
        """Play one ply written in the record's notation, checked as `kz validate` checks it;
        PlyRefused (the ply number, the Article, the validator's message) leaves the battle as
        it was."""
        n = self.next_n
        ply = self._read(text, n)
        pos = self.position
        side, stage = pos.stage()
        move = ply.to_move()
        if self._outcome is None and self._is_kinta_combat(side, move):
            raise _refused(n, IllegalMoveError.coded("combat_not_online", "D.1.5"))
        written = describe_move(pos, move)
        completes = self.next_completes_move()
        warnings: list[Warning] = []
        problem = replay_ply(pos, RecordPly(ply, text), n, self.notation, warnings)
        if problem is not None:
            reason, article = problem
            error = IllegalMoveError(reason, article)
            raise _refused(n, error)
        self.plies.append(written)
        self.texts.append(format_ply(written, self.notation))
        self.completed[side] += int(completes)
        self._outcome = pos.final_outcome()
        return Played(n, self.texts[-1], side, completes, tuple(warnings))

    def _read(self, text: str, n: int) -> Ply:
        """The one ply `text` writes, read as the record reader reads it."""
        stripped = text.strip()
        if not stripped or "{" in stripped or "}" in stripped or "\n" in stripped:
            raise _refused(
                n, IllegalMoveError.coded("one_ply_only", _NOTATION_ARTICLE, text=repr(text))
            )
        ply = self._reader(stripped)
        if ply is not None:
            return ply
        try:
            return parse_ply(stripped, self.notation)
        except NotationError as exc:
            raise _refused(n, IllegalMoveError(exc.reason, _NOTATION_ARTICLE)) from None

    def _is_kinta_combat(self, side: int, move: Move) -> bool:
        """Whether `move` sets two warriors fighting under Kinta (its destination holds an
        enemy warrior, D.1): the server does not cast the spindles yet."""
        if "kinta" not in self.rules.variants or move.origin is None:
            return False
        code = self.position.sq[move.dest]
        return bool(code) and code >> 3 != side

    # --- the ending ----------------------------------------------------------------------
    def time_out(self, flagged: int, coin: str = "") -> tuple[str, dict[str, str]]:
        """(result, tags to add) when `flagged`'s time ran out: the other side wins (Art.
        6.5) unless the ruleset decides a time-out by a count (the Italian society's), where
        a tie goes to `coin` (green or gold), recorded in the `Coin` tag."""
        # No FlagPly: the flag fell during the ply not made, after the record's last, which
        # is where `kz clock` places a Flag without one.
        tags = {"Flag": COLOR_NAMES[flagged]}
        count = self.position.time_out_count() if self.position.counts_at_time_out else None
        if count is None:
            return COLOR_NAMES[1 - flagged], tags
        winner = count[0]
        if winner is None:
            tags["Coin"] = coin
            return coin, tags
        return COLOR_NAMES[winner], tags

    def record(
        self,
        *,
        result: str = "*",
        termination: str = "",
        clocks: Sequence[int | None] = (),
        extra: Mapping[str, str] | None = None,
    ) -> Record:
        """The record of what was played: the start tags, `Result` and `Termination` (the
        record format's values) and `extra` tags; each ply with its clock reading in seconds
        when `clocks` gives one."""
        tags = dict(self.tags)
        tags["Result"] = result
        if termination:
            tags["Termination"] = termination
        tags.update(extra or {})
        readings = list(clocks) + [None] * (len(self.plies) - len(clocks))
        plies = [
            RecordPly(ply, text, reading)
            for ply, text, reading in zip(self.plies, self.texts, readings, strict=False)
        ]
        return Record(tags, plies)


def _refused(n: int, error: IllegalMoveError) -> PlyRefused:
    """The refusal of ply `n` for `error`."""
    return PlyRefused(PlyRefusal(n, error.reason, error.article, error.code, dict(error.params)))


__all__ = [
    "START_TAGS",
    "LiveBattle",
    "Played",
    "PlyRefusal",
    "PlyRefused",
]
