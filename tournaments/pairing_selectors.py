"""Reads for pairing: who is paired in a round as the engines see them, and a pairing
job's progress."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.core.cache import cache

from tournaments.models import ByeRequest, ForbiddenPair, Game, PairingJob, Registration, Tournament
from tournaments.pairing import PairingPlayer
from tournaments.selectors import standings_compute


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
    """(PairingPlayer for everyone to pair in `round_number`, ids asking for a bye)."""
    scores = {row.entrant.id: row.score for row in standings_compute(tournament=tournament)}
    opponents: dict[int, set[int]] = {}
    placements: dict[int, list[tuple[int, str]]] = {}
    byes: set[int] = set()
    earlier = Game.objects.filter(round__tournament=tournament, round__number__lt=round_number)
    for g in earlier.values("round__number", "kind", "first_id", "second_id"):
        if g["kind"] == Game.Kind.BYE:
            byes.add(g["first_id"])
        if g["second_id"] is not None:
            opponents.setdefault(g["first_id"], set()).add(g["second_id"])
            opponents.setdefault(g["second_id"], set()).add(g["first_id"])
            placements.setdefault(g["first_id"], []).append((g["round__number"], "F"))
            placements.setdefault(g["second_id"], []).append((g["round__number"], "S"))
    requested = set(
        ByeRequest.objects.filter(
            registration__tournament=tournament,
            registration__status=Registration.Status.ACTIVE,
            registration__first_round__lte=round_number,
            round_number=round_number,
        ).values_list("registration__player_id", flat=True)
    )
    forbidden: dict[int, set[int]] = {}
    for a, b in ForbiddenPair.objects.filter(tournament=tournament).values_list(
        "first_id", "second_id"
    ):
        forbidden.setdefault(a, set()).add(b)
        forbidden.setdefault(b, set()).add(a)
    players = []
    regs = Registration.objects.filter(tournament=tournament).select_related("player__club")
    for i, reg in enumerate(regs.order_by("start_rank", "id"), start=1):
        if reg.status != Registration.Status.ACTIVE or reg.first_round > round_number:
            continue
        if reg.player_id in requested:
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
            )
        )
    return players, sorted(requested)
