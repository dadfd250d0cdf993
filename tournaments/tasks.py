"""Celery tasks of the tournaments app: thin, take ids, call one service."""

from __future__ import annotations

from celery import shared_task

from klinzha_site.celery_options import RELIABLE


@shared_task(name="tournaments.pair_round", max_retries=3, **RELIABLE)
def pair_round_task(job_id: int) -> str:
    from tournaments.services import pairing_job_run

    return pairing_job_run(job_id=job_id).status
