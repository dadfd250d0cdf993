"""The round robin's crosstable as a player-by-player grid (plain objects, no database)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from tournaments.standings import SYMBOL, CrossCell, StandingRow


class GridCell(NamedTuple):
    """The row player's results against the column player, round by round (two in a double
    round robin), each as the crosstable writes a result (1, 0, =, +, -, a penalty's points
    with *, in brackets when not counted); `own` for the diagonal."""

    results: tuple[str, ...] = ()
    own: bool = False

    def text(self) -> str:
        return "×" if self.own else " ".join(self.results)


def grid_cells(rows: Sequence[StandingRow]) -> list[list[GridCell]]:
    """For each standings row, a cell for each player in the same order as the rows."""
    order = [row.entrant.id for row in rows]
    table = []
    for row in rows:
        against: dict[int, list[str]] = {}
        for number in sorted(row.rounds):
            r = row.rounds[number]
            if r.opponent is None:
                continue
            cell = CrossCell(
                None, r.placed_first, SYMBOL[r.outcome], r.counted, r.penalized, r.points
            )
            against.setdefault(r.opponent, []).append(cell.text())
        table.append(
            [
                GridCell(own=True)
                if pid == row.entrant.id
                else GridCell(tuple(against.get(pid, ())))
                for pid in order
            ]
        )
    return table
