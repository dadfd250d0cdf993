"""Celery tasks of the games app: thin, take ids, call one service."""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_ready

from games.services import (
    submission_requeue_stale,
    submission_validate,
    submission_validate_many,
)
from games.services.records import REQUEUE_STALE_TASK, VALIDATE_BATCH_TASK, VALIDATE_TASK
from klinzha_site.celery_options import RELIABLE


@shared_task(name="games.ping")
def ping(value: int) -> int:
    """Round trip used to check that a worker is listening."""
    return value + 1


@shared_task(name=VALIDATE_TASK, max_retries=5, **RELIABLE)
def validate_record_task(submission_id: int) -> str:
    return submission_validate(submission_id=submission_id).status


@shared_task(name=VALIDATE_BATCH_TASK, max_retries=5, **RELIABLE)
def validate_records_task(submission_ids: list[int]) -> int:
    """A batch of a bulk upload: one task per batch saves the per-task round trips; a retry
    skips what is done already."""
    return submission_validate_many(submission_ids=submission_ids)


@shared_task(name=REQUEUE_STALE_TASK, ignore_result=True)
def requeue_stale_task() -> int:
    """The sweep, every KZ_SWEEP_EVERY seconds from the beat schedule."""
    return submission_requeue_stale()


@worker_ready.connect
def _requeue_on_start(**_: object) -> None:
    """A worker coming up takes over what was stored while no broker or worker ran."""
    requeue_stale_task.delay()
