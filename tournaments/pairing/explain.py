"""What a Swiss round's explanation says: the bye and why, the score groups, who floats."""

from __future__ import annotations

from rules.points import format_points
from tournaments.pairing.base import PairingPlayer, RoundPairing

Pairs = list[tuple[PairingPlayer, PairingPlayer]]
FLOATS = " floats down"


def bye_explain(
    *,
    result: RoundPairing,
    bye: PairingPlayer,
    chosen: PairingPlayer | None,
    plain: PairingPlayer | None,
    low: float,
) -> None:
    """Give `bye` the bye in `result`, saying why it went to them and not to the player the
    plain rule names (lowest score group `low` of those allowed a bye, lowest ranked), and
    warning when it is their second."""
    result.bye = bye.id
    why = "lowest score group, lowest ranked player without a bye"
    if plain is not None and bye.id != plain.id and bye.score == plain.score:
        why = (
            "lowest score group; a bye to a lower-ranked player would leave the rest "
            "of the group unable to pair among itself"
        )
    if bye is not chosen:
        why = (
            "lowest score group; with this bye the rest pair with the smallest score "
            "differences and the fewest denied placement preferences"
        )
    if bye.score > low and bye.bye_allowed:
        why = (
            "above the lowest score group, as the Dutch criteria allow (FIDE C.04.3): "
            "a bye lower down would pair the rest with larger score differences or "
            "more floaters"
        )
    if not bye.bye_allowed:
        if bye.had_bye:
            result.warnings.append(f"{bye.label} gets a second pairing-allocated bye")
        else:
            result.warnings.append(f"{bye.label} gets a pairing-allocated bye after a forfeit win")
        why = "every player allowed a bye would leave the rest unpairable"
    result.explanation.append(f"bye: {bye.label} ({format_points(bye.score)}): {why}")


def groups_explain(*, players: list[PairingPlayer]) -> list[str]:
    """One line per score group, highest first: its score and how many players it holds."""
    lines = []
    for s in sorted({p.score for p in players}, reverse=True):
        members = [p.id for p in players if p.score == s]
        lines.append(f"score group {format_points(s)}: {len(members)} players")
    return lines


def floats_explain(*, pairs: Pairs) -> list[str]:
    """One line per pair of two scores, highest first: who floats down to meet whom."""
    lines = []
    for a, b in sorted(pairs, key=lambda ab: -max(ab[0].score, ab[1].score)):
        if a.score != b.score:
            hi, lo = (a, b) if a.score > b.score else (b, a)
            lines.append(
                f"{hi.label} ({format_points(hi.score)}){FLOATS} to meet {lo.label} "
                f"({format_points(lo.score)})"
            )
    return lines


def round_blocked(*, field: list[PairingPlayer], forbid_club: bool) -> RoundPairing:
    """A round without pairings, saying which hard rules leave no pairing possible."""
    result = RoundPairing()
    bars = ["a rematch"]
    if any(p.forbidden for p in field):
        bars.append("a forbidden pair")
    if forbid_club:
        bars.append("two players of one club")
    result.blocked = f"no pairing without {' or '.join(bars)} exists"
    result.warnings.append(result.blocked)
    return result
