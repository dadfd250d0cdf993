"""The bounded load test (bench/load_test.py) runs end to end: a small event, gunicorn, both
locust phases, the table; its timings are not judged here (docs/performance.md has them)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.integration


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_load_test_prints_its_table():
    base = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
    env = {**os.environ, "DATABASE_URL": f"{base}/klinzha_load_test"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, "bench/load_test.py", "--players", "12", "--rounds", "6"]
        + ["--seconds", "3", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    table = done.stdout
    for page in ("standings", "crosstable", "round 6 pairings", "player page", "rounds API"):
        assert re.search(rf"\| {page} +\| +\d+ \|", table), table
    assert re.search(r"the mix: pages \d+ req/s, static files \d+ req/s: [0-9.]+x static", table)
    assert "0 failures" in table
