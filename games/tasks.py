"""Celery tasks of the games app: thin, take ids, call one service."""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_ready

from games.live_fanout import battle_ended_fanout
from games.services import (
    live_flags_sweep,
    submission_requeue_stale,
    submission_validate,
    submission_validate_many,
)
from games.services.live_battles import LIVE_FLAGS_SWEEP_TASK
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


@shared_task(name=LIVE_FLAGS_SWEEP_TASK, ignore_result=True)
def live_flags_sweep_task() -> int:
    """The flag sweep, every KZ_SWEEP_EVERY seconds from the beat schedule: the battles
    whose flag fell with no socket there to ask end, and whoever watches is told."""
    ended = live_flags_sweep()
    for battle_id, ending in ended:
        battle_ended_fanout(battle_id=battle_id, ended=ending)
    return len(ended)


@worker_ready.connect
def _requeue_on_start(**_: object) -> None:
    """A worker coming up takes over what was stored while no broker or worker ran."""
    requeue_stale_task.delay()
