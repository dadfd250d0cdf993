"""Reads for pairing: who is paired in a round as the engines see them, and a pairing
job's progress."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.core.cache import cache

from tournaments.check_in_selectors import check_in_absent_players
from tournaments.models import ByeRequest, ForbiddenPair, Game, PairingJob, Registration, Tournament
from tournaments.pairing import PairingPlayer
from tournaments.selectors import standings_compute
from tournaments.standings import StandingRow

# Results that end a game without play: no placement counts (FIDE C.04.3 A.6 counts the
# colours of games played) and each side floats down (A.4).
_UNPLAYED = {
    Game.Result.FIRST_FORFEIT_WIN,
    Game.Result.SECOND_FORFEIT_WIN,
    Game.Result.DOUBLE_FORFEIT,
}


def pairing_progress_key(job_id: int) -> str:
    """Where a running pairing job keeps its progress (in the cache: its transaction hides
    row updates until the end)."""
    return f"kz:pairing-job:{job_id}"


def pairing_heartbeat_key(job_id: int) -> str:
    """Where a running pairing job keeps the time (epoch seconds) its progress last moved."""
    return f"kz:pairing-job:{job_id}:moved"


def pairing_job_moved_at(*, job: PairingJob) -> datetime:
    """When the job last showed life: its row's heartbeat (queued, started) or the progress
    a running pairing keeps in the cache, whichever is later."""
    moved = job.heartbeat_at or job.created_at
    live = cache.get(pairing_heartbeat_key(job.pk))
    if isinstance(live, int | float):
        moved = max(moved, datetime.fromtimestamp(live, tz=UTC))
    return moved


def pairing_job_state(*, job: PairingJob) -> dict[str, Any]:
    """A pairing job's status for the arbiter's page: the row, with the live progress the
    worker keeps in the cache while it runs (a failed job's message says why)."""
    progress, message = job.progress, job.message
    if job.status == PairingJob.Status.RUNNING:
        live = cache.get(pairing_progress_key(job.pk))
        if live is not None:
            progress, message = live
    return {
        "id": job.pk,
        "round": job.round_number,
        "status": job.status,
        "progress": round(progress * 100),
        "message": message,
    }


def pairing_players(
    *, tournament: Tournament, round_number: int
) -> tuple[list[PairingPlayer], list[int]]:
    """(PairingPlayer for everyone to pair in `round_number`, ids asking for a bye). The same
    for an event played here and one imported from a TRF file (its rounds are games alike):
    placements of the games played, forfeit wins (no bye after one), and the floats the
    scores before each round imply."""
    rows = standings_compute(tournament=tournament)
    scores = {row.entrant.id: row.score for row in rows}
    opponents: dict[int, set[int]] = {}
    placements: dict[int, list[tuple[int, str]]] = {}
    met: dict[tuple[int, int], int] = {}
    byes: set[int] = set()
    forfeit_wins: set[int] = set()
    earlier = Game.objects.filter(round__tournament=tournament, round__number__lt=round_number)
    for g in earlier.values("round__number", "kind", "first_id", "second_id", "result"):
        first, second, number = g["first_id"], g["second_id"], g["round__number"]
        if g["kind"] == Game.Kind.BYE:
            byes.add(first)
        if second is None:
            continue
        opponents.setdefault(first, set()).add(second)
        opponents.setdefault(second, set()).add(first)
        if g["result"] == Game.Result.FIRST_FORFEIT_WIN:
            forfeit_wins.add(first)
        elif g["result"] == Game.Result.SECOND_FORFEIT_WIN:
            forfeit_wins.add(second)
        if g["result"] in _UNPLAYED:
            continue
        met[(number, first)], met[(number, second)] = second, first
        placements.setdefault(first, []).append((number, "F"))
        placements.setdefault(second, []).append((number, "S"))
    floats = _floats(rows=rows, met=met, rounds=round_number - 1)
    requested = set(
        ByeRequest.objects.filter(
            registration__tournament=tournament,
            registration__status=Registration.Status.ACTIVE,
            registration__first_round__lte=round_number,
            round_number=round_number,
            confirmed=True,  # a bye the player asked for counts once an arbiter confirms it
        ).values_list("registration__player_id", flat=True)
    )
    forbidden: dict[int, set[int]] = {}
    for a, b in ForbiddenPair.objects.filter(tournament=tournament).values_list(
        "first_id", "second_id"
    ):
        forbidden.setdefault(a, set()).add(b)
        forbidden.setdefault(b, set()).add(a)
    # Who did not check in for the round, when the event treats them as absent: unpaired.
    absent = check_in_absent_players(tournament=tournament, round_number=round_number)
    players = []
    regs = Registration.objects.filter(tournament=tournament).select_related("player__club")
    for i, reg in enumerate(regs.order_by("start_rank", "id"), start=1):
        if reg.status != Registration.Status.ACTIVE or reg.first_round > round_number:
            continue
        if reg.player_id in requested or reg.player_id in absent:
            continue
        pid = reg.player_id
        players.append(
            PairingPlayer(
                id=pid,
                rank=reg.start_rank or i,
                score=scores.get(pid, 0.0),
                rating=reg.player.rating,
                opponents=frozenset(opponents.get(pid, ())),
                had_bye=pid in byes,
                placements=tuple(p for _, p in sorted(placements.get(pid, []))),
                club=reg.player.club.name if reg.player.club else "",
                forbidden=frozenset(forbidden.get(pid, ())),
                name=reg.player.name,
                forfeit_win=pid in forfeit_wins,
                floats=floats.get(pid, ("D",) * (round_number - 1)),
            )
        )
    return players, sorted(requested)


def _floats(
    *, rows: tuple[StandingRow, ...], met: dict[tuple[int, int], int], rounds: int
) -> dict[int, tuple[str, ...]]:
    """Each player's float in rounds 1 to `rounds` (FIDE C.04.3 A.4): 'D' against a lower
    score before the round or without a game played, 'U' against a higher one, '' level."""
    before: dict[int, list[float]] = {}
    for row in rows:
        points = [0.0] * (rounds + 1)
        for r in row.rounds.values():
            if r.counted and 1 <= r.round <= rounds:
                points[r.round] += r.points
        running, total = [], 0.0
        for number in range(1, rounds + 1):
            running.append(total)
            total += points[number]
        before[row.entrant.id] = running
    out = {}
    for pid, mine in before.items():
        marks = []
        for number in range(1, rounds + 1):
            other = met.get((number, pid))
            theirs = before.get(other, mine)[number - 1] if other is not None else None
            if theirs is None or mine[number - 1] > theirs:
                marks.append("D")
            else:
                marks.append("U" if mine[number - 1] < theirs else "")
        out[pid] = tuple(marks)
    return out
