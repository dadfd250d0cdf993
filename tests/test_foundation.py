"""The project's foundation: settings per environment, the kz dispatcher, API docs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "tests" / "rules" / "records" / "example1-laws-capture.kzr"


def run_manage(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=120,
        check=False,
    )


def test_production_refuses_to_start_without_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
    env["DJANGO_SETTINGS_MODULE"] = "klinzha_site.settings.production"
    proc = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode != 0
    assert "DJANGO_SECRET_KEY" in proc.stderr


def test_production_passes_check_deploy():
    proc = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={
            "DJANGO_SETTINGS_MODULE": "klinzha_site.settings.production",
            "DJANGO_SECRET_KEY": "x" * 20 + "-a-long-random-production-key-0123456789-abcdefg",
            "KZ_AUDIT_KEY": "an-audit-key-of-its-own-0123456789",
            "DJANGO_ALLOWED_HOSTS": "klinzha.example",
        },
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_kz_validate_through_manage_py():
    proc = run_manage("kz", "validate", str(EXAMPLE), "--json")
    assert proc.returncode == 0, proc.stderr
    obj = json.loads(proc.stdout)
    assert obj["valid"] is True and obj["termination"] == "capture" and obj["winner"] == "green"
    assert "file" not in obj


def test_kz_validate_exit_codes(tmp_path):
    bad = tmp_path / "bad.kzr"
    bad.write_text(
        EXAMPLE.read_text(encoding="utf-8").replace("Fl@E49 → F69", "Fe@C29 → D28"),
        encoding="utf-8",
    )
    junk = tmp_path / "junk.kzr"
    junk.write_bytes(b"\xff\xfe\x00binary")
    proc = run_manage("kz", "validate", str(bad), "--json")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["ply"] == 21
    proc = run_manage("kz", "validate", str(junk), "--json")
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["valid"] is False
    proc = run_manage("kz", "validate", str(EXAMPLE), str(bad), str(junk), "--json")
    assert proc.returncode == 2
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["file"] for o in lines] == [str(EXAMPLE), str(bad), str(junk)]
    proc = run_manage("kz", "validate", str(tmp_path / "missing.kzr"), "--json")
    assert proc.returncode == 2


def test_kz_perft_json(capsys):
    start = ROOT / "tests" / "rules" / "records" / "example-perft-start-of-battle.kzr"
    call_command("kz", "perft", str(start), "--depth", "2", "--json")
    assert json.loads(capsys.readouterr().out) == {"depth": 2, "nodes": 2015}


@pytest.mark.django_db
def test_api_schema_and_docs(client):
    resp = client.get("/api/schema/")
    assert resp.status_code == 200
    assert b"openapi" in resp.content
    assert client.get("/api/docs/").status_code == 200
