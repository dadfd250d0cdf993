"""Real Celery worker processes against Redis, on the test database (integration and browser
tests)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]


def service_env(**overrides: str) -> dict[str, str]:
    """The environment of a process that shares this test run's database."""
    # The child gets this process's Redis database as its REDIS_URL, not the xdist worker's
    # name to derive it again (klinzha_site/settings/test.py).
    dropped = {"DJANGO_ALLOW_ASYNC_UNSAFE", "PYTEST_XDIST_WORKER"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env["DJANGO_SETTINGS_MODULE"] = "klinzha_site.settings.test"
    if settings.REDIS_URL:
        env["REDIS_URL"] = settings.REDIS_URL
    db_name = settings.DATABASES["default"]["NAME"]
    base = env["DATABASE_URL"].rsplit("/", 1)[0]
    env["DATABASE_URL"] = f"{base}/{db_name}"
    env.update(overrides)
    return env


# The node names of the workers this process started: asking them by name, the broadcast
# returns once each has answered instead of waiting out its whole timeout.
_NODES: set[str] = set()


@contextmanager
def celery_worker(
    name: str, queues: str = "celery", **env: str
) -> Iterator[subprocess.Popen[bytes]]:
    """A `celery worker` process; waits until it answers a ping."""
    from celery import Celery

    full_env = service_env(**env)
    log_name = f".celery-test-{name}{os.environ.get('PYTEST_XDIST_WORKER', '')}.log"
    log = open(ROOT / log_name, "wb")  # noqa: SIM115
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
    node = f"{name}@{os.uname().nodename}"
    deadline = time.time() + 60
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"worker {name} exited; see {log_name}")
            try:
                if probe.control.ping(destination=[node], timeout=1.0):
                    break
            except Exception:  # noqa: BLE001 - the broker may not answer yet
                time.sleep(0.5)
            if time.time() > deadline:
                raise RuntimeError(f"worker {name} did not answer within 60 s")
        if full_env["REDIS_URL"] == settings.REDIS_URL:
            _NODES.add(node)
        yield proc
    finally:
        _NODES.discard(node)
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()
        probe.close()


def wait_for(predicate, timeout: float = 60.0, interval: float = 0.1) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return False


def wait_idle(timeout: float = 30.0) -> None:
    """Wait until no worker holds a task, so that the test database can be flushed."""
    from celery import Celery

    probe = Celery(broker=settings.REDIS_URL, set_as_current=False)
    try:

        def idle() -> bool:
            inspect = probe.control.inspect(timeout=1.0, destination=sorted(_NODES) or None)
            busy = [inspect.active() or {}, inspect.reserved() or {}]
            return not any(tasks for state in busy for tasks in state.values())

        wait_for(idle, timeout, 0.2)
    finally:
        probe.close()


def worker_quiet(timeout: float = 60.0) -> None:
    """Drop the tasks still waiting in the broker and wait until no worker holds one, so
    that the test database can be flushed (a TRUNCATE against a validation in flight
    deadlocks, and thousands of queued validations would outlive the test)."""
    from celery import Celery

    probe = Celery(broker=settings.REDIS_URL, set_as_current=False)
    try:
        probe.control.purge()
    finally:
        probe.close()
    wait_idle(timeout)


def procfile_command(process: str) -> list[str]:
    """A line of the Procfile (the production process set), as argv run from this venv: the
    chaos tests run the worker and beat exactly as deployed."""
    for line in (ROOT / "Procfile").read_text(encoding="utf-8").splitlines():
        name, sep, command = line.partition(":")
        if sep and name.strip() == process and not name.startswith("#"):
            argv = command.split()
            return [str(Path(sys.executable).parent / argv[0]), *argv[1:]]
    raise KeyError(f"no {process!r} in the Procfile")


def free_port(low: int = 6390, high: int = 6399) -> int:
    """A free port in [low, high]: the private Redis servers of these tests."""
    for port in range(low, high + 1):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {low}-{high}")


class RedisServer:
    """A private redis-server on its own port, stopped (SIGKILL: a crash, nothing saved) and
    started again at will; the queue it held is lost with it, as in a real restart."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        server = shutil.which("redis-server")
        if server is None:
            raise RuntimeError("redis-server is not installed")
        self.proc = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
            + ["--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.time() + 10
        while time.time() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not listen on {self.port}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None


@contextmanager
def redis_server(port: int | None = None) -> Iterator[RedisServer]:
    server = RedisServer(port or free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def service(name: str, argv: list[str], **env: str) -> Iterator[subprocess.Popen[bytes]]:
    """A long-running process of the site (web, worker, beat) on the test database, its
    output in .service-test-NAME.log; stopped (or found dead) at the end."""
    log = open(ROOT / f".service-test-{name}.log", "wb")  # noqa: SIM115
    # Its own process group, as a service manager gives each unit its own control group:
    # kill_hard takes a worker down with its pool processes.
    proc = subprocess.Popen(
        argv,
        cwd=ROOT,
        env=service_env(**env),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        log.close()


def kill_hard(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL to a service and every process it started (an OOM kill, a pulled plug): a
    worker's tasks under way are neither finished nor acknowledged."""
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


def web_server_argv(port: int) -> list[str]:
    """The Procfile's web line on `port`, with two workers."""
    argv = procfile_command("web")
    bind = argv.index("--bind")
    argv[bind + 1] = f"127.0.0.1:{port}"
    workers = argv.index("--workers")
    argv[workers + 1] = "2"
    return argv


def asgi_server_argv(port: int) -> list[str]:
    """The Procfile's ASGI line (the live boards' sockets, and every page) on `port`, with
    one worker."""
    argv = procfile_command("asgi")
    argv[argv.index("--port") + 1] = str(port)
    argv[argv.index("--workers") + 1] = "1"
    return argv


def http_wait(url: str, timeout: float = 60.0) -> None:
    """Wait until `url` answers at all (any status)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).close()  # noqa: S310 - 127.0.0.1 only
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {timeout} s")
