"""Real Celery worker processes against Redis, on the test database (integration and browser
tests)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def service_env(**overrides: str) -> dict[str, str]:
    """The environment of a process that shares this test run's database."""
    from django.conf import settings

    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env["DJANGO_SETTINGS_MODULE"] = "klinzha_site.settings.test"
    db_name = settings.DATABASES["default"]["NAME"]
    base = env["DATABASE_URL"].rsplit("/", 1)[0]
    env["DATABASE_URL"] = f"{base}/{db_name}"
    env.update(overrides)
    return env


@contextmanager
def celery_worker(
    name: str, queues: str = "celery", **env: str
) -> Iterator[subprocess.Popen[bytes]]:
    """A `celery worker` process; waits until it answers a ping."""
    from celery import Celery

    full_env = service_env(**env)
    log = open(ROOT / f".celery-test-{name}.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "klinzha_site",
            "worker",
            "-P",
            "solo",
            "--loglevel",
            "INFO",
            "-Q",
            queues,
            "-n",
            f"{name}@%h",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=full_env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    probe = Celery(broker=full_env["REDIS_URL"], set_as_current=False)
    deadline = time.time() + 60
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"worker {name} exited; see .celery-test-{name}.log")
            try:
                if probe.control.ping(destination=[f"{name}@{os.uname().nodename}"], timeout=1.0):
                    break
            except Exception:  # noqa: BLE001 - the broker may not answer yet
                time.sleep(0.5)
            if time.time() > deadline:
                raise RuntimeError(f"worker {name} did not answer within 60 s")
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()
        probe.close()


def wait_for(predicate, timeout: float = 60.0, interval: float = 0.3) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False


def wait_idle(timeout: float = 30.0) -> None:
    """Wait until no worker holds a task, so that the test database can be flushed."""
    from celery import Celery

    probe = Celery(broker=os.environ["REDIS_URL"], set_as_current=False)
    try:

        def idle() -> bool:
            inspect = probe.control.inspect(timeout=1.0)
            busy = [inspect.active() or {}, inspect.reserved() or {}]
            return not any(tasks for state in busy for tasks in state.values())

        wait_for(idle, timeout, 0.5)
    finally:
        probe.close()
