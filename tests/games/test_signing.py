"""Signatures (Art. 8.2): valid, tampered ply, tampered tag, reformatted but the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from games.signing import bundle, generate_key, read_bundle, sign_record, verify_record

RECORD = (
    Path(__file__).resolve().parents[1] / "rules" / "records" / "example1-laws-capture.kzr"
).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def key():
    return generate_key()


def test_valid_and_reformatted(key):
    pem, pub = key
    sig = sign_record(RECORD, pem, signer="Kor", role="green")
    assert sig.public_key == pub
    assert verify_record(RECORD, sig)
    reformatted = RECORD.replace("\n", "  \n").replace("Fl@E49 → F69", "Fl @ E49->F69")
    assert verify_record(reformatted, sig)


def test_tampered_ply_and_tag(key):
    pem, _ = key
    sig = sign_record(RECORD, pem)
    assert not verify_record(RECORD.replace("Fl@E49 → F69", "Fl@E49 → F59"), sig)
    assert not verify_record(RECORD.replace('[Gold "Kang"]', '[Gold "Kang2"]'), sig)


def test_other_key_fails(key):
    pem, _ = key
    other_pem, other_pub = generate_key()
    sig = sign_record(RECORD, pem)
    forged = type(sig)(other_pub, sig.signature)
    assert not verify_record(RECORD, forged)


def test_bundle_round_trip(key):
    pem, _ = key
    sigs = [
        sign_record(RECORD, pem, role="green"),
        sign_record(RECORD, generate_key()[0], role="gold"),
    ]
    text, back = read_bundle(bundle(RECORD, sigs))
    assert back == sigs and all(verify_record(text, s) for s in back)


def test_kz_keygen_sign_verify(tmp_path, capsys):
    call_command("kz", "keygen", "--out", str(tmp_path / "kor"))
    assert (tmp_path / "kor.key").exists() and (tmp_path / "kor.pub").exists()
    rec = tmp_path / "game.kzr"
    rec.write_text(RECORD, encoding="utf-8")
    call_command("kz", "sign", str(rec), "--key", str(tmp_path / "kor.key"), "--signer", "Kor")
    sig = tmp_path / "game.kzr.sig"
    assert json.loads(sig.read_text())["signer"] == "Kor"
    capsys.readouterr()
    call_command("kz", "verify", str(rec), str(sig), "--json")
    assert json.loads(capsys.readouterr().out)["valid"] is True
    rec.write_text(RECORD.replace('[Gold "Kang"]', '[Gold "Kahless"]'), encoding="utf-8")
    with pytest.raises(SystemExit) as e:
        call_command("kz", "verify", str(rec), str(sig), "--json")
    assert e.value.code == 1
