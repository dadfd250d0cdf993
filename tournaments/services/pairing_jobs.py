"""Pairing a large field in a worker: the job, its queueing and its run with progress."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from klinzha_site.tasking import task_send
from tournaments.models import PairingJob, Tournament
from tournaments.pairing_selectors import pairing_progress_key
from tournaments.services.common import (
    acting_account,
    next_round_number,
    pairing_preconditions_check,
    require_arbiter,
    tournament_lock,
)
from tournaments.services.round_pairing import round_pair

# Fields at least this large are paired by a worker, with progress on the arbiter's page.
PAIR_IN_WORKER_FROM = 200

PAIR_ROUND_TASK = "tournaments.pair_round"


@transaction.atomic
def pairing_job_create(*, tournament: Tournament, user: Any = None) -> PairingJob:
    """Queue the pairing of the next round in a worker (once committed)."""
    require_arbiter(user, tournament)
    tournament_lock(tournament.pk)
    busy = tournament.pairing_jobs.filter(
        status__in=[PairingJob.Status.QUEUED, PairingJob.Status.RUNNING]
    ).first()
    if busy is not None:
        raise ValidationError(
            {
                "round": gettext("round %(round_number)s is being paired already")
                % {"round_number": busy.round_number}
            }
        )
    number = next_round_number(tournament)
    pairing_preconditions_check(tournament, number)
    job = PairingJob.objects.create(
        tournament=tournament, round_number=number, requested_by=acting_account(user)
    )
    transaction.on_commit(lambda: _pairing_job_enqueue(job.pk))
    return job


def _pairing_job_enqueue(job_id: int) -> None:
    if not task_send(PAIR_ROUND_TASK, job_id):
        PairingJob.objects.filter(pk=job_id).update(
            status=PairingJob.Status.FAILED, message="no worker could be reached"
        )


def pairing_job_run(*, job_id: int) -> PairingJob:
    """Pair the job's round as a proposal, writing progress as it goes (idempotent: a
    finished job is left alone)."""
    job = PairingJob.objects.select_related("tournament", "requested_by").get(pk=job_id)
    if job.status in (PairingJob.Status.DONE, PairingJob.Status.FAILED):
        return job
    PairingJob.objects.filter(pk=job.pk).update(status=PairingJob.Status.RUNNING)
    last = [0.0]

    def progress(fraction: float, what: str) -> None:
        # The pairing runs inside round_pair's transaction, where a row update would stay
        # invisible until the end: progress goes to the cache (Redis when workers run
        # apart), at most every 2 %.
        if fraction - last[0] >= 0.02 or fraction == 0:
            last[0] = fraction
            cache.set(pairing_progress_key(job.pk), (fraction, what), 3600)

    try:
        rnd = round_pair(
            tournament=job.tournament,
            user=job.requested_by,
            round_number=job.round_number,
            publish=False,
            progress=progress,
        )
    except (ValidationError, PermissionDenied) as exc:
        PairingJob.objects.filter(pk=job.pk).update(
            status=PairingJob.Status.FAILED,
            message="; ".join(getattr(exc, "messages", [str(exc)])),
            finished_at=timezone.now(),
        )
    else:
        PairingJob.objects.filter(pk=job.pk).update(
            status=PairingJob.Status.DONE,
            progress=1.0,
            message=f"round {rnd.number} proposed",
            finished_at=timezone.now(),
        )
    job.refresh_from_db()
    return job
