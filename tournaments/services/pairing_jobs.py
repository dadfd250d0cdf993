"""Pairing a large field in a worker: the job, its queueing and its run with progress."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from klinzha_site.tasking import task_send
from klinzha_site.user_types import AnyUser
from tournaments.models import PairingJob, Tournament
from tournaments.pairing_selectors import (
    pairing_heartbeat_key,
    pairing_job_moved_at,
    pairing_progress_key,
)
from tournaments.services.common import (
    acting_account,
    next_round_number,
    pairing_preconditions_check,
    require_arbiter,
    tournament_lock,
)
from tournaments.services.round_pairing import Progress, round_pair

log = logging.getLogger(__name__)

# Fields at least this large are paired by a worker, with progress on the arbiter's page.
PAIR_IN_WORKER_FROM = 200

PAIR_ROUND_TASK = "tournaments.pair_round"
# The sweep's name, as the beat schedule (settings.CELERY_BEAT_SCHEDULE) spells it.
PAIRING_SWEEP_TASK = "tournaments.pairing_jobs_sweep"
OPEN = [PairingJob.Status.QUEUED, PairingJob.Status.RUNNING]
# A running pairing writes its progress at least this often (seconds) while it moves.
HEARTBEAT_EVERY = 5.0
STALE_REASON = "no progress for %(seconds)s s: the worker pairing it stopped, or none took it"


@transaction.atomic
def pairing_job_create(*, tournament: Tournament, user: AnyUser | None = None) -> PairingJob:
    """Queue the pairing of the next round in a worker (once committed)."""
    require_arbiter(user, tournament)
    tournament_lock(tournament.pk)
    pairing_jobs_fail_stale(tournament_id=tournament.pk)
    busy = tournament.pairing_jobs.filter(status__in=OPEN).first()
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
        tournament=tournament,
        round_number=number,
        requested_by=acting_account(user),
        heartbeat_at=timezone.now(),
    )
    transaction.on_commit(lambda: _pairing_job_enqueue(job.pk))
    return job


def _pairing_job_enqueue(job_id: int) -> None:
    if not task_send(PAIR_ROUND_TASK, job_id):
        _job_fail(job_id, "no worker could be reached")


def pairing_job_run(*, job_id: int) -> PairingJob:
    """Pair the job's round as a proposal, writing progress as it goes (idempotent: a
    finished job is left alone). The round and the job's outcome are stored in one
    transaction, under the tournament's lock, and only while the job is still running: a
    job the sweep failed meanwhile stores nothing. Any other failure fails the job with
    its reason, so the round can be paired again."""
    job = PairingJob.objects.select_related("tournament", "requested_by").get(pk=job_id)
    started = PairingJob.objects.filter(pk=job.pk, status__in=OPEN).update(
        status=PairingJob.Status.RUNNING, heartbeat_at=timezone.now()
    )
    if not started:
        return job
    try:
        with transaction.atomic():
            rnd = round_pair(
                tournament=job.tournament,
                user=job.requested_by,
                round_number=job.round_number,
                publish=False,
                progress=_progress_writer(job.pk),
            )
            finished = PairingJob.objects.filter(
                pk=job.pk, status=PairingJob.Status.RUNNING
            ).update(
                status=PairingJob.Status.DONE,
                progress=1.0,
                message=f"round {rnd.number} proposed",
                finished_at=timezone.now(),
            )
            if not finished:
                raise _JobGone
    except _JobGone:
        log.warning("pairing job %s was failed while it ran: its round is not stored", job.pk)
    except (ValidationError, PermissionDenied) as exc:
        _job_fail(job.pk, "; ".join(getattr(exc, "messages", [str(exc)])))
    except Exception as exc:
        log.exception("pairing job %s raised", job.pk)
        _job_fail(job.pk, f"{type(exc).__name__}: {exc}")
    job.refresh_from_db()
    return job


class _JobGone(Exception):
    """The job is no longer running (failed by the sweep): its round must not be stored."""


def _progress_writer(job_id: int) -> Progress:
    last = {"fraction": -1.0, "at": 0.0}
    delay = float(getattr(settings, "KZ_PAIRING_DELAY", 0) or 0)

    def progress(fraction: float, what: str) -> None:
        # The pairing runs inside a transaction, where a row update would stay invisible
        # until the end: progress goes to the cache (Redis when workers run apart), at most
        # every 2 % or every few seconds, with the time it moved for the sweep.
        now = time.time()
        if fraction - last["fraction"] >= 0.02 or now - last["at"] >= HEARTBEAT_EVERY:
            last["fraction"], last["at"] = fraction, now
            cache.set_many(
                {
                    pairing_progress_key(job_id): (fraction, what),
                    pairing_heartbeat_key(job_id): now,
                },
                3600,
            )
        if delay and fraction == 0:
            time.sleep(delay)  # lets the integration tests stop a worker mid-pairing

    return progress


def _job_fail(job_id: int, reason: str) -> int:
    """Fail a queued or running job with its reason, in its own transaction."""
    return PairingJob.objects.filter(pk=job_id, status__in=OPEN).update(
        status=PairingJob.Status.FAILED, message=reason[:2000], finished_at=timezone.now()
    )


def pairing_jobs_fail_stale(*, tournament_id: int | None = None) -> int:
    """The sweep: fail every queued or running job whose progress has not moved for
    KZ_PAIRING_STALE_AFTER seconds (its task lost, its worker killed), so that the round
    can be paired again; returns how many."""
    after = float(settings.KZ_PAIRING_STALE_AFTER)
    limit = timezone.now() - timedelta(seconds=after)
    jobs = PairingJob.objects.filter(status__in=OPEN).filter(
        Q(heartbeat_at__lte=limit) | Q(heartbeat_at__isnull=True, created_at__lte=limit)
    )
    if tournament_id is not None:
        jobs = jobs.filter(tournament_id=tournament_id)
    failed = 0
    for job in jobs:
        if pairing_job_moved_at(job=job) > limit:
            continue
        reason = STALE_REASON % {"seconds": round(after)}
        failed += PairingJob.objects.filter(
            pk=job.pk, status=job.status, heartbeat_at=job.heartbeat_at
        ).update(status=PairingJob.Status.FAILED, message=reason, finished_at=timezone.now())
    return failed
