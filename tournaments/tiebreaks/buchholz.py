"""Buchholz, Fore Buchholz, Sonneborn-Berger and the Average of Opponents' Buchholz (C.07,
Art. 8 and 9), with their cuts and the rules on unplayed rounds (Art. 16)."""

from __future__ import annotations

from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from tournaments.tiebreaks.catalogue import RULES_2026, Spec
from tournaments.tiebreaks.rounds import NEUTRAL, Field


class Contribution(NamedTuple):
    """One round's part of a player's Buchholz: the opponent's (or the dummy's) score, the
    Sonneborn-Berger product, and whether the round was voluntarily unplayed."""

    score: float
    product: float
    voluntary: bool


def adjusted_scores(field: Field) -> dict[int, float]:
    """Each player's score as an opponent's Buchholz reads it (Art. 16.3): the rounds after
    their last round that was not voluntarily unplayed, and without an opponent, count as
    a neutral ½ (none in a round robin) instead of their points."""
    neutral = 0.0 if field.round_robin else NEUTRAL
    out = dict(field.score)
    for pid, slots in field.slots.items():
        # Only a run of voluntarily unplayed rounds without an opponent at the end changes
        # anything: most players have none.
        k = len(slots)
        while k and slots[k - 1].voluntary:
            k -= 1
        tail = [s for s in slots[k:] if s.opponent is None]
        if tail:
            out[pid] = round(out[pid] + sum(neutral - s.points for s in tail), 6)
    return out


def contributions(
    field: Field, pid: int, adjusted: dict[int, float], rules: str
) -> list[Contribution]:
    """The player's rounds as Buchholz counts them. A played game counts the opponent's
    adjusted score; an unplayed round a dummy opponent with the player's own score (Art.
    16.4), since 2026 no more than the forfeiting opponent's score or, with no opponent, a
    neutral half of the rounds; in a round robin an unplayed round against an opponent
    counts nothing, and one without an opponent is left out."""
    own = field.score[pid]
    cap = NEUTRAL * field.n
    capped = rules == RULES_2026
    robin = field.round_robin
    make = tuple.__new__  # the named tuple without its argument handling: a hot loop
    out: list[Contribution] = []
    add = out.append
    for s in field.slots[pid]:
        if s.played:
            value = adjusted[s.opponent]  # type: ignore[index]
        elif robin:
            if s.opponent is None:
                continue
            value = 0.0
        elif capped:
            value = min(own, adjusted[s.opponent] if s.opponent is not None else cap)
        else:
            value = own
        add(make(Contribution, (value, value * s.standard, s.voluntary)))
    return out


def cut(values: list[Contribution], spec: Spec, *, product: bool) -> float:
    """The sum after the cuts: each low cut takes a voluntarily unplayed round first, unless
    that would leave more than cutting the least significant value (Art. 14, 16.5); high
    cuts take the most significant value."""
    if not spec.cut_low and not spec.cut_high:
        return round(sum(c.product if product else c.score for c in values), 6)
    key = (lambda c: (c.score, c.product)) if product else (lambda c: (c.score, c.score))
    rest = sorted(values, key=key)
    low = min(spec.cut_low, len(rest))
    high = min(spec.cut_high, len(rest) - low)
    for _ in range(low):
        least = rest[0]
        voluntary = next((c for c in rest if c.voluntary), None)
        pick = least
        if voluntary is not None and not _gain(least, voluntary, product):
            pick = voluntary
        rest.remove(pick)
    if high:
        rest = rest[: len(rest) - high]
    return round(sum(c.product if product else c.score for c in rest), 6)


def _gain(least: Contribution, voluntary: Contribution, product: bool) -> bool:
    """Whether cutting the voluntarily unplayed round would leave the player more than
    cutting the least significant value (then the least is cut)."""
    if not product:
        return least.score > voluntary.score
    return least.product > voluntary.product


def buchholz_values(field: Field, spec: Spec, rules: str) -> dict[int, float]:
    """BH (or SB, on `spec.base == "SB"`) of every player."""
    adjusted = adjusted_scores(field)
    product = spec.base == "SB"
    return {
        pid: cut(contributions(field, pid, adjusted, rules), spec, product=product)
        for pid in field.slots
    }


def fore_field(field: Field) -> Field:
    """The field as Fore Buchholz reads it (Art. 8.3): every pairing of the last round, played
    or not, a played game with the neutral ½ to each side."""
    if field.n == 0:
        return field
    slots = {}
    score = dict(field.score)
    for pid, ss in field.slots.items():
        last = ss[-1]
        if last.opponent is None:
            slots[pid] = ss
            continue
        even = last._replace(points=NEUTRAL, standard=0.5, played=True, voluntary=False)
        slots[pid] = (*ss[:-1], even)
        score[pid] = round(score[pid] - last.points + NEUTRAL, 6)
    return replace(field, slots=slots, score=score)


def aob_values(field: Field, rules: str) -> dict[int, float]:
    """The average of the played opponents' Buchholz, to hundredths (0 with none played)."""
    bh = buchholz_values(field, Spec("BH"), rules)
    out = {}
    for pid, slots in field.slots.items():
        met = [bh[s.opponent] for s in slots if s.played and s.opponent is not None]
        out[pid] = hundredths(sum(met) / len(met)) if met else 0.0
    return out


def hundredths(x: float) -> float:
    """`x` to hundredths, a half away from zero (1.125 is 1.13, −1.125 −1.13), as FIDE's
    checker rounds; Python's round() takes a half to the even digit (1.12)."""
    exact = Decimal(repr(round(x, 6)))  # the average's float noise off first
    return float(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
