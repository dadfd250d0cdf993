"""Celery tasks of the tournaments app: thin, take ids, call one service."""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_ready

from klinzha_site.celery_options import RELIABLE
from tournaments.published import tournament_pages_prerender
from tournaments.services.check_in import CHECK_IN_REMIND_TASK, check_in_remind
from tournaments.services.common import PAGES_RENDER_TASK
from tournaments.services.pairing_jobs import (
    PAIR_ROUND_TASK,
    PAIRING_SWEEP_TASK,
    pairing_job_run,
    pairing_jobs_fail_stale,
)
from tournaments.services.ratings import (
    RATINGS_RUN_TASK,
    RATINGS_SWEEP_TASK,
    ratings_run,
    ratings_sweep,
)


@shared_task(name=PAIR_ROUND_TASK, max_retries=3, **RELIABLE)
def pair_round_task(job_id: int) -> str:
    return pairing_job_run(job_id=job_id).status


@shared_task(name=PAIRING_SWEEP_TASK, ignore_result=True)
def pairing_jobs_sweep_task() -> int:
    """The pairing jobs' sweep, every KZ_SWEEP_EVERY seconds from the beat schedule."""
    return pairing_jobs_fail_stale()


@shared_task(name=PAGES_RENDER_TASK, ignore_result=True)
def published_pages_render_task(tournament_id: int) -> int:
    """A tournament's pages its readers read lately, rendered ahead once its version changed
    (lost, the readers render them themselves)."""
    return tournament_pages_prerender(tournament_id=tournament_id)


@shared_task(name=RATINGS_RUN_TASK, max_retries=3, **RELIABLE)
def ratings_run_task(pool: str) -> dict[str, object]:
    """A pool's corrections, re-ratings and due closes (queued by a close by hand, on
    commit): each period its own transaction, so a run cut short is finished by the next."""
    summary = ratings_run(pool=pool)
    return {"marked": summary.marked, "rerated": summary.rerated, "closed": summary.closed}


@shared_task(name=RATINGS_SWEEP_TASK, ignore_result=True)
def rating_periods_sweep_task() -> int:
    """Every pool's ratings_run, every KZ_SWEEP_EVERY seconds from the beat schedule."""
    return sum(len(s.closed) + len(s.rerated) for s in ratings_sweep().values())


@shared_task(name=CHECK_IN_REMIND_TASK, max_retries=3, **RELIABLE)
def check_in_remind_task(window_id: int) -> int:
    """A check-in window's reminder mails (queued when the window is set, on commit)."""
    return check_in_remind(window_id=window_id)


@worker_ready.connect
def _sweep_on_start(**_: object) -> None:
    """A worker coming up fails the jobs that stalled while none ran."""
    pairing_jobs_sweep_task.delay()
