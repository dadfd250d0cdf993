"""A slow, literal reading of rules.md §3-5 used to cross-check the fast move generator."""

from __future__ import annotations

from rules.board import NEIGHBOURS, ijk
from rules.position import (
    BLOCKADER,
    FENCER,
    FLIER,
    IS_CARRIER,
    LANCER,
    SWIFT,
    VANGUARD,
    Position,
)

STEPS = {
    VANGUARD: (1, 1, False),
    FENCER: (1, 3, False),
    LANCER: (1, 3, True),
    SWIFT: (2, 4, False),
    FLIER: (3, 6, True),
    BLOCKADER: (1, 2, False),
}


def _paths(origin: int, lo: int, hi: int, straight: bool) -> list[tuple[int, ...]]:
    """Every simple path (origin excluded) of lo..hi steps, straight or any."""
    out: list[tuple[int, ...]] = []

    def walk(path: list[int]) -> None:
        steps = len(path) - 1
        if steps >= lo:
            out.append(tuple(path[1:]))
        if steps == hi:
            return
        for n in NEIGHBOURS[path[-1]]:
            if n in path:
                continue
            new = path + [n]
            if straight and not any(len({ijk(s)[c] for s in new}) == 1 for c in range(3)):
                continue
            walk(new)

    walk([origin])
    return out


def zoc(pos: Position, side: int) -> set[int]:
    b = pos.blk[side]
    return set(NEIGHBOURS[b]) if b >= 0 else set()


def legal_battle_moves(pos: Position) -> set[tuple[int, int, bool]]:
    side = pos.turn
    enemy = 1 - side
    ezoc = zoc(pos, enemy)
    allzoc = ezoc | zoc(pos, side)
    out: set[tuple[int, int, bool]] = set()
    holes = set(pos.ablated)
    clouds = set(pos.rules.clouds) if "clouded" in pos.rules.variants else set()
    for o in range(len(pos.sq)):
        code = pos.sq[o]
        if not code or code >> 3 != side:
            continue
        kind = code & 7
        lo, hi, straight = STEPS[kind]
        if kind == VANGUARD and "power-vanguards" in pos.rules.variants:
            lo, hi, straight = 1, 2, False
        for path in _paths(o, lo, hi, straight):
            t = path[-1]
            if kind != FLIER and any(pos.sq[s] or s in ezoc or s in holes for s in path[:-1]):
                continue
            if t in holes:
                continue
            target = pos.piece_at(t)
            if target and t in clouds:
                continue
            if target and target[0] == side:
                continue
            if t in ezoc or t == pos.blk[enemy]:
                continue
            if kind == BLOCKADER:
                if target:
                    continue
                if pos.goal[side] == t:
                    continue
                z = set(NEIGHBOURS[t])
                if any(pos.sq[s] and pos.sq[s] >> 3 == enemy for s in z):
                    continue
                if any(g in z for g in pos.goal if g >= 0):
                    continue
                if z & ezoc:
                    continue
            out.add((o, t, False))
            if pos.goal[side] == o and IS_CARRIER[kind] and t not in allzoc and t not in clouds:
                out.add((o, t, True))
    return out


def in_jeopardy(pos: Position, side: int) -> bool:
    g = pos.goal[side]
    if g < 0:
        return False
    other = pos.copy()
    other.ply += 1  # hand the move to the attacker
    if other.turn == side:
        other.ply += 1
    return any(t == g for (_o, t, _c) in legal_battle_moves(other))
