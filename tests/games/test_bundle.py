"""`kz bundle export SLUG --out DIR` writes every record of a tournament with its signatures
and the signers' public keys; `kz verify DIR` checks them offline (without Django or the
database) and finds a tampered ply, a swapped key, a dropped signature and a missing file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from games.kz.offline_signing import verify_folder
from games.models import RecordSubmission
from games.signing import generate_key, sign_record
from tests.games.test_signed_final import Battle, battle_make, signed_by_both

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def battle(setup) -> Battle:  # type: ignore[no-untyped-def]
    return battle_make(*setup)


def export(b: Battle, out: Path) -> dict:  # type: ignore[type-arg]
    call_command("kz", "bundle", "export", b.game.round.tournament.slug, "--out", str(out))
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def verify_offline(out: Path) -> tuple[int, dict]:  # type: ignore[type-arg]
    """`kz verify DIR --json` run by the engine's own entry point: no settings, no database."""
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "games.kz.engine_commands", "verify", str(out), "--json"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stderr == "", done.stderr
    return done.returncode, json.loads(done.stdout)


def test_export_then_verify_offline(battle, tmp_path):
    rid = signed_by_both(battle)
    # A loose record of the tournament (no game found) is exported too, unsigned.
    RecordSubmission.objects.create(
        tournament=battle.game.round.tournament, raw=b"\xffnot a record", version=1
    )
    out = tmp_path / "bundle"
    manifest = export(battle, out)
    files = {r["file"]: r for r in manifest["records"]}
    name = f"r{battle.game.round.number:02d}-b{battle.game.board:02d}-v1.json"
    assert files[name]["submission"] == rid and files[name]["signatures"] == 2
    assert files[name]["final"] is True
    assert any(f.startswith("unmatched-") for f in files)
    assert manifest["keys"] == {"first": [battle.first.pub], "second": [battle.second.pub]}
    record = json.loads((out / name).read_text(encoding="utf-8"))
    assert {s["role"]: s["signer"] for s in record["signatures"]} == {
        "first": "first",
        "second": "second",
    }
    status, report = verify_offline(out)
    assert status == 0 and report["valid"] is True and report["problems"] == []
    held = [s["valid"] for r in report["records"] for s in r["signatures"]]
    assert held == [True, True]
    # Through the dispatcher too, in words.
    call_command("kz", "verify", str(out))


def tamper(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_a_tampered_bundle_is_found(battle, tmp_path, capsys):
    signed_by_both(battle)
    out = tmp_path / "bundle"
    export(battle, out)
    name = f"r{battle.game.round.number:02d}-b{battle.game.board:02d}-v1.json"
    path = out / name
    pristine = path.read_text(encoding="utf-8")

    # A ply changed: neither signature holds.
    tamper(path, lambda d: d.update(record=d["record"].replace("F69", "F59", 1)))
    status, report = verify_offline(out)
    assert status == 1 and report["valid"] is False
    reasons = [s["why"] for r in report["records"] for s in r["signatures"]]
    assert reasons == ["does not sign this record"] * 2
    with pytest.raises(SystemExit) as e:
        call_command("kz", "verify", str(out))
    assert e.value.code == 1 and "INVALID: first first" in capsys.readouterr().out

    # Both a ply and the first signature replaced with a forger's key: the signature holds
    # for the forged record, but the key is not one the signer registered.
    pem, pub = generate_key()

    def forge(d: dict) -> None:  # type: ignore[type-arg]
        d["record"] = d["record"].replace("F69", "F59", 1)
        forged = sign_record(d["record"], pem)
        d["signatures"][0].update(public_key=pub, signature=forged.signature)

    path.write_text(pristine, encoding="utf-8")
    tamper(path, forge)
    status, report = verify_offline(out)
    assert status == 1
    first = report["records"][0]["signatures"][0]
    assert first["valid"] is False and "not one first registered" in first["why"]

    # A signature dropped: the manifest counts two.
    path.write_text(pristine, encoding="utf-8")
    tamper(path, lambda d: d["signatures"].pop())
    status, report = verify_offline(out)
    assert status == 1 and "the manifest lists 2 signatures, the file has 1" in " ".join(
        report["problems"]
    )

    # A file removed.
    path.unlink()
    status, report = verify_offline(out)
    assert status == 1 and report["problems"] == [f"{name}: listed in the manifest but missing"]

    # Put back as exported, it verifies again.
    path.write_text(pristine, encoding="utf-8")
    assert verify_offline(out)[0] == 0


def test_export_of_an_unknown_tournament_fails(db, tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        call_command("kz", "bundle", "export", "no-such-event", "--out", str(tmp_path))
    assert e.value.code == 2 and "no tournament 'no-such-event'" in capsys.readouterr().err


def test_verify_of_a_folder_without_a_manifest_is_status_2(tmp_path):
    (tmp_path / "x.json").write_text("{}", encoding="utf-8")
    report, status = verify_folder(tmp_path)
    assert status == 2 and "manifest" in report["error"]
