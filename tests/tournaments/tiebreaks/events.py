"""Small events for the tie-break tests, built on plain objects: both sides of each game by
the default scoring (a draw is −½ to each side)."""

from __future__ import annotations

from tournaments.scoring import OPPOSITE, Outcome, ScoringSettings
from tournaments.standings import Entrant, RoundResult, StandingRow, compute_standings

S = ScoringSettings()
W, L, D = Outcome.WIN, Outcome.LOSS, Outcome.DRAW


def game(rnd: int, p: int, q: int, outcome: Outcome, first: bool = True) -> list[RoundResult]:
    """Both sides of one pairing: `p` has `outcome` and places first unless `first` is False."""
    other = OPPOSITE[outcome]
    return [
        RoundResult(rnd, p, q, outcome, S.points(outcome), first),
        RoundResult(rnd, q, p, other, S.points(other), not first),
    ]


def solo(rnd: int, p: int, outcome: Outcome) -> list[RoundResult]:
    """A round without an opponent: a bye or an absence."""
    return [RoundResult(rnd, p, None, outcome, S.points(outcome))]


# Event A: 6 players, 4 rounds: a pairing-allocated bye (5 in rounds 1 and 4), a requested
# bye (3 in round 3), a forfeit (6 to 2 in round 3), a withdrawal after round 2 (4), a late
# entry (6 misses round 1), draws at −½.
EVENT_A = dict(
    n=4,
    ratings={1: 1800, 2: 1750, 3: 1700, 4: 1650, 5: 1600, 6: 1550},
    results=[
        *game(1, 1, 2, W),
        *game(1, 3, 4, D),
        *solo(1, 5, Outcome.BYE),
        *game(2, 1, 3, D),
        *game(2, 2, 5, L),
        *game(2, 4, 6, W),
        *game(3, 1, 5, W),
        *game(3, 2, 6, Outcome.FORFEIT_WIN),
        *solo(3, 3, Outcome.REQUESTED_BYE),
        *game(4, 1, 6, L),
        *game(4, 2, 3, W),
        *solo(4, 5, Outcome.BYE),
    ],
)

# Event B: 5 players, 3 rounds: a bye each round, both placings, two draws.
EVENT_B = dict(
    n=3,
    ratings={1: 2000, 2: 1900, 3: 1800, 4: 1700, 5: 1600},
    results=[
        *game(1, 1, 2, D),
        *game(1, 3, 4, W, False),
        *solo(1, 5, Outcome.BYE),
        *game(2, 1, 3, W, False),
        *game(2, 5, 2, W),
        *solo(2, 4, Outcome.BYE),
        *game(3, 5, 1, D),
        *game(3, 2, 4, L, False),
        *solo(3, 3, Outcome.BYE),
    ],
)


def values(event: dict, codes: tuple[str, ...], rules: str = "2026") -> dict[int, dict[str, float]]:
    """Each player's value of each code, by player id."""
    entrants = [Entrant(pid, f"P{pid}", r) for pid, r in event["ratings"].items()]
    rows: list[StandingRow] = compute_standings(
        entrants, event["results"], tiebreaks=codes, rounds_completed=event["n"], rules=rules
    )
    return {row.entrant.id: dict(row.tiebreaks) for row in rows}
