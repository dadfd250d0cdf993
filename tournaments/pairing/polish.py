"""Improving a complete Swiss pairing by exchanging partners around short alternating cycles."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
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
    cycles = _cycles_make(
        pairs=pairs, cost=cost, ok=ok, kind=kind, score_reach=score_reach, length=length
    )
    for _ in range(passes):
        if not _pass_make(cycles=cycles, cost=cost):
            break
    return _current(cycles.mate)


@dataclass(slots=True)
class _Cycles:
    """A polish under way: who is paired with whom, players by their own kind then by their
    partner's kind (insertion-ordered, as sets), the kinds by score, what a pair of each two
    kinds costs, and how many more players the search may look at."""

    mate: dict[int, PairingPlayer]
    kinds: dict[int, Hashable]
    index: dict[Hashable, dict[Hashable, dict[int, PairingPlayer]]]
    by_score: dict[float, list[Hashable]]
    scores: list[float]
    table: dict[Hashable, dict[Hashable, int]]
    ok: Allowed
    score_reach: Callable[[int], float]
    length: int
    budget: int = _BUDGET


def _cycles_make(
    *,
    pairs: list[Pair],
    cost: Cost,
    ok: Allowed,
    kind: Kind,
    score_reach: Callable[[int], float],
    length: int,
) -> _Cycles:
    """The polish's state for `pairs`, every player entered in the index."""
    mate: dict[int, PairingPlayer] = {}
    for a, b in pairs:
        mate[a.id], mate[b.id] = b, a
    kinds: dict[int, Hashable] = {p.id: kind(p) for ab in pairs for p in ab}
    by_score: dict[float, list[Hashable]] = defaultdict(list)
    sample = {kinds[p.id]: p for ab in pairs for p in ab}
    for k, p in sample.items():
        by_score[p.score].append(k)
    cycles = _Cycles(
        mate=mate,
        kinds=kinds,
        index=defaultdict(dict),
        by_score=by_score,
        scores=sorted(by_score),
        # A few hundred kinds even in a field of thousands.
        table={k: {j: cost(p, q) for j, q in sample.items()} for k, p in sample.items()},
        ok=ok,
        score_reach=score_reach,
        length=length,
    )
    for a, b in pairs:
        _enter(cycles=cycles, p=a)
        _enter(cycles=cycles, p=b)
    return cycles


def _enter(*, cycles: _Cycles, p: PairingPlayer) -> None:
    kinds = cycles.kinds
    cycles.index[kinds[p.id]].setdefault(kinds[cycles.mate[p.id].id], {})[p.id] = p


def _leave(*, cycles: _Cycles, p: PairingPlayer) -> None:
    kinds = cycles.kinds
    del cycles.index[kinds[p.id]][kinds[cycles.mate[p.id].id]][p.id]


def _pass_make(*, cycles: _Cycles, cost: Cost) -> bool:
    """One pass over the pairs, costliest first, re-pairing around the first gaining cycle
    found from either player of each; whether anything changed."""
    changed = False
    mate = cycles.mate
    start = sorted(((cost(a, b), a, b) for a, b in _current(mate)), key=lambda t: -t[0])
    for c, a, b in start:
        if c <= 0 or cycles.budget <= 0:
            break
        if mate[a.id] is not b:
            continue  # already re-paired by an earlier cycle
        for x, close in ((a, b), (b, a)):
            got = _search(x=x, close=close, gain=c, used={a.id, b.id}, path=[], cycles=cycles)
            if got is not None:
                _cycle_apply(cycles=cycles, cycle=got)
                changed = True
                break
    return changed


def _cycle_apply(*, cycles: _Cycles, cycle: list[Pair]) -> None:
    """Pair the players as the cycle says, keeping the index up to date."""
    mate = cycles.mate
    moved = {p.id: p for ab in cycle for p in ab}
    for p in moved.values():
        _leave(cycles=cycles, p=p)
    for p, q in cycle:
        mate[p.id], mate[q.id] = q, p
    for p in moved.values():
        _enter(cycles=cycles, p=p)


def _search(
    *,
    x: PairingPlayer,
    close: PairingPlayer,
    gain: int,
    used: set[int],
    path: list[Pair],
    cycles: _Cycles,
) -> list[Pair] | None:
    """A cycle from the freed player `x` back to `close` costing less than `gain` more than
    the pairs it breaks, after the new pairs of `path`; None when there is none within the
    cycle length and the budget."""
    row, kc = cycles.table[cycles.kinds[x.id]], cycles.kinds[close.id]
    if path and row[kc] < gain and cycles.ok(x, close):
        return [*path, (x, close)]
    last = len(path) + 2 == cycles.length  # the partner freed next must close the cycle
    if len(path) + 1 >= cycles.length or cycles.budget <= 0:
        return None
    for y, z, left in _steps(x=x, kc=kc, gain=gain, used=used, last=last, cycles=cycles):
        got = _search(
            x=z,
            close=close,
            gain=left,
            used=used | {y.id, z.id},
            path=[*path, (x, y)],
            cycles=cycles,
        )
        if got is not None:
            return got
    return None


def _steps(
    *, x: PairingPlayer, kc: Hashable, gain: int, used: set[int], last: bool, cycles: _Cycles
) -> Iterator[tuple[PairingPlayer, PairingPlayer, int]]:
    """The next steps of a cycle from `x` (whose cycle must close on a player of kind `kc`):
    a new partner `y`, the partner `z` it frees and the gain left, one for each kind of `y`
    within reach of `x`'s score and kind of `z` that still gains: the first `y` of those
    kinds that `x` may meet, outside the cycle (each player looked at costs budget)."""
    table, index, mate, ok = cycles.table, cycles.index, cycles.mate, cycles.ok
    by_score, row = cycles.by_score, table[cycles.kinds[x.id]]
    reach, x_score = cycles.score_reach(gain), x.score
    for s in cycles.scores:
        if abs(s - x_score) > reach:
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
                    cycles.budget -= 1
                    z = mate[y.id]
                    if y.id in used or z.id in used or not ok(x, y):
                        continue
                    yield y, z, left
                    break  # others of this kind with partners of this kind are alike


def _current(mate: dict[int, PairingPlayer]) -> list[Pair]:
    out = []
    for pid, q in mate.items():
        if pid < q.id:
            out.append((mate[q.id], q))
    return out
