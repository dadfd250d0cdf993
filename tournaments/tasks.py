"""Celery tasks of the tournaments app: thin, take ids, call one service."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError


@shared_task(
    name="tournaments.pair_round",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
)
def pair_round_task(job_id: int) -> str:
    from tournaments.services import pairing_job_run

    return pairing_job_run(job_id=job_id).status
