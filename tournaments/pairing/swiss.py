"""Swiss pairing, Dutch-style, on plain objects.

Hard rules: no two players meet twice; at most one pairing-allocated bye per player, given
in the lowest score group that has a player without one; everyone present is paired once.
Soft rules, in priority order: pair within score groups (top half against bottom half, by
initial rank); float as few players as possible, by the smallest score difference; with
balanced placement, alternate who places first (never three times running, never more than
two apart) and otherwise let the higher-ranked player place first. Scores may be negative.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import chain, groupby

from tournaments.pairing.base import Pairing, PairingPlayer, RoundPairing

# Called with (fraction done, what is being done) while a round is paired.
Progress = Callable[[float, str], None]


def _wants(p: PairingPlayer) -> int:
    """+2 must place first, +1 prefers to, 0 no preference, -1 prefers second, -2 must."""
    if p.balance <= -2 or p.placements[-2:] == ("S", "S"):
        return 2
    if p.balance >= 2 or p.placements[-2:] == ("F", "F"):
        return -2
    if p.balance < 0 or (p.placements and p.placements[-1] == "S"):
        return 1
    if p.balance > 0 or (p.placements and p.placements[-1] == "F"):
        return -1
    return 0


def _placement_clash(a: PairingPlayer, b: PairingPlayer) -> bool:
    wa, wb = _wants(a), _wants(b)
    return (wa == 2 and wb == 2) or (wa == -2 and wb == -2)


def _compatible(a: PairingPlayer, b: PairingPlayer, forbid_club: bool) -> bool:
    if b.id in a.opponents or a.id in b.opponents:
        return False
    if b.id in a.forbidden or a.id in b.forbidden:
        return False
    return not (forbid_club and a.club and a.club == b.club)


def _order(a: PairingPlayer, b: PairingPlayer, balanced: bool) -> Pairing:
    """Who places first: the stronger placement need, else the higher-ranked player."""
    if balanced:
        wa, wb = _wants(a), _wants(b)
        if wa != wb:
            return Pairing(a.id, b.id) if wa > wb else Pairing(b.id, a.id)
    return Pairing(a.id, b.id) if a.rank < b.rank else Pairing(b.id, a.id)


def _pair_bracket(
    pool: list[PairingPlayer], forbid_club: bool, balanced: bool, strict_colour: bool
) -> tuple[list[tuple[PairingPlayer, PairingPlayer]], list[PairingPlayer]]:
    """Top half against bottom half, each S1 player taking the nearest compatible S2 player
    to its own position; then what is left pairs among itself; the rest floats down."""
    k = len(pool) // 2
    s1, s2 = pool[:k], pool[k:]
    used: set[int] = set()
    pairs = []
    left = []

    def ok(a: PairingPlayer, b: PairingPlayer) -> bool:
        if not _compatible(a, b, forbid_club):
            return False
        return not (strict_colour and balanced and _placement_clash(a, b))

    for i, a in enumerate(s1):
        partner = None
        n = len(s2)
        # S2's player at the same position first, then those below, then those above.
        for j in chain(range(i, n), range(min(i, n) - 1, -1, -1)):
            b = s2[j]
            if b.id not in used and ok(a, b):
                partner = b
                break
        if partner is None:
            left.append(a)
        else:
            used.add(partner.id)
            pairs.append((a, partner))
    rest = left + [b for b in s2 if b.id not in used]
    rest.sort(key=lambda p: (-p.score, p.rank))
    floats = []
    while rest:
        a = rest.pop(0)
        for idx, b in enumerate(rest):
            if ok(a, b):
                pairs.append((a, b))
                rest.pop(idx)
                break
        else:
            floats.append(a)
    return pairs, floats


def _pair_groups(
    groups: list[list[PairingPlayer]],
    forbid_club: bool,
    balanced: bool,
    strict_colour: bool,
    progress: Progress | None = None,
) -> tuple[list[tuple[PairingPlayer, PairingPlayer]], list[PairingPlayer], list[str]]:
    pairs: list[tuple[PairingPlayer, PairingPlayer]] = []
    carry: list[PairingPlayer] = []
    notes = []
    for i, group in enumerate(groups):
        if progress is not None:
            progress(i / len(groups), f"score group {i + 1} of {len(groups)}")
        pool = sorted(carry + group, key=lambda p: (-p.score, p.rank))
        got, carry = _pair_bracket(pool, forbid_club, balanced, strict_colour)
        pairs.extend(got)
        for p in carry:
            notes.append(f"player {p.id} ({_fmt(p.score)}) floats down")
    return pairs, carry, notes


def _fmt(x: float) -> str:
    return f"{x:g}"


def _exact(
    players: list[PairingPlayer], forbid_club: bool
) -> list[tuple[PairingPlayer, PairingPlayer]] | None:
    """A perfect matching without rematches, preferring close scores and ranks, or None.
    Used only when the score-group pass leaves players it could not pair."""
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(p.id for p in players)
    by_id = {p.id: p for p in players}
    top = max((abs(p.score) for p in players), default=0) + len(players) + 1
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if _compatible(a, b, forbid_club):
                weight = 1000 * top - 100 * abs(a.score - b.score) - abs(a.rank - b.rank) / 1000
                g.add_edge(a.id, b.id, weight=weight)
    match = nx.max_weight_matching(g, maxcardinality=True)
    if 2 * len(match) != len(players):
        return None
    return [(by_id[a], by_id[b]) for a, b in match]


def _try_pair(
    players: list[PairingPlayer],
    forbid_club: bool,
    balanced: bool,
    progress: Progress | None = None,
) -> tuple[list[tuple[PairingPlayer, PairingPlayer]], list[str]] | None:
    ordered = sorted(players, key=lambda p: (-p.score, p.rank))
    groups = [list(g) for _, g in groupby(ordered, key=lambda p: p.score)]
    for strict in (True, False):
        # Merge score groups from the bottom until the bottom pairs (floaters move up).
        merged = list(groups)
        while merged:
            pairs, left, notes = _pair_groups(merged, forbid_club, balanced, strict, progress)
            if not left:
                return pairs, notes
            if len(merged) == 1:
                break
            merged = merged[:-2] + [merged[-2] + merged[-1]]
    exact = _exact(ordered, forbid_club)
    if exact is None:
        return None
    return exact, ["paired by a global matching: the score groups alone could not be paired"]


def pair_swiss(
    players: Iterable[PairingPlayer],
    *,
    balanced: bool = True,
    forbid_same_club: bool = False,
    accelerated: bool = False,
    round_number: int = 1,
    progress: Progress | None = None,
) -> RoundPairing:
    """Pair a round. `players` are those present (withdrawn and requested byes left out).
    With `accelerated` (the caller decides for which rounds), the top half by rank plays with
    one virtual point (Baku-style), so that top players meet each other sooner."""
    field = list(players)
    if accelerated:
        half = len(field) // 2
        field = [
            _with_score(p, p.score + 1.0) if p.rank <= half else p
            for p in sorted(field, key=lambda p: p.rank)
        ]
    real = {p.id: p for p in field}
    result = RoundPairing()
    candidates: list[PairingPlayer | None] = [None]
    if len(field) % 2:
        lowest = sorted(field, key=lambda p: (p.score, -p.rank))
        candidates = [p for p in lowest if not p.had_bye] + [p for p in lowest if p.had_bye]
    for bye in candidates:
        rest = [p for p in field if bye is None or p.id != bye.id]
        got = _try_pair(rest, forbid_same_club, balanced, progress)
        if got is None:
            continue
        pairs, notes = got
        if bye is not None:
            result.bye = bye.id
            why = "lowest score group, lowest ranked player without a bye"
            if bye.had_bye:
                result.warnings.append(f"player {bye.id} gets a second pairing-allocated bye")
                why = "every player without a bye would leave the rest unpairable"
            result.explanation.append(f"bye: player {bye.id} ({_fmt(bye.score)}): {why}")
        scores = sorted({p.score for p in rest}, reverse=True)
        for s in scores:
            members = [p.id for p in rest if p.score == s]
            result.explanation.append(f"score group {_fmt(s)}: {len(members)} players")
        result.explanation.extend(notes)
        pairs.sort(key=lambda ab: (-max(ab[0].score, ab[1].score), min(ab[0].rank, ab[1].rank)))
        result.pairings = [_order(real[a.id], real[b.id], balanced) for a, b in pairs]
        result.warnings.extend(pairing_check(field, result.pairings, result.bye))
        return result
    result.warnings.append("no pairing without a rematch exists")
    return result


def _with_score(p: PairingPlayer, score: float) -> PairingPlayer:
    return PairingPlayer(
        p.id, p.rank, score, p.rating, p.opponents, p.had_bye, p.placements, p.club, p.forbidden
    )


def pairing_check(
    players: Sequence[PairingPlayer], pairings: Sequence[Pairing], bye: int | None
) -> list[str]:
    """Every rule a (perhaps hand-edited) pairing breaks, as warnings for the arbiter."""
    by_id = {p.id: p for p in players}
    warnings = []
    seen: dict[int, int] = {}
    for pr in pairings:
        for pid in (pr.first, pr.second):
            seen[pid] = seen.get(pid, 0) + 1
        a, b = by_id.get(pr.first), by_id.get(pr.second)
        if a is None or b is None:
            warnings.append(f"pairing {pr.first}-{pr.second} names a player not in the round")
            continue
        if b.id in a.opponents:
            warnings.append(f"players {a.id} and {b.id} have met already")
        if b.id in a.forbidden or a.id in b.forbidden:
            warnings.append(f"players {a.id} and {b.id} may not be paired")
        if a.placements[-2:] == ("F", "F"):
            warnings.append(f"player {a.id} would place first three times running")
        if b.placements[-2:] == ("S", "S"):
            warnings.append(f"player {b.id} would place second three times running")
        if a.balance + 1 > 2:
            warnings.append(f"player {a.id} would have placed first {a.balance + 1} more times")
        if b.balance - 1 < -2:
            warnings.append(f"player {b.id} would have placed second {1 - b.balance} more times")
    if bye is not None:
        seen[bye] = seen.get(bye, 0) + 1
        p = by_id.get(bye)
        if p is not None and p.had_bye:
            warnings.append(f"player {bye} has had a pairing-allocated bye already")
        eligible = [q.score for q in players if not q.had_bye]
        if p is not None and eligible and p.score > min(eligible):
            warnings.append(f"the bye should go to the lowest score group, not to player {bye}")
    for pid in by_id:
        if seen.get(pid, 0) == 0:
            warnings.append(f"player {pid} is not paired")
        elif seen[pid] > 1:
            warnings.append(f"player {pid} is paired {seen[pid]} times")
    return warnings
