"""The site's Ed25519 key: `/.well-known/klinzha-site-key` publishes its current and retired
public keys; rotation keeps old records verifying; `kz verify` checks the site's signature
(with `--site-keys`, that it is by one of the site's keys); `kz bundle export` carries the
site's keys for the offline check."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from games.kz.offline_signing import verify_folder
from games.live_models import LiveBattle
from games.services.live_battles import live_resign
from games.signing import bundle, generate_key, public_key_canonical
from games.site_key import site_keys_published, site_sign
from tests.games.test_live_rounds import _online, _publish

RECORD = (
    '[Event "Site key"]\n[Round "1"]\n[Green "Ann"]\n[Gold "Bob"]\n[FirstPlacement "green"]\n'
    '[Result "gold"]\n[Termination "resignation"]\n\n1. V→I99\n'
)


def test_the_well_known_address_answers_the_current_and_retired_keys(site_key_file, tmp_path):
    old_pem, old_pub = generate_key()
    with override_settings(KZ_SITE_KEY_ID="site-2", KZ_SITE_RETIRED_KEYS={"site-1": old_pub}):
        resp = Client().get("/.well-known/klinzha-site-key")
        assert resp.status_code == 200 and resp["Content-Type"] == "application/json"
        data = resp.json()
    assert (data["key_id"], data["algorithm"]) == ("site-2", "Ed25519")
    assert data["public_key"] == site_sign(RECORD).public_key
    assert data["retired"] == [{"key_id": "site-1", "public_key": old_pub}]
    with override_settings(KZ_SITE_KEY_FILE=str(tmp_path / "none.key")):
        assert Client().get("/.well-known/klinzha-site-key").json()["public_key"] is None


def _verify(*args: str) -> int:
    try:
        call_command("kz", "verify", *args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def test_kz_verify_checks_the_site_signature_and_its_key(tmp_path, capsys):
    signed = tmp_path / "online.json"
    signed.write_text(bundle(RECORD, [site_sign(RECORD)]), encoding="utf-8")
    keys = tmp_path / "site-key.json"
    keys.write_text(json.dumps(site_keys_published()), encoding="utf-8")
    assert _verify(str(signed), "--site-keys", str(keys)) == 0
    assert "valid: (site) site" in capsys.readouterr().out

    # Rotated: the old key retired, a new one current; the old record still verifies.
    new = tmp_path / "new.key"
    new.write_text(generate_key()[0], encoding="ascii")
    old_pub = site_keys_published()["public_key"]
    with override_settings(KZ_SITE_KEY_FILE=str(new), KZ_SITE_RETIRED_KEYS={"site-1": old_pub}):
        keys.write_text(json.dumps(site_keys_published()), encoding="utf-8")
    assert _verify(str(signed), "--site-keys", str(keys)) == 0

    # A key that is not the site's signs as "the site": refused with the site's keys given.
    impostor_pem, _ = generate_key()
    with override_settings(KZ_SITE_KEY_FILE=str(tmp_path / "impostor.key")):
        (tmp_path / "impostor.key").write_text(impostor_pem, encoding="ascii")
        forged = site_sign(RECORD)
    signed.write_text(bundle(RECORD, [forged]), encoding="utf-8")
    assert _verify(str(signed)) == 0  # it signs the record…
    assert _verify(str(signed), "--site-keys", str(keys)) == 1  # …but not as the site
    # A changed record fails whatever the key.
    signed.write_text(bundle(RECORD.replace("Ann", "Anm"), [site_sign(RECORD)]), encoding="utf-8")
    assert _verify(str(signed)) == 1


@pytest.mark.django_db(transaction=True)
def test_the_bundle_of_an_online_event_carries_the_site_keys(tmp_path):
    officials, t, players = _online()
    rnd = _publish(officials, t, players)
    battle = LiveBattle.objects.get(game__round=rnd, game__board=1)
    live_resign(battle_id=battle.pk, user=battle.green)
    out = tmp_path / "bundle"
    call_command("kz", "bundle", "export", t.slug, "--out", str(out))
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["keys"]["(site)"] == [site_keys_published()["public_key"]]
    report, status = verify_folder(out)
    assert status == 0, report
    sigs = [s for r in report["records"] for s in r["signatures"]]
    assert [(s["role"], s["signer"], s["valid"]) for s in sigs] == [("site", "(site)", True)]


def test_an_unreadable_retired_key_is_left_out():
    _pem, pub = generate_key()
    with override_settings(KZ_SITE_RETIRED_KEYS={"old": pub, "bad": "not a key"}):
        retired = site_keys_published()["retired"]
    assert retired == [{"key_id": "old", "public_key": public_key_canonical(pub)}]
