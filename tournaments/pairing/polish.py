"""Improving a complete Swiss pairing by exchanging partners around short alternating cycles."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable
from itertools import islice

from tournaments.pairing.base import PairingPlayer

Pair = tuple[PairingPlayer, PairingPlayer]
# What a pair costs (lower is better; a sum of weighted criteria) and whether two may meet.
Cost = Callable[[PairingPlayer, PairingPlayer], int]
Allowed = Callable[[PairingPlayer, PairingPlayer], bool]
# A player's kind: two players of one kind cost alike against anyone (score and preference).
Kind = Callable[[PairingPlayer], Hashable]

# How many players of one kind, with partners of one kind, are looked at for a new partner
# (the first who may meet the freed player is usually taken), and how many in all.
_SCAN = 50
_BUDGET = 400_000


def pairs_polish(
    pairs: list[Pair],
    cost: Cost,
    ok: Allowed,
    kind: Kind,
    *,
    score_reach: Callable[[int], float],
    length: int = 4,
    passes: int = 3,
) -> list[Pair]:
    """Re-pair around alternating cycles of up to `length` pairs that lower the total cost:
    a pair breaks up, one of its players takes a new partner whose old partner takes another,
    and so on, until the last freed player takes the first pair's other player. Any pairing
    that is not the cheapest has such a cycle (the difference from the cheapest one is made of
    them), so short ones find most of what a greedy pass leaves. A step is only taken while
    the cycle still gains (as Lin and Kernighan's search), and players of one kind whose
    partners are of one kind are alike, so one of them is tried: the search stays small even in
    score groups of thousands. `score_reach(gain)` is how far apart in score a new pair may
    be while costing less than `gain`."""
    mate: dict[int, PairingPlayer] = {}
    for a, b in pairs:
        mate[a.id], mate[b.id] = b, a
    kinds: dict[int, Hashable] = {p.id: kind(p) for ab in pairs for p in ab}
    # Players by their own kind, then by their partner's kind (insertion-ordered, as sets).
    index: dict[Hashable, dict[Hashable, dict[int, PairingPlayer]]] = defaultdict(dict)

    def enter(p: PairingPlayer) -> None:
        index[kinds[p.id]].setdefault(kinds[mate[p.id].id], {})[p.id] = p

    def leave(p: PairingPlayer) -> None:
        del index[kinds[p.id]][kinds[mate[p.id].id]][p.id]

    for a, b in pairs:
        enter(a)
        enter(b)
    by_score: dict[float, list[Hashable]] = defaultdict(list)
    sample = {kinds[p.id]: p for ab in pairs for p in ab}
    for k, p in sample.items():
        by_score[p.score].append(k)
    scores = sorted(by_score)
    # What a pair of each two kinds costs (a few hundred kinds even in a field of thousands).
    table = {k: {j: cost(p, q) for j, q in sample.items()} for k, p in sample.items()}

    budget = [_BUDGET]

    def search(
        x: PairingPlayer, close: PairingPlayer, gain: int, used: set[int], path: list[Pair]
    ) -> list[Pair] | None:
        row, kc = table[kinds[x.id]], kinds[close.id]
        if path and row[kc] < gain and ok(x, close):
            return [*path, (x, close)]
        last = len(path) + 2 == length  # the partner freed next must close the cycle
        if len(path) + 1 >= length or budget[0] <= 0:
            return None
        reach = score_reach(gain)
        for s in scores:
            if abs(s - x.score) > reach:
                continue
            for ky in by_score[s]:
                base = gain - row[ky]
                if base <= 0:
                    continue
                broken = table[ky]
                for kz, ys in index[ky].items():
                    if not ys:
                        continue
                    left = base + broken[kz]
                    if last and table[kz][kc] >= left:
                        continue
                    for y in islice(ys.values(), _SCAN):
                        budget[0] -= 1
                        z = mate[y.id]
                        if y.id in used or z.id in used or not ok(x, y):
                            continue
                        got = search(z, close, left, used | {y.id, z.id}, [*path, (x, y)])
                        if got is not None:
                            return got
                        break  # others of this kind with partners of this kind are alike
        return None

    for _ in range(passes):
        changed = False
        start = sorted(((cost(a, b), a, b) for a, b in _current(mate)), key=lambda t: -t[0])
        for c, a, b in start:
            if c <= 0 or budget[0] <= 0:
                break
            if mate[a.id] is not b:
                continue  # already re-paired by an earlier cycle
            for x, close in ((a, b), (b, a)):
                got = search(x, close, c, {a.id, b.id}, [])
                if got is not None:
                    moved = {p.id: p for ab in got for p in ab}
                    for p in moved.values():
                        leave(p)
                    for p, q in got:
                        mate[p.id], mate[q.id] = q, p
                    for p in moved.values():
                        enter(p)
                    changed = True
                    break
        if not changed:
            break
    return _current(mate)


def _current(mate: dict[int, PairingPlayer]) -> list[Pair]:
    out = []
    for pid, q in mate.items():
        if pid < q.id:
            out.append((mate[q.id], q))
    return out
