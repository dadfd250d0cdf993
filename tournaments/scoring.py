"""Game points as tournaments.md scores them (a draw is −½ to each side), the effect of the
arbiter's penalties (Art. 12.4 d, e, f) on them (printed by rules.points.format_points)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Outcome(StrEnum):
    """One player's result in one round."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"
    FORFEIT_WIN = "forfeit_win"
    FORFEIT_LOSS = "forfeit_loss"
    DOUBLE_FORFEIT = "double_forfeit"
    BYE = "bye"  # pairing-allocated
    REQUESTED_BYE = "requested_bye"
    ABSENT = "absent"  # not paired (withdrawn, late entry, expelled)

    @property
    def played(self) -> bool:
        """Whether a battle was played over the board."""
        return self in (Outcome.WIN, Outcome.LOSS, Outcome.DRAW)


OPPOSITE = {
    Outcome.WIN: Outcome.LOSS,
    Outcome.LOSS: Outcome.WIN,
    Outcome.DRAW: Outcome.DRAW,
    Outcome.FORFEIT_WIN: Outcome.FORFEIT_LOSS,
    Outcome.FORFEIT_LOSS: Outcome.FORFEIT_WIN,
    Outcome.DOUBLE_FORFEIT: Outcome.DOUBLE_FORFEIT,
}


@dataclass(frozen=True, slots=True)
class ScoringSettings:
    """A tournament's points per outcome (tournaments.md; draw fixed by Art. 10.1)."""

    win: float = 1.0
    loss: float = 0.0
    draw: float = -0.5
    forfeit_win: float = 1.0
    forfeit_loss: float = 0.0
    double_forfeit: float = 0.0
    bye: float = 1.0
    requested_bye: float = 0.0
    absent: float = 0.0

    def points(self, outcome: Outcome) -> float:
        return {
            Outcome.WIN: self.win,
            Outcome.LOSS: self.loss,
            Outcome.DRAW: self.draw,
            Outcome.FORFEIT_WIN: self.forfeit_win,
            Outcome.FORFEIT_LOSS: self.forfeit_loss,
            Outcome.DOUBLE_FORFEIT: self.double_forfeit,
            Outcome.BYE: self.bye,
            Outcome.REQUESTED_BYE: self.requested_bye,
            Outcome.ABSENT: self.absent,
        }[outcome]


@dataclass(frozen=True, slots=True)
class PenaltyEffect:
    """An arbiter's penalty on one player's game: d) `declared_lost`, e) `reduce_by` points,
    f) `raise_to_max` (the opponent of an offender gets the maximum)."""

    declared_lost: bool = False
    reduce_by: float = 0.0
    raise_to_max: bool = False


def game_points(
    outcome: Outcome,
    settings: ScoringSettings,
    penalties: tuple[PenaltyEffect, ...] = (),
    opponent_penalties: tuple[PenaltyEffect, ...] = (),
) -> tuple[Outcome, float]:
    """(outcome, points) of one player after penalties, applied in this order: a battle
    declared lost (d) turns the offender's result into a loss and the opponent's into a win;
    then reductions (e) subtract; then raising to the maximum (f) sets the points to a win's."""
    if any(p.declared_lost for p in penalties):
        outcome = Outcome.LOSS if outcome.played else Outcome.FORFEIT_LOSS
    elif any(p.declared_lost for p in opponent_penalties):
        outcome = Outcome.WIN if outcome.played else Outcome.FORFEIT_WIN
    points = settings.points(outcome)
    points -= sum(p.reduce_by for p in penalties)
    if any(p.raise_to_max for p in penalties):
        points = max(points, settings.win)
    return outcome, points
