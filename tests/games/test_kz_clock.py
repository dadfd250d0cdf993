"""`kz clock FILE --json` prints exactly the decision object."""

from __future__ import annotations

import json

from django.core.management import call_command

from rules.record import write_record
from tests.rules.test_clock import record


def test_kz_clock_json(tmp_path, capsys):
    path = tmp_path / "game.kzr"
    path.write_text(write_record(record("20/1800:1200", {30: "0:00:00"})), encoding="utf-8")
    call_command("kz", "clock", str(path), "--json")
    assert json.loads(capsys.readouterr().out) == {
        "decision": "time",
        "loser": "gold",
        "article": "6.5",
    }


def test_kz_clock_unreadable(tmp_path, capsys):
    import pytest

    path = tmp_path / "bad.kzr"
    path.write_bytes(b"\x00\x01")
    with pytest.raises(SystemExit) as e:
        call_command("kz", "clock", str(path), "--json")
    assert e.value.code == 2
    assert "error" in json.loads(capsys.readouterr().out)
