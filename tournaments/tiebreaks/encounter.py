"""Direct Encounter (C.07, Art. 6) among players tied on everything before it, with the 2024
rules for groups where not all met."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from tournaments.tiebreaks.rounds import Field


def direct_encounter_values(field: Field, groups: Iterable[Sequence[int]]) -> dict[int, float]:
    """For each tied group, each player's count of group members Direct Encounter ranks
    below them (0 where it ranks nobody apart); a player in no group gets 0."""
    values = dict.fromkeys(field.slots, 0.0)
    for group in groups:
        if len(group) < 2:
            continue
        tiers = _tiers(field, list(group))
        below = len(group)
        for tier in tiers:
            below -= len(tier)
            for pid in tier:
                values[pid] = float(below)
    return values


def _tiers(field: Field, members: list[int]) -> list[list[int]]:
    """The members in ranked tiers, best first; a tier of several is still tied."""
    points, met = _encounters(field, members)
    others = len(members) - 1
    all_met = field.round_robin or all(met[p] >= others for p in members)
    if all_met:
        ordered = sorted(members, key=lambda p: -points[p])
        tiers: list[list[int]] = []
        for pid in ordered:
            if tiers and points[tiers[-1][0]] == points[pid]:
                tiers[-1].append(pid)
            else:
                tiers.append([pid])
        if len(tiers) == 1:
            return tiers
        return [sub for tier in tiers for sub in (_tiers(field, tier) if len(tier) > 1 else [tier])]
    # Not all met (Art. 6.2): a player is ranked first when their points exceed what any
    # other could have reached with a win in every encounter that did not take place.
    best = {p: points[p] + (others - met[p]) * 1.0 for p in members}
    ordered = sorted(members, key=lambda p: (-points[p], -best[p]))
    tiers = []
    for i, pid in enumerate(ordered[:-1]):
        if points[pid] > max(best[q] for q in ordered[i + 1 :]):
            tiers.append([pid])
        else:
            rest = ordered[i:]
            return tiers + ([rest] if not tiers else _tiers(field, rest))
    return [*tiers, [ordered[-1]]]


def _encounters(field: Field, members: list[int]) -> tuple[dict[int, float], dict[int, int]]:
    """Each member's points against the others (the mean where they met more than once,
    games played only) and how many of the others they met."""
    group = set(members)
    scored: dict[int, dict[int, list[float]]] = {p: defaultdict(list) for p in members}
    for pid in members:
        for s in field.slots[pid]:
            if s.played and s.opponent in group:
                scored[pid][s.opponent].append(s.points)
    points = {p: round(sum(sum(v) / len(v) for v in scored[p].values()), 6) for p in members}
    met = {p: len(scored[p]) for p in members}
    return points, met
