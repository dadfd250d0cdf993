"""Each player's rounds as the tie-break regulation sees them (C.07, Art. 16): played or
not, voluntarily unplayed or not, Standard Points, and the scores the formulas read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from tournaments.scoring import Outcome

# Where FIDE evaluates a round nobody played "as a draw" (an opponent's rounds after they
# left, Art. 16.3; Fore Buchholz's last round; the 2026 cap of Art. 16.4) it means a neutral
# half of a win. Klin Zha's draw is −½, below a loss (Art. 10.1): that would punish the
# opponents of a player who withdrew. These use the Standard Points draw, ½ (docs/tiebreaks.md).
NEUTRAL = 0.5

# Rounds the player chose not to play (Art. 16: a voluntarily unplayed round, VUR): cut first.
_VOLUNTARY = frozenset(
    {Outcome.REQUESTED_BYE, Outcome.ABSENT, Outcome.FORFEIT_LOSS, Outcome.DOUBLE_FORFEIT}
)
_STANDARD_PLAYED = {Outcome.WIN: 1.0, Outcome.DRAW: 0.5, Outcome.LOSS: 0.0}


class RoundLike(Protocol):
    """What the tie-breaks read of one player's round (tournaments.standings.RoundResult)."""

    @property
    def opponent(self) -> int | None: ...

    @property
    def outcome(self) -> Outcome: ...

    @property
    def points(self) -> float: ...

    @property
    def placed_first(self) -> bool | None: ...


@dataclass(frozen=True, slots=True)
class Slot:
    """One player's round n: the opponent met or paired (None: bye, absence), the points
    that count, Standard Points, and how Art. 16 classes it."""

    opponent: int | None
    points: float
    standard: float
    played: bool
    voluntary: bool
    placed_second: bool = False
    won: bool = False


ABSENT = Slot(None, 0.0, 0.0, played=False, voluntary=True)


def standard_points(outcome: Outcome, points: float, win: float = 1.0) -> float:
    """The revision's Standard Points: 1 for a win, ½ for a draw, 0 for a loss; a round
    without a game by its points (a whole win's points 1, any other gain ½, else 0)."""
    if outcome in _STANDARD_PLAYED:
        return _STANDARD_PLAYED[outcome]
    if outcome is Outcome.FORFEIT_WIN or points >= win:
        return 1.0
    return 0.5 if points > 0 else 0.0


def slot_of(r: RoundLike, known: Mapping[int, object]) -> Slot:
    """The Slot of one recorded round; an opponent outside the standings counts as none."""
    opponent = r.opponent if r.opponent in known else None
    played = r.outcome.played and opponent is not None
    std = standard_points(r.outcome, r.points)
    return Slot(
        opponent,
        r.points,
        std,
        played=played,
        voluntary=not played and r.outcome in _VOLUNTARY,
        placed_second=played and r.placed_first is False,
        won=played and r.outcome is Outcome.WIN,
    )


@dataclass(frozen=True, slots=True)
class Field:
    """The whole event's rounds 1..n for the tie-breaks: everyone's slots and scores."""

    n: int
    slots: Mapping[int, tuple[Slot, ...]]
    score: Mapping[int, float]
    ratings: Mapping[int, int]
    round_robin: bool = False


def field_make(
    *,
    rounds: Mapping[int, Mapping[int, RoundLike]],
    ratings: Mapping[int, int],
    n: int,
    round_robin: bool = False,
) -> Field:
    """A Field from each player's recorded rounds by number; a round not recorded is an
    absence (a late entry's first rounds, a withdrawn player's last ones)."""
    slots = {
        pid: tuple(
            slot_of(r, ratings) if (r := rounds.get(pid, {}).get(k)) is not None else ABSENT
            for k in range(1, n + 1)
        )
        for pid in ratings
    }
    score = {pid: round(sum(s.points for s in ss), 6) for pid, ss in slots.items()}
    return Field(n, slots, score, ratings, round_robin)
