"""The tie-breaks that count a player's own rounds (WIN, WON, BPG, BWG, PS, KS), the rating
ones (ARO, TPR, PTP) and the shifted Sonneborn-Berger Klin Zha used before FIDE's."""

from __future__ import annotations

from collections.abc import Callable

from tournaments.tiebreaks import rating
from tournaments.tiebreaks.catalogue import Spec
from tournaments.tiebreaks.rounds import Field, Slot


def count_values(field: Field, base: str) -> dict[int, float]:
    """WIN: rounds won with or without a game (Standard Points 1); WON: games won on the
    board; BPG / BWG: games played / won placed second (Klin Zha's black)."""
    test: Callable[[Slot], bool] = {
        "WIN": _is_win,
        "WON": _is_won,
        "BPG": _is_second,
        "BWG": _is_won_second,
    }[base]
    return {pid: float(sum(1 for s in slots if test(s))) for pid, slots in field.slots.items()}


def _is_win(s: Slot) -> bool:
    return s.standard == 1.0


def _is_won(s: Slot) -> bool:
    return s.won


def _is_second(s: Slot) -> bool:
    return s.placed_second


def _is_won_second(s: Slot) -> bool:
    return s.placed_second and s.won


def progressive_values(field: Field, spec: Spec) -> dict[int, float]:
    """The running score after every round summed, the first `cut_low` rounds left out; a
    round without a game adds its points (none for an absence) and still counts (Art. 7.5)."""
    out = {}
    for pid, slots in field.slots.items():
        running = total = 0.0
        for k, s in enumerate(slots, 1):
            running += s.points
            if k > spec.cut_low:
                total += running
        out[pid] = round(total, 6)
    return out


def koya_values(field: Field) -> dict[int, float]:
    """Points scored against opponents (met or forfeiting) who scored at least half of the
    maximum: half a win per round, less the rounds a round robin's odd field sits out."""
    games = field.n
    if field.round_robin and field.slots and field.n % len(field.slots) == 0:
        games -= field.n // len(field.slots)
    bar = 0.5 * games
    out = {}
    for pid, slots in field.slots.items():
        out[pid] = round(
            sum(
                s.points
                for s in slots
                if s.opponent is not None and field.score[s.opponent] >= bar - 1e-9
            ),
            6,
        )
    return out


def rating_values(field: Field, spec: Spec) -> dict[int, float]:
    """ARO (with its cuts), TPR or PTP over the games played against rated opponents (a
    rating of 0 is none: those games are left out), results in Standard Points."""
    out = {}
    for pid, slots in field.slots.items():
        games = sorted(
            (field.ratings[s.opponent], s.standard)
            for s in slots
            if s.played and s.opponent is not None and field.ratings.get(s.opponent, 0) > 0
        )
        low = min(spec.cut_low, len(games))
        high = min(spec.cut_high, len(games) - low)
        games = games[low : len(games) - high]
        ratings = [r for r, _ in games]
        points = sum(p for _, p in games)
        if spec.base == "ARO":
            out[pid] = float(rating.aro(ratings))
        elif spec.base == "TPR":
            out[pid] = float(rating.tpr(points, ratings))
        else:
            out[pid] = float(rating.ptp(points, ratings))
    return out


def shifted_sb_values(field: Field) -> dict[int, float]:
    """Klin Zha's own Sonneborn-Berger (SSB): the scores of the opponents beaten, plus half
    of those drawn with, each shifted by ½ per round so that none counts below zero."""
    shift = 0.5 * field.n
    out = {}
    for pid, slots in field.slots.items():
        out[pid] = round(
            sum(
                s.standard * (field.score[s.opponent] + shift)
                for s in slots
                if s.played and s.opponent is not None
            ),
            6,
        )
    return out
