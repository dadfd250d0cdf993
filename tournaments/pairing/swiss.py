"""Swiss pairing, Dutch-style, on plain objects.

Hard rules: no two players meet twice; at most one pairing-allocated bye per player, none
after a win by forfeit, given in the lowest score group unless the Dutch criteria pair the
rest better with it higher (FIDE C.04.3); everyone present is paired once.
Soft rules, in priority order: pair within score groups (top half against bottom half, by
initial rank); float as few players as possible, by the smallest score difference; with
balanced placement, alternate who places first (never three times running, never more than
two apart) and otherwise let the higher-ranked player place first. Scores may be negative.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import chain, groupby

from rules.points import format_points
from tournaments.pairing.augment import pairs_complete
from tournaments.pairing.base import Pairing, PairingPlayer, RoundPairing
from tournaments.pairing.check import pairing_check
from tournaments.pairing.explain import (
    FLOATS,
    bye_explain,
    floats_explain,
    groups_explain,
    round_blocked,
)
from tournaments.pairing.floats import float_repeats, floats_polish
from tournaments.pairing.polish import pairs_polish

# Called with (fraction done, what is being done) while a round is paired.
Progress = Callable[[float, str], None]

# How many more possible partners a player looks at for one denying a weaker preference.
_LOOK_FURTHER = 64


def placement_preference(placements: tuple[str, ...]) -> tuple[str, int]:
    """The placement a player should get next, read like the FIDE colour preference (C.04.1
    A.6): ('F' or 'S' or '', strength) with strength 3 absolute (more than one apart, or the
    same placement twice running), 2 strong (one apart), 1 mild (alternate), 0 none."""
    diff = placements.count("F") - placements.count("S")
    if diff > 0:
        side = "S"
    elif diff < 0:
        side = "F"
    elif placements:
        side = "F" if placements[-1] == "S" else "S"
    else:
        return "", 0
    if abs(diff) > 1 or placements[-2:] in (("F", "F"), ("S", "S")):
        return side, 3
    return side, 2 if abs(diff) == 1 else 1


class _Rules:
    """Who may meet whom this round, and what a pair costs in placement preferences."""

    def __init__(self, players: Iterable[PairingPlayer], forbid_club: bool, balanced: bool):
        self.forbid_club = forbid_club
        self.balanced = balanced
        self.strict = True
        self.pref = {p.id: placement_preference(p.placements) for p in players}

    def ok(self, a: PairingPlayer, b: PairingPlayer) -> bool:
        if not _compatible(a, b, self.forbid_club):
            return False
        if self.strict and self.balanced:
            (sa, wa), (sb, wb) = self.pref[a.id], self.pref[b.id]
            # Two players who must both place first (or second) cannot meet (FIDE C.04.3 C3).
            return not (wa == 3 and wb == 3 and sa == sb)
        return True

    def clash(self, a: PairingPlayer, b: PairingPlayer) -> int:
        """What this pair costs in placement preferences: 0 when both get theirs, else 4 for
        a denied mild preference, 5 strong, 6 absolute (the weaker of the two is denied).
        Like FIDE C.04.3 C12 before C13, fewer denied players count before their strength."""
        if not self.balanced:
            return 0
        (sa, wa), (sb, wb) = self.pref[a.id], self.pref[b.id]
        return 3 + min(wa, wb) if sa and sa == sb else 0


def _compatible(a: PairingPlayer, b: PairingPlayer, forbid_club: bool) -> bool:
    if b.id in a.opponents or a.id in b.opponents:
        return False
    if b.id in a.forbidden or a.id in b.forbidden:
        return False
    return not (forbid_club and a.club and a.club == b.club)


def _order(a: PairingPlayer, b: PairingPlayer, balanced: bool) -> Pairing:
    """Who places first, by the FIDE colour allocation rules (C.04.3 E.1-E.5) read as
    placement: both preferences when they differ, else the stronger one, else alternate from
    the last round in which the two placed differently, else the higher-ranked player's."""
    high, low = (a, b) if a.rank < b.rank else (b, a)
    if balanced:
        (sh, wh), (sl, wl) = (
            placement_preference(high.placements),
            placement_preference(low.placements),
        )
        if sh and sl and sh != sl:
            return _first(high, low, sh)
        if sh != sl:  # exactly one has a preference
            return _first(high, low, sh) if sh else _first(low, high, sl)
        if sh:
            if wh != wl:
                return _first(high, low, sh) if wh > wl else _first(low, high, sl)
            if wh == 3 and abs(high.balance) != abs(low.balance):
                # both absolute: the wider placement difference wins
                if abs(high.balance) > abs(low.balance):
                    return _first(high, low, sh)
                return _first(low, high, sl)
            for x, y in zip(reversed(high.placements), reversed(low.placements), strict=False):
                if x != y:
                    # alternate from the last time they placed differently
                    return Pairing(high.id, low.id) if x == "S" else Pairing(low.id, high.id)
            return _first(high, low, sh)
    return Pairing(high.id, low.id)


def _first(granted: PairingPlayer, other: PairingPlayer, side: str) -> Pairing:
    return Pairing(granted.id, other.id) if side == "F" else Pairing(other.id, granted.id)


def _partner(
    a: PairingPlayer, candidates: Iterable[PairingPlayer], used: set[int], rules: _Rules
) -> PairingPlayer | None:
    """The first free candidate `a` may meet that denies no placement preference, else the one
    denying the weakest (mild before strong); the search past the first possible partner is
    bounded so that a bracket where everyone wants the same placement stays linear."""
    best, best_cost, looked = None, 7, 0
    for b in candidates:
        if b.id in used or not rules.ok(a, b):
            continue
        cost = rules.clash(a, b)
        if cost < best_cost:
            best, best_cost = b, cost
            if cost == 0:
                break
        looked += 1
        if looked > _LOOK_FURTHER:
            break
    return best


def _pair_bracket(
    pool: list[PairingPlayer], rules: _Rules
) -> tuple[list[tuple[PairingPlayer, PairingPlayer]], list[PairingPlayer]]:
    """Top half against bottom half, each S1 player taking the nearest compatible S2 player
    to its own position (one whose placement preference differs, where there is one); what is
    left pairs among itself; then augmenting paths pair as many of the rest as can be paired
    within the bracket. Whoever is still unpaired floats down."""
    k = len(pool) // 2
    s1, s2 = pool[:k], pool[k:]
    used: set[int] = set()
    pairs = []
    left = []
    n = len(s2)
    for i, a in enumerate(s1):
        # S2's player at the same position first, then those below, then those above.
        order = (s2[j] for j in chain(range(i, n), range(min(i, n) - 1, -1, -1)))
        partner = _partner(a, order, used, rules)
        if partner is None:
            left.append(a)
        else:
            used.add(partner.id)
            pairs.append((a, partner))
    rest = left + [b for b in s2 if b.id not in used]
    rest.sort(key=lambda p: (-p.score, p.rank))
    taken: set[int] = set()
    for idx, a in enumerate(rest):
        if a.id in taken:
            continue
        b = _partner(a, rest[idx + 1 :], taken, rules)
        if b is not None:
            taken |= {a.id, b.id}
            pairs.append((a, b))
    floats = [p for p in rest if p.id not in taken]
    if len(floats) > 1:
        pairs, floats = pairs_complete(pool, pairs, rules.ok)
    return _improve(pairs, rules), floats


def _improve(
    pairs: list[tuple[PairingPlayer, PairingPlayer]], rules: _Rules
) -> list[tuple[PairingPlayer, PairingPlayer]]:
    """Swap partners between two pairs where that denies fewer or weaker placement
    preferences without widening any score difference: the greedy choice above cannot see
    that a later player is left only partners wanting the same placement."""
    if not rules.balanced:
        return pairs
    pairs = list(pairs)
    cost = [rules.clash(a, b) for a, b in pairs]
    for i in range(len(pairs)):
        j = 0
        while cost[i] and j < len(pairs):
            a, b = pairs[i]
            c, d = pairs[j]
            spread = abs(a.score - b.score) + abs(c.score - d.score)
            for x, y, u, v in ((a, c, b, d), (a, d, b, c)):
                if j == i or not (rules.ok(x, y) and rules.ok(u, v)):
                    continue
                if abs(x.score - y.score) + abs(u.score - v.score) > spread:
                    continue
                cx, cu = rules.clash(x, y), rules.clash(u, v)
                if cx + cu < cost[i] + cost[j]:
                    pairs[i], pairs[j] = (x, y), (u, v)
                    cost[i], cost[j] = cx, cu
                    break
            j += 1
    return pairs


def _polish(
    pairs: Pairs, rules: _Rules, bye: PairingPlayer | None, field: list[PairingPlayer]
) -> tuple[Pairs, PairingPlayer | None]:
    """The round's pairs improved around short alternating cycles (`pairs_polish`). The bye
    takes part as a pair with nobody, which any player allowed a bye may take over: it costs
    as a pair whose score difference is the player's score above the lowest of the round
    (FIDE C.04.3 A.8 counts the bye's score difference from a point below it), so that the
    bye rises above the lowest score group only where that pairs the rest with smaller score
    differences, or as small with fewer floaters."""
    # New pairs keep the placement limits even where the first pass had to relax them.
    rules.strict = True
    low = min((p.score for p in field), default=0.0)
    nobody = PairingPlayer(-1, len(field) + 1, low)
    # A side no player has: nobody is a kind of its own and denies no preference.
    rules.pref[nobody.id] = ("B", 0)
    if bye is not None and bye.bye_allowed:
        rules.pref[bye.id] = placement_preference(bye.placements)
        pairs = [*pairs, (bye, nobody)]

    def ok(a: PairingPlayer, b: PairingPlayer) -> bool:
        if a is nobody or b is nobody:
            return (b if a is nobody else a).bye_allowed
        return rules.ok(a, b)

    def cost(a: PairingPlayer, b: PairingPlayer) -> int:
        unequal, half_points, clash = _pair_cost(a, b, rules)
        if a is nobody or b is nobody:
            # Each half point above the lowest group counts as a floater more.
            return (_HALF_POINT + 1) * half_points
        return _HALF_POINT * half_points + _CLASH * clash + unequal

    def reach(gain: int) -> float:
        return (gain - 1) // _HALF_POINT / 2

    def kind(p: PairingPlayer) -> tuple[float, tuple[str, int]]:
        return (p.score, rules.pref[p.id])

    pairs = pairs_polish(pairs, cost, ok, kind, score_reach=reach)
    # Swaps of players of one score that cost no more settle the floats last.
    pairs = floats_polish(pairs, ok=ok, cost=cost, nobody=nobody)
    given = [a if b is nobody else b for a, b in pairs if nobody in (a, b)]
    return [(a, b) for a, b in pairs if a is not nobody and b is not nobody], (
        given[0] if given else bye
    )


# Score differences first (FIDE C.04.3 C6), then placement (C12, C13); among those alike the
# fewest pairs of unequal score (two half-point floats or one whole-point float cost alike).
# Floats repeated (C14-C17) come last, settled by `floats_polish`.
_HALF_POINT, _CLASH = 10**6, 10**2


def _pair_cost(a: PairingPlayer, b: PairingPlayer, rules: _Rules) -> tuple[int, int, int]:
    """A pair's cost by the Dutch criteria in order: unequal scores (a floater), the score
    difference in half points, the placement preference denied."""
    half_points = round(2 * abs(a.score - b.score))
    return (half_points > 0, half_points, rules.clash(a, b))


Pairs = list[tuple[PairingPlayer, PairingPlayer]]
# Before each bracket: how many pairs and notes were made above it, and who floats into it.
Step = tuple[int, int, list[PairingPlayer]]


def _pair_groups(
    groups: list[list[PairingPlayer]], rules: _Rules, progress: Progress | None = None
) -> tuple[Pairs, list[PairingPlayer], list[str], list[Step]]:
    pairs: Pairs = []
    carry: list[PairingPlayer] = []
    notes: list[str] = []
    steps: list[Step] = []
    for i, group in enumerate(groups):
        if progress is not None:
            progress(i / len(groups), f"score group {i + 1} of {len(groups)}")
        steps.append((len(pairs), len(notes), carry))
        pool = sorted(carry + group, key=lambda p: (-p.score, p.rank))
        got, carry = _pair_bracket(pool, rules)
        if carry and i + 1 < len(groups):
            got, carry = _float_who_can_pair(got, carry, groups[i + 1], rules)
        pairs.extend(got)
        for p in carry:
            notes.append(f"{p.label} ({format_points(p.score)}){FLOATS}")
    return pairs, carry, notes, steps


def _float_who_can_pair(
    pairs: Pairs, floats: list[PairingPlayer], below: list[PairingPlayer], rules: _Rules
) -> tuple[Pairs, list[PairingPlayer]]:
    """Swap a floater who could meet nobody in the next score group for a player of equal
    score who can, when the floater can take that player's partner: otherwise the floater
    drifts down a second group (FIDE C.04.3 chooses floaters with the next bracket in view)."""
    pairs = list(pairs)
    out = []
    for f in floats:
        if any(rules.ok(f, q) for q in below):
            out.append(f)
            continue
        for idx in range(len(pairs) - 1, -1, -1):
            x, y = pairs[idx]
            swapped = False
            for z, w in ((y, x), (x, y)):
                if z.score != f.score or not rules.ok(f, w):
                    continue
                if any(rules.ok(z, q) for q in below):
                    pairs[idx] = (f, w) if f.rank < w.rank else (w, f)
                    out.append(z)
                    swapped = True
                    break
            if swapped:
                break
        else:
            out.append(f)
    return pairs, out


def _pair_region(players: list[PairingPlayer], rules: _Rules) -> Pairs | None:
    """All of `players` paired with as few pairs of unequal score as possible, then the
    smallest score differences, then the fewest denied placement preferences (an exact
    weighted matching, for the few players of the lowest brackets), or None."""
    # networkx takes a good part of a second to import and only the lowest brackets of
    # some rounds need it: imported here so that web and kz processes start without it.
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(range(len(players)))
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            b = players[j]
            if rules.ok(a, b):
                half_points = round(2 * abs(a.score - b.score))
                cost = 10**8 * (half_points > 0) + 10**5 * half_points
                cost += 10**2 * rules.clash(a, b) + float_repeats(a, b)
                g.add_edge(i, j, weight=10**9 - cost)
    match = nx.max_weight_matching(g, maxcardinality=True)
    if 2 * len(match) != len(players):
        return None
    return [(players[i], players[j]) for i, j in match]


# The largest set of players of the lowest brackets paired together by an exact matching
# (networkx takes about a second for a hundred players).
_REGION_MAX = 60


def _try_pair(
    players: list[PairingPlayer],
    forbid_club: bool,
    balanced: bool,
    progress: Progress | None = None,
) -> tuple[Pairs, list[str], _Rules] | None:
    ordered = sorted(players, key=lambda p: (-p.score, p.rank))
    groups = [list(g) for _, g in groupby(ordered, key=lambda p: p.score)]
    rules = _Rules(ordered, forbid_club, balanced)
    pairs, left, notes, steps = _pair_groups(groups, rules, progress)
    if not left:
        return pairs, notes, rules
    for strict in (True, False):
        rules.strict = strict
        relaxed = "" if strict else ", two players who both must place first or second meet"
        # The lowest bracket cannot be paired: pair the lowest brackets together, as few as
        # will do, choosing again who floats into them (FIDE goes back a bracket likewise).
        region: list[PairingPlayer] = []
        for k in range(len(groups) - 1, -1, -1):
            done, noted, carry = steps[k]
            region = sorted(carry + [p for g in groups[k:] for p in g], key=_rank_key)
            if len(region) > _REGION_MAX:
                break
            got = _pair_region(region, rules)
            if got is not None:
                note = f"the lowest {len(groups) - k} score groups were paired together{relaxed}"
                return pairs[:done] + got, [*notes[:noted], note], rules
        # Too many players down there for an exact matching: re-pair along augmenting paths
        # over the whole field, nearest scores first, changing a few pairs above.
        repaired, left = pairs_complete(ordered, pairs, rules.ok)
        if not left:
            note = "the lowest score group could not be paired: a few pairs above were changed"
            note += relaxed
            return repaired, [*notes, note], rules
    return None


def _rank_key(p: PairingPlayer) -> tuple[float, int]:
    return (-p.score, p.rank)


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
    field = _accelerate(players=list(players)) if accelerated else list(players)
    plain, candidates = _bye_candidates(
        field=field, forbid_club=forbid_same_club, balanced=balanced
    )
    for bye in candidates:
        rest = [p for p in field if bye is None or p.id != bye.id]
        got = _try_pair(rest, forbid_same_club, balanced, progress)
        if got is not None:
            return _round_make(
                got=got, field=field, rest=rest, chosen=bye, plain=plain, balanced=balanced
            )
    return round_blocked(field=field, forbid_club=forbid_same_club)


def _accelerate(*, players: list[PairingPlayer]) -> list[PairingPlayer]:
    """The field by rank, its top half given one virtual point (Baku-style acceleration)."""
    half = len(players) // 2
    return [
        _with_score(p, p.score + 1.0) if p.rank <= half else p
        for p in sorted(players, key=lambda p: p.rank)
    ]


def _bye_candidates(
    *, field: list[PairingPlayer], forbid_club: bool, balanced: bool
) -> tuple[PairingPlayer | None, list[PairingPlayer | None]]:
    """Who may get the bye, best first ([None] when the field is even; those allowed one,
    FIDE C.04.3 C2, before the rest), with the player the plain rule names (lowest score
    group, lowest ranked of those allowed a bye) to explain a choice."""
    if not len(field) % 2:
        return None, [None]
    lowest = sorted(field, key=lambda p: (p.score, -p.rank))
    plain = next((p for p in lowest if p.bye_allowed), None)
    fresh = _bye_order([p for p in lowest if p.bye_allowed], field, forbid_club, balanced)
    return plain, [*fresh, *(p for p in lowest if not p.bye_allowed)]


def _round_make(
    *,
    got: tuple[Pairs, list[str], _Rules],
    field: list[PairingPlayer],
    rest: list[PairingPlayer],
    chosen: PairingPlayer | None,
    plain: PairingPlayer | None,
    balanced: bool,
) -> RoundPairing:
    """The round from the pairs found with `chosen` out: polished, explained, ordered by who
    places first, and checked against every rule."""
    pairs, notes, rules = got
    result = RoundPairing()
    pairs, bye = _polish(pairs, rules, chosen, field)
    if bye is not None:
        low = min((p.score for p in field if p.bye_allowed), default=bye.score)
        bye_explain(result=result, bye=bye, chosen=chosen, plain=plain, low=low)
    result.explanation.extend(groups_explain(players=rest))
    # Who floats is said from the pairs as polished, not as the brackets first left them.
    result.explanation.extend(n for n in notes if not n.endswith(FLOATS))
    result.explanation.extend(floats_explain(pairs=pairs))
    pairs.sort(key=lambda ab: (-max(ab[0].score, ab[1].score), min(ab[0].rank, ab[1].rank)))
    real = {p.id: p for p in field}
    result.pairings = [_order(real[a.id], real[b.id], balanced) for a, b in pairs]
    result.warnings.extend(pairing_check(field, result.pairings, result.bye, bye_by_criteria=True))
    return result


# How many players of the lowest score group are tried for the bye.
_BYE_TRIES = 20


def _bye_order(
    fresh: list[PairingPlayer], field: list[PairingPlayer], forbid_club: bool, balanced: bool
) -> list[PairingPlayer]:
    """Bye candidates (lowest score, lowest ranked first) reordered. First the player left
    over when the whole field is paired bracket by bracket from the top, as the Dutch system
    pairs (FIDE C.04.3: each bracket keeps as many pairs as it can, so the bye falls above
    the lowest score group where that group's players cannot pair among themselves and with
    those floating into it). Else those of the lowest score group whose bye lets the rest of
    that group pair without floating: the brackets above are paired alike whoever has the
    bye, so only the lowest bracket is paired again for each."""
    if not fresh:
        return fresh
    low = min(p.score for p in field)
    above = sorted((p for p in field if p.score > low), key=_rank_key)
    groups = [list(g) for _, g in groupby(above, key=lambda p: p.score)]
    rules = _Rules(field, forbid_club, balanced)
    _, carry, _, _ = _pair_groups(groups, rules)
    bottom = [p for p in field if p.score == low]
    left = _pair_bracket(sorted(carry + bottom, key=_rank_key), rules)[1]
    if len(left) == 1 and left[0].bye_allowed:
        return [left[0], *(p for p in fresh if p.id != left[0].id)]
    good = []
    for c in fresh[:_BYE_TRIES]:
        if c.score != low:
            break
        pool = sorted(carry + [p for p in bottom if p.id != c.id], key=_rank_key)
        if not _pair_bracket(pool, rules)[1]:
            good.append(c)
            break
    return good + [p for p in fresh if p not in good]


def _with_score(p: PairingPlayer, score: float) -> PairingPlayer:
    return replace(p, score=score)
