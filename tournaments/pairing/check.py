"""What a Swiss pairing, the engine's or an arbiter's hand-edited one, breaks of the rules."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.base import Pairing, PairingPlayer


def pairing_check(
    players: Sequence[PairingPlayer],
    pairings: Sequence[Pairing],
    bye: int | None,
    *,
    forbid_same_club: bool = False,
    bye_by_criteria: bool = False,
) -> list[str]:
    """Every rule a (perhaps hand-edited) pairing breaks, as warnings for the arbiter. A bye
    above the lowest score group is flagged unless `bye_by_criteria` (the engine placed it
    there by the Dutch criteria, which allow it where the rest pairs better)."""
    by_id = {p.id: p for p in players}

    def label(pid: int) -> str:
        return by_id[pid].label if pid in by_id else f"player id {pid}"

    warnings = []
    seen: dict[int, int] = {}
    for pr in pairings:
        for pid in (pr.first, pr.second):
            seen[pid] = seen.get(pid, 0) + 1
        a, b = by_id.get(pr.first), by_id.get(pr.second)
        if a is None or b is None:
            warnings.append(
                f"pairing {label(pr.first)} – {label(pr.second)} names a player not in the round"
            )
            continue
        warnings.extend(_pair_warnings(a=a, b=b, forbid_club=forbid_same_club))
    if bye is not None:
        seen[bye] = seen.get(bye, 0) + 1
        warnings.extend(
            _bye_warnings(
                players=players, bye=by_id.get(bye), label=label(bye), anywhere=bye_by_criteria
            )
        )
    for pid in by_id:
        if seen.get(pid, 0) == 0:
            warnings.append(f"{label(pid)} is not paired")
        elif seen[pid] > 1:
            warnings.append(f"{label(pid)} is paired {seen[pid]} times")
    return warnings


def _pair_warnings(*, a: PairingPlayer, b: PairingPlayer, forbid_club: bool) -> list[str]:
    """The rules one pair breaks, `a` placing first: a rematch, a forbidden or same-club
    pair, a placement three times running or more than two apart."""
    warnings = []
    if b.id in a.opponents:
        warnings.append(f"{a.label} and {b.label} have met already")
    if b.id in a.forbidden or a.id in b.forbidden:
        warnings.append(f"{a.label} and {b.label} may not be paired")
    if forbid_club and a.club and a.club == b.club:
        warnings.append(f"{a.label} and {b.label} are both of {a.club}")
    if a.placements[-2:] == ("F", "F"):
        warnings.append(f"{a.label} would place first three times running")
    if b.placements[-2:] == ("S", "S"):
        warnings.append(f"{b.label} would place second three times running")
    if a.balance + 1 > 2:
        warnings.append(f"{a.label} would have placed first {a.balance + 1} more times")
    if b.balance - 1 < -2:
        warnings.append(f"{b.label} would have placed second {1 - b.balance} more times")
    return warnings


def _bye_warnings(
    *, players: Sequence[PairingPlayer], bye: PairingPlayer | None, label: str, anywhere: bool
) -> list[str]:
    """What is wrong with giving `bye` (None: not a player of the round) the bye: a second
    one, one after a win by forfeit (FIDE C.04.3 C2), or (unless `anywhere`) one above the
    lowest score group of players allowed one."""
    warnings = []
    if bye is not None and bye.had_bye:
        warnings.append(f"{label} has had a pairing-allocated bye already")
    if bye is not None and bye.forfeit_win and not bye.had_bye:
        warnings.append(f"{label} has won by forfeit: no pairing-allocated bye (FIDE C.04.3 C2)")
    eligible = [q.score for q in players if q.bye_allowed]
    if not anywhere and bye is not None and eligible and bye.score > min(eligible):
        warnings.append(
            f"the bye goes to {label}, above the lowest score group: the Dutch criteria "
            "allow that only where a bye lower down pairs the rest worse"
        )
    return warnings
