"""The production process set consumes every queue a task is routed to: the Procfile and the
systemd units each have a worker for it, and the default queue's worker takes the pages too."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]


def _queues(command: str) -> set[str]:
    found = re.search(r"\s-Q\s+(\S+)", command)
    return set(found.group(1).split(",")) if found else {"celery"}


def _procfile_workers() -> dict[str, set[str]]:
    lines = (ROOT / "Procfile").read_text(encoding="utf-8").splitlines()
    return {
        name: _queues(command)
        for name, _, command in (line.partition(": ") for line in lines if not line.startswith("#"))
        if " worker" in command
    }


def _unit_workers() -> dict[str, set[str]]:
    out = {}
    for unit in sorted((ROOT / "deploy" / "systemd").glob("*.service")):
        start = re.search(r"^ExecStart=(.*)$", unit.read_text(encoding="utf-8"), re.M)
        if start and " worker" in start.group(1):
            out[unit.name] = _queues(start.group(1))
    return out


def test_every_routed_queue_has_a_worker_in_the_procfile_and_the_units():
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()} | {"celery"}
    for workers in (_procfile_workers(), _unit_workers()):
        consumed = set().union(*workers.values())
        assert routed <= consumed, workers
        # One worker alone (the Procfile's first) still runs everything.
        assert routed <= next(iter(workers.values())) or routed <= workers.get(
            "klinzha-worker.service", set()
        ), workers
