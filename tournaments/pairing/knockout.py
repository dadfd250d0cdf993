"""Knockout brackets: standard seeding (1 and 2 meet only in the final), byes to the top
seeds when the field is not a power of two, and replays of undecided ties."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def seeding_order(size: int) -> list[int]:
    """Seeds in bracket order for a bracket of `size` (a power of two): 1, size, ..."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def knockout_bracket(seeds: list[int]) -> list[tuple[int, int | None]]:
    """First-round ties for players listed strongest first: (higher seed, lower seed or None
    for a bye)."""
    n = len(seeds)
    size = 2  # one player alone still has a tie: a bye
    while size < n:
        size *= 2
    order = seeding_order(size)
    ties = []
    for i in range(0, size, 2):
        a, b = order[i], order[i + 1]
        pa = seeds[a - 1] if a <= n else None
        pb = seeds[b - 1] if b <= n else None
        if pa is None and pb is None:
            continue
        if pa is None:
            pa, pb = pb, None
        ties.append((pa, pb))
    return ties


def tie_winner(results: list[str]) -> str | None:
    """'first'/'second' for a decided tie, None when it goes to a replay (draws count for
    neither; Klin Zha draws are rare and cost both ½)."""
    first = sum(1 for r in results if r == "first")
    second = sum(1 for r in results if r == "second")
    if first > second:
        return "first"
    if second > first:
        return "second"
    return None


Tie = tuple[int, int | None]


def knockout_next_round(
    stage: list[Tie], played: list[tuple[int, int, str]], eliminated: frozenset[int] = frozenset()
) -> tuple[str, list[Tie]]:
    """What the next round of a knockout is, from the ties of the current stage (in bracket
    order) and every game played since the stage began as (first, second, outcome) with
    outcome "first", "second", "draw" or "" (no result yet):
    ("replay", ties still undecided, placement swapped), ("next", the next stage's ties:
    winners of neighbouring ties meet), or ("done", [(champion, None)]).
    An undecided tie whose players are all in `eliminated` (they left the event) is not
    replayed and sends nobody on; nor does the next stage pair anyone eliminated, and a
    stage with nobody left is ("next", []).
    A ValueError names a tie whose game has no result yet."""
    winners: list[int] = []
    replays: list[Tie] = []
    for a, b in stage:
        if b is None:
            winners.append(a)
            continue
        decided = tie_winner(_tie_results(a=a, b=b, played=played))
        if decided is None and {a, b} <= eliminated:
            continue
        if decided is None:
            replays.append(_tie_replay(a=a, b=b, played=played))
        else:
            winners.append(a if decided == "first" else b)
    if replays:
        return "replay", replays
    if len(winners) == 1:
        return "done", [(winners[0], None)]
    return "next", _stage_next(winners=winners, eliminated=eliminated)


def _tie_results(*, a: int, b: int, played: list[tuple[int, int, str]]) -> list[str]:
    """The tie's games as "first" (won by `a`), "second" (by `b`) or "draw"; a ValueError
    names a game of it without a result yet."""
    results = []
    for first, second, outcome in played:
        if {first, second} != {a, b}:
            continue
        if not outcome:
            raise ValueError(f"the game between {first} and {second} has no result yet")
        if outcome == "draw":
            results.append("draw")
        else:
            won = first if outcome == "first" else second
            results.append("first" if won == a else "second")
    return results


def _tie_replay(*, a: int, b: int, played: list[tuple[int, int, str]]) -> Tie:
    """The replay of an undecided tie: whoever placed first in its last game places second."""
    last_first = next((f for f, s, _ in reversed(played) if {f, s} == {a, b}), a)
    return (b, a) if last_first == a else (a, b)


def _stage_next(*, winners: list[int], eliminated: frozenset[int]) -> list[Tie]:
    """The next stage: winners of neighbouring ties meet (the odd one out goes on with a
    bye), no tie with only eliminated players."""
    ties: list[Tie] = [(winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)]
    if len(winners) % 2:
        ties.append((winners[-1], None))
    return [tie for tie in ties if not set(tie) - {None} <= eliminated]


def knockout_rounds(n: int) -> int:
    """The rounds a bracket of `n` players takes with no replays: ceil(log2 n), 0 for fewer
    than two."""
    return max(0, (n - 1).bit_length()) if n > 1 else 0


@dataclass(frozen=True, slots=True)
class BracketTie:
    """One tie of a stage: the two players (`second` None for a bye), its games in order as
    (first, second, outcome) and who goes on (None while undecided)."""

    first: int
    second: int | None
    games: tuple[tuple[int, int, str], ...] = ()
    winner: int | None = None


def knockout_stages(
    rounds: Sequence[Sequence[tuple[int, int | None, str]]],
) -> list[list[BracketTie]]:
    """The bracket's stages from the rounds played, each round's games as (first, second or
    None for a bye, outcome): a round whose every game is a tie of the current stage replays
    it; any other round starts a new stage (as knockout_next_round reads them)."""
    stages: list[list[tuple[int, int | None]]] = []
    played: list[list[tuple[int, int, str]]] = []
    for games in rounds:
        met = [frozenset((a, b)) for a, b, _ in games if b is not None]
        ties = {frozenset(t) for t in stages[-1]} if stages else set()
        if not stages or not met or not all(pair in ties for pair in met):
            stages.append([(a, b) for a, b, _ in games])
            played.append([])
        played[-1] += [(a, b, o) for a, b, o in games if b is not None]
    return [
        [_bracket_tie(a, b, games) for a, b in stage]
        for stage, games in zip(stages, played, strict=True)
    ]


def _bracket_tie(a: int, b: int | None, played: list[tuple[int, int, str]]) -> BracketTie:
    if b is None:
        return BracketTie(a, None, (), a)
    games = tuple(g for g in played if {g[0], g[1]} == {a, b})
    if any(not outcome for _, _, outcome in games):
        return BracketTie(a, b, games, None)
    decided = tie_winner(_tie_results(a=a, b=b, played=list(games)))
    winner = None if decided is None else (a if decided == "first" else b)
    return BracketTie(a, b, games, winner)
