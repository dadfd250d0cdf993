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


def _procfile_lines() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text(encoding="utf-8").splitlines()
    return {
        name: command
        for name, _, command in (line.partition(": ") for line in lines if line.strip())
        if not name.startswith("#")
    }


def test_the_sockets_have_an_asgi_process_beside_the_wsgi_web():
    """The live boards' sockets are served by an ASGI process of their own, in the Procfile
    and as a unit, with the same command; the web stays on WSGI; `make run` serves both from
    one uvicorn."""
    procfile = _procfile_lines()
    asgi = [command for command in procfile.values() if "klinzha_site.asgi:application" in command]
    assert procfile["asgi"] in asgi and len(asgi) == 1
    assert "klinzha_site.wsgi" in procfile["web"]
    unit = (ROOT / "deploy" / "systemd" / "klinzha-asgi.service").read_text(encoding="utf-8")
    start = re.search(r"^ExecStart=(.*)$", unit, re.M)
    assert start is not None
    assert start.group(1).replace("/srv/klinzha/.venv/bin/", "") == procfile["asgi"]
    # Each unit listens on its own port: the proxy sends /ws/ to the ASGI one.
    ports = {
        re.search(r"(?:--port |:)(\d{4})\b", command).group(1)  # type: ignore[union-attr]
        for command in (procfile["web"], procfile["asgi"])
    }
    assert len(ports) == 2
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "uvicorn klinzha_site.asgi:application" in makefile
