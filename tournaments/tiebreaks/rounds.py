"""Each player's rounds as the tie-break regulation sees them (C.07, Art. 16): played or
not, voluntarily unplayed or not, Standard Points, and the scores the formulas read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple, Protocol

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


class Slot(NamedTuple):
    """One player's round n: the opponent met or paired (None: bye, absence), the points
    that count, Standard Points, and how Art. 16 classes it. A named tuple: a 1,000-player
    event has 11,000 of them per standings."""

    opponent: int | None
    points: float
    standard: float
    played: bool
    voluntary: bool
    placed_second: bool = False
    won: bool = False


ABSENT = Slot(None, 0.0, 0.0, False, True)


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
    outcome = r.outcome
    played = opponent is not None and outcome in _STANDARD_PLAYED
    std = _STANDARD_PLAYED[outcome] if played else standard_points(outcome, r.points)
    return Slot(
        opponent,
        r.points,
        std,
        played,
        not played and outcome in _VOLUNTARY,
        played and r.placed_first is False,
        played and outcome is Outcome.WIN,
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
    # slot_of written out, its tuples made without the named tuple's argument handling:
    # this runs for every round of every player on each standings computed.
    make, std_of, voluntary, win = tuple.__new__, _STANDARD_PLAYED, _VOLUNTARY, Outcome.WIN
    numbers = range(1, n + 1)
    slots: dict[int, tuple[Slot, ...]] = {}
    score: dict[int, float] = {}
    for pid in ratings:
        mine = rounds.get(pid) or {}
        row: list[Slot] = []
        add = row.append
        total = 0.0
        for k in numbers:
            r = mine.get(k)
            if r is None:
                add(ABSENT)
                continue
            opponent, outcome, points = r.opponent, r.outcome, r.points
            if opponent not in ratings:
                opponent = None
            total += points
            if opponent is not None and outcome in std_of:
                add(
                    make(
                        Slot,
                        (
                            opponent,
                            points,
                            std_of[outcome],
                            True,
                            False,
                            r.placed_first is False,
                            outcome is win,
                        ),
                    )
                )
            else:
                std = standard_points(outcome, points)
                add(make(Slot, (opponent, points, std, False, outcome in voluntary, False, False)))
        slots[pid] = tuple(row)
        score[pid] = round(total, 6)
    return Field(n, slots, score, ratings, round_robin)
