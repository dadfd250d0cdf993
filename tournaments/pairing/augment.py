"""Maximum pairings by augmenting paths (Edmonds' blossom search), for the Swiss engine."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from tournaments.pairing.base import PairingPlayer

# Whether two players may meet this round.
Allowed = Callable[[PairingPlayer, PairingPlayer], bool]


def pairs_complete(
    players: list[PairingPlayer],
    pairs: list[tuple[PairingPlayer, PairingPlayer]],
    ok: Allowed,
) -> tuple[list[tuple[PairingPlayer, PairingPlayer]], list[PairingPlayer]]:
    """Grow `pairs` to a maximum set of pairs among `players` (sorted by score, then rank) by
    augmenting paths (Edmonds), trying the highest-placed unpaired players first. An augmenting
    path re-pairs only the few players along it, so the pairs made before mostly stand, and
    neighbours are tried nearest in the order first, so paths stay within close scores."""
    index = {p.id: i for i, p in enumerate(players)}
    m = len(players)
    mate = [-1] * m
    for a, b in pairs:
        mate[index[a.id]] = index[b.id]
        mate[index[b.id]] = index[a.id]
    for root in range(m):
        if mate[root] == -1:
            _augment(players, mate, root, ok)
    out = [(players[i], players[j]) for i, j in enumerate(mate) if j > i]
    return out, [players[i] for i in range(m) if mate[i] == -1]


def _augment(players: list[PairingPlayer], mate: list[int], root: int, ok: Allowed) -> bool:
    """One augmenting path from the unpaired `root` by Edmonds' blossom search; True when
    found (`mate` then pairs one more couple)."""
    m = len(players)
    parent = [-1] * m
    base = list(range(m))
    seen = [False] * m
    seen[root] = True
    queue = deque([root])

    def lca(a: int, b: int) -> int:
        on_path = [False] * m
        while True:
            a = base[a]
            on_path[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if on_path[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        pv = players[v]
        for d in range(1, m):
            for to in (v - d, v + d):
                if to < 0 or to >= m or base[v] == base[to] or mate[v] == to:
                    continue
                if not ok(pv, players[to]):
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    b = lca(v, to)
                    blossom = [False] * m
                    mark(v, b, to, blossom)
                    mark(to, b, v, blossom)
                    for i in range(m):
                        if blossom[base[i]]:
                            base[i] = b
                            if not seen[i]:
                                seen[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        while to != -1:
                            up = parent[to]
                            nxt = mate[up]
                            mate[to], mate[up] = up, to
                            to = nxt
                        return True
                    seen[mate[to]] = True
                    queue.append(mate[to])
    return False
