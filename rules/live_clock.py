"""The server's clock for a battle played online (Art. 6): time left by the Art. 6.4 forms,
the ply's reading, and lag compensation under a quota as lichess gives it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rules.clock import TimeControl, allotted_seconds

# Lag compensation (lichess's LagTracker): a side starts with a quota, each move is
# compensated by its lag up to the quota and to a cap, then the quota grows by a gain up to
# a maximum. A steady slow line is compensated every move; claimed lag buys at most the
# gain a move.
LAG_QUOTA_START_MS: Final = 2000
LAG_QUOTA_GAIN_MS: Final = 1000
LAG_QUOTA_MAX_MS: Final = 5000
LAG_MOVE_MAX_MS: Final = 3000


def lag_compensate(lag_ms: int, quota_ms: int) -> tuple[int, int]:
    """(the compensation for a move that took `lag_ms` in transit, the quota after it)."""
    comp = max(0, min(lag_ms, quota_ms, LAG_MOVE_MAX_MS))
    return comp, min(quota_ms + LAG_QUOTA_GAIN_MS - comp, LAG_QUOTA_MAX_MS)


def time_left_ms(tc: TimeControl | None, completed: int, used_ms: int) -> int | None:
    """A side's time left having completed `completed` moves (its setup is move 1, Art. 6.7)
    and used `used_ms`: what the periods reached and the increments gave, less what it used.
    None without a time control."""
    if tc is None:
        return None
    return allotted_seconds(tc, completed) * 1000 - used_ms


def reading_seconds(left_ms: int) -> int:
    """The record's `[%clk]` reading for `left_ms` left: whole seconds, rounded up, so that a
    reading of 0:00:00 always means a fallen flag (records.md §4)."""
    return max(0, -(-left_ms // 1000))


@dataclass(frozen=True, slots=True)
class Charge:
    """What a ply costs its mover: the time charged, the lag compensated, the quota after,
    and the time left after the ply (None without a time control), or `flagged` when the
    time ran out before the ply arrived."""

    charged_ms: int
    compensated_ms: int
    quota_ms: int
    left_ms: int | None
    flagged: bool


def ply_charge(
    tc: TimeControl | None,
    *,
    elapsed_ms: int,
    lag_ms: int,
    quota_ms: int,
    completed: int,
    used_ms: int,
    completes_move: bool,
) -> Charge:
    """The charge for a ply that arrived `elapsed_ms` after its mover's clock started, with
    `lag_ms` of estimated transit; the mover had completed `completed` moves and used
    `used_ms`. The flag fell when the time charged reaches the time it had."""
    comp, quota = lag_compensate(lag_ms, quota_ms)
    charged = max(0, elapsed_ms - comp)
    before = time_left_ms(tc, completed, used_ms)
    if before is not None and charged >= before:
        return Charge(before, comp, quota_ms, 0, True)
    after = time_left_ms(tc, completed + int(completes_move), used_ms + charged)
    return Charge(charged, comp, quota, after, False)


def flag_due_ms(tc: TimeControl | None, *, completed: int, used_ms: int) -> int | None:
    """How long after its clock started the side to act's flag falls, with no ply (None
    without a time control)."""
    return time_left_ms(tc, completed, used_ms)


def lag_estimate(offsets_ms: list[int]) -> int:
    """A socket's lag from the offsets (server time less the client's `t`) of its pings: the
    latest above the smallest seen, the delay beyond the line's best transit (the two
    clocks' difference cancels out); 0 without pings."""
    if not offsets_ms:
        return 0
    return max(0, offsets_ms[-1] - min(offsets_ms))


__all__ = [
    "LAG_MOVE_MAX_MS",
    "LAG_QUOTA_GAIN_MS",
    "LAG_QUOTA_MAX_MS",
    "LAG_QUOTA_START_MS",
    "Charge",
    "flag_due_ms",
    "lag_compensate",
    "lag_estimate",
    "ply_charge",
    "reading_seconds",
    "time_left_ms",
]
