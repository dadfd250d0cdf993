"""Knockout brackets: standard seeding (1 and 2 meet only in the final), byes to the top
seeds when the field is not a power of two, and replays of undecided ties."""

from __future__ import annotations


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
    size = 1
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
