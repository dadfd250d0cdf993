"""The round robin's grid on plain standings rows: each player's results against each other
player, both legs of a double round robin, penalties and annulled games as the crosstable
writes them."""

from __future__ import annotations

from rules.points import format_points
from tournaments.crosstable_grid import GridCell, grid_cells
from tournaments.scoring import Outcome
from tournaments.standings import Entrant, RoundResult, StandingRow


def row(rank: int, pid: int, *results: RoundResult) -> StandingRow:
    return StandingRow(rank, Entrant(pid, f"P{pid}"), 0.0, {}, {r.round: r for r in results})


def test_double_round_robin_cells():
    a = row(
        1,
        10,
        RoundResult(1, 10, 20, Outcome.WIN, 1.0, True),
        RoundResult(2, 10, 30, Outcome.DRAW, -0.5, False),
        RoundResult(5, 10, None, Outcome.BYE, 1.0),
        RoundResult(4, 10, 20, Outcome.FORFEIT_WIN, 1.0, False),
    )
    b = row(
        2,
        20,
        RoundResult(1, 20, 10, Outcome.LOSS, 0.0, False),
        RoundResult(3, 20, 30, Outcome.WIN, 1.0, True, penalized=True),
        RoundResult(4, 20, 10, Outcome.FORFEIT_LOSS, 0.0, True),
    )
    c = row(
        3,
        30,
        RoundResult(2, 30, 10, Outcome.DRAW, -0.5, True, counted=False),
        RoundResult(3, 30, 20, Outcome.LOSS, 0.0, False),
    )
    grid = grid_cells([a, b, c])
    texts = [[cell.text() for cell in line] for line in grid]
    assert texts == [
        ["×", "1 +", "="],
        ["0 -", "×", f"{format_points(1.0)}*"],
        ["(=)", "0", "×"],
    ]
    assert grid[0][0] == GridCell(own=True)
    assert grid[0][1].results == ("1", "+")  # the two legs, in round order
