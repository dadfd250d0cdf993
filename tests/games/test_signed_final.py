"""Signed records are final (Art. 8.2), through the REST API and the pages: once both
combatants signed, a player's or an arbiter's plain submission is refused (409), a signature
given is not replaced by a new key, and only the arbiter's ruling (Art. 7, with its reason,
audited) makes the next version; signatures are in the API; keys as PEM or raw base64."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from games.models import Irregularity, RecordSignature, RecordSubmission, SigningKey
from games.signing import Signature, generate_key, load_private_key, sign_record, verify_record
from tests.games.conftest import CAPTURE
from tournaments.models import AuditEntry, Game

pytestmark = pytest.mark.django_db(transaction=True)
User = get_user_model()


@dataclass
class Side:
    """A combatant: their account, an API client signed in as them, and a key pair."""

    user: Any
    api: APIClient
    pem: str
    pub: str


@dataclass
class Battle:
    game: Game
    first: Side
    second: Side
    arbiter: APIClient


def side(player: Any, name: str) -> Side:
    user = User.objects.create_user(name, password=f"pw-{name}-12345")
    player.user = user
    player.save()
    api = APIClient()
    api.force_authenticate(user)
    pem, pub = generate_key()
    return Side(user, api, pem, pub)


def battle_make(game: Game, arbiter_user: Any) -> Battle:
    """The game's combatants given accounts and keys, and its arbiter's API client."""
    arbiter = APIClient()
    arbiter.force_authenticate(arbiter_user)
    return Battle(game, side(game.first, "first"), side(game.second, "second"), arbiter)


@pytest.fixture
def battle(setup) -> Battle:  # type: ignore[no-untyped-def]
    return battle_make(*setup)


def own(game: Game, text: bytes = CAPTURE) -> bytes:
    """The record with this game's combatants in its tags (green the first placer)."""
    assert game.second is not None
    return text.replace(b'[Green "Kor"]', f'[Green "{game.first.name}"]'.encode()).replace(
        b'[Gold "Kang"]', f'[Gold "{game.second.name}"]'.encode()
    )


def submit(api: APIClient, game: Game, text: bytes | None = None) -> Any:
    text = own(game) if text is None else text
    return api.post(f"/api/games/{game.pk}/records/", {"text": text.decode()}, format="json")


def sign(s: Side, record_id: int, pem: str | None = None, pub: str | None = None) -> Any:
    """Register the key (again: the same registration) and sign the record's text as the
    server holds it."""
    pem, pub = pem or s.pem, pub or s.pub
    assert s.api.post("/api/signing-keys/", {"public_key": pub}, format="json").status_code == 201
    text = bytes(RecordSubmission.objects.get(pk=record_id).raw).decode()
    body = {"public_key": pub, "signature": sign_record(text, pem).signature}
    return s.api.post(f"/api/records/{record_id}/signatures/", body, format="json")


def signed_by_both(b: Battle) -> int:
    made = submit(b.first.api, b.game)
    assert made.status_code == 201, made.content
    rid = made.json()["id"]
    assert sign(b.first, rid).status_code == 201
    second = sign(b.second, rid)
    assert second.status_code == 201, second.content
    assert RecordSubmission.objects.get(pk=rid).locked
    return int(rid)


def test_once_both_signed_no_plain_submission_makes_a_version(battle):
    rid = signed_by_both(battle)
    for api in (battle.first.api, battle.second.api, battle.arbiter):
        refused = submit(api, battle.game, CAPTURE.replace(b"Kang", b"Kong"))
        assert refused.status_code == 409, refused.content
        assert "Art. 8.2" in refused.json()["record"][0]
        assert "Art. 7" in refused.json()["record"][0]
    page = Client()
    page.force_login(battle.first.user)
    assert page.post(f"/g/{battle.game.pk}/submit/", {"text": "x"}).status_code == 409
    assert list(battle.game.submissions.values_list("pk", flat=True)) == [rid]
    html = page.get(f"/g/{battle.game.pk}/").content.decode()
    assert "Record v1 is signed by both combatants and final" in html
    assert f'action="/g/{battle.game.pk}/submit/"' not in html  # no form that would 409


def test_a_new_key_does_not_replace_a_signature(battle):
    rid = signed_by_both(battle)
    before = RecordSignature.objects.get(submission_id=rid, role="first")
    audit = AuditEntry.objects.count()
    pem, pub = generate_key()
    again = sign(battle.first, rid, pem, pub)
    assert again.status_code == 409, again.content
    assert "not replaced" in again.json()["signature"][0]
    # The page's signing view says the same.
    page = Client()
    page.force_login(battle.first.user)
    text = bytes(RecordSubmission.objects.get(pk=rid).raw).decode()
    body = {"submission": rid, "public_key": pub, "signature": sign_record(text, pem).signature}
    resp = page.post(f"/g/{battle.game.pk}/sign/", body, content_type="application/json")
    assert resp.status_code == 409
    after = RecordSignature.objects.get(submission_id=rid, role="first")
    assert (after.pk, after.public_key, after.signature) == (
        before.pk,
        before.public_key,
        before.signature,
    )
    # The same signature again is the same signature: nothing new, nothing audited.
    assert sign(battle.first, rid).status_code == 201
    assert RecordSignature.objects.filter(submission_id=rid).count() == 2
    assert AuditEntry.objects.count() == audit


def test_only_the_arbiters_ruling_makes_the_next_version(battle):
    rid = signed_by_both(battle)
    url = f"/api/games/{battle.game.pk}/irregularities/"
    fixed = CAPTURE.replace(b"Kang", b"Kang of the Third House")
    ruling = {"kind": "correction", "reason": "Gold's name as on the entry list", "text": ""}
    ruling["text"] = fixed.decode()
    assert battle.first.api.post(url, ruling, format="json").status_code == 403
    no_text = battle.arbiter.post(url, {**ruling, "text": "  "}, format="json")
    assert no_text.status_code == 400 and "text" in no_text.json()
    no_reason = battle.arbiter.post(url, {**ruling, "reason": " "}, format="json")
    assert no_reason.status_code == 400 and "reason" in no_reason.json()
    assert battle.game.submissions.count() == 1
    made = battle.arbiter.post(url, ruling, format="json")
    assert made.status_code == 201, made.content
    assert (made.json()["kind"], made.json()["article"]) == ("correction", "7")
    v2 = RecordSubmission.objects.get(pk=made.json()["new_record"])
    assert (v2.version, v2.source, bytes(v2.raw)) == (2, "ruling", fixed)
    row = Irregularity.objects.get(game=battle.game)
    assert (row.reason, row.from_submission_id, row.new_submission_id) == (
        "Gold's name as on the entry list",
        rid,
        v2.pk,
    )
    entry = AuditEntry.objects.filter(action="irregularity").latest("seq")
    assert entry.after == {
        "kind": "correction",
        "article": "7",
        "version": 2,
        "reason": "Gold's name as on the entry list",
    }
    assert entry.before == {"version": 1, "signed": True}
    # v1 keeps its signatures; the ruling did not reopen the record to plain submissions.
    assert RecordSignature.objects.filter(submission_id=rid).count() == 2
    assert submit(battle.second.api, battle.game).status_code == 409
    # v1 is no longer the latest: only v2 can be signed now.
    pem, pub = generate_key()
    assert battle.arbiter.post("/api/signing-keys/", {"public_key": pub}).status_code == 201
    v1_text = bytes(RecordSubmission.objects.get(pk=rid).raw).decode()
    body = {"public_key": pub, "signature": sign_record(v1_text, pem).signature}
    late = battle.arbiter.post(f"/api/records/{rid}/signatures/", body, format="json")
    assert late.status_code == 409 and "only the latest version" in late.json()["submission"][0]
    assert sign(battle.first, v2.pk).status_code == 201
    page = Client().get(f"/g/{battle.game.pk}/").content.decode()
    assert "v2 replaced v1 by the arbiter's ruling (Art. 7)" in page
    assert "Gold&#x27;s name as on the entry list" in page


def test_a_new_battle_ruling_lets_the_combatants_record_it(battle):
    signed_by_both(battle)
    url = f"/api/games/{battle.game.pk}/irregularities/"
    resp = battle.arbiter.post(url, {"kind": "new_battle", "reason": "bad setup"}, format="json")
    assert resp.status_code == 201
    again = submit(battle.first.api, battle.game)
    assert again.status_code == 201 and again.json()["version"] == 2


def test_signatures_in_the_api(battle):
    rid = signed_by_both(battle)
    record = battle.first.api.get(f"/api/records/{rid}/").json()
    listed = APIClient().get(f"/api/records/{rid}/signatures/").json()
    of_game = APIClient().get(f"/api/games/{battle.game.pk}/signatures/").json()
    assert record["locked"] is True
    assert {s["role"]: s["signer"] for s in record["signatures"]} == {
        "first": "first",
        "second": "second",
    }
    assert listed == record["signatures"] == of_game
    canonical = Client().get(f"/g/{battle.game.pk}/canonical.txt?submission={rid}")
    for s in listed:
        assert (s["record"], s["version"]) == (rid, 1)
        sig = Signature(s["public_key"], s["signature"])
        assert verify_record(canonical.content.decode(), sig)
    assert {s["public_key"] for s in listed} == {battle.first.pub, battle.second.pub}


def pem_of(private_pem: str) -> str:
    return (
        load_private_key(private_pem)
        .public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


def test_a_pem_key_and_a_raw_key_are_the_same_key(battle):
    pem_pub = pem_of(battle.first.pem)
    assert len(pem_pub) > 100  # longer than the column: stored in its raw spelling
    made = battle.first.api.post("/api/signing-keys/", {"public_key": pem_pub}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["public_key"] == battle.first.pub
    raw = battle.first.api.post("/api/signing-keys/", {"public_key": battle.first.pub})
    assert raw.status_code == 201 and raw.json()["id"] == made.json()["id"]
    assert SigningKey.objects.filter(user=battle.first.user).count() == 1
    # Signed with the key given as PEM, the signature names it in its raw spelling.
    rid = submit(battle.first.api, battle.game).json()["id"]
    signed = sign(battle.first, rid, battle.first.pem, pem_pub)
    assert signed.status_code == 201 and signed.json()["public_key"] == battle.first.pub
    # The page's key view takes PEM too.
    page = Client()
    page.force_login(battle.second.user)
    body = json.dumps({"public_key": pem_of(battle.second.pem), "label": "laptop"})
    resp = page.post("/keys/", body, content_type="application/json")
    assert resp.status_code == 201 and resp.json()["public_key"] == battle.second.pub
    mine = battle.second.api.get("/api/signing-keys/").json()
    assert [(k["public_key"], k["label"]) for k in mine] == [(battle.second.pub, "laptop")]


def test_a_key_of_another_account_is_a_clear_400(battle):
    assert (
        battle.first.api.post(
            "/api/signing-keys/", {"public_key": battle.first.pub}, format="json"
        ).status_code
        == 201
    )
    for text in (battle.first.pub, pem_of(battle.first.pem)):
        taken = battle.second.api.post("/api/signing-keys/", {"public_key": text}, format="json")
        assert taken.status_code == 400
        assert taken.json() == {"public_key": ["this key is registered by another account"]}
        page = Client()
        page.force_login(battle.second.user)
        resp = page.post("/keys/", {"public_key": text}, content_type="application/json")
        assert resp.status_code == 400 and "another account" in resp.content.decode()
    broken = battle.second.api.post("/api/signing-keys/", {"public_key": "x" * 900})
    assert broken.status_code == 400
    assert SigningKey.objects.filter(user=battle.second.user).count() == 0


@pytest.mark.parametrize("body", ["[" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000])
def test_deeply_nested_json_on_the_key_and_sign_views_is_a_400(battle, body):
    page = Client()
    page.force_login(battle.first.user)
    for url in ("/keys/", f"/g/{battle.game.pk}/sign/"):
        resp = page.post(url, body, content_type="application/json")
        assert resp.status_code == 400, url


def test_an_unusual_digit_is_not_a_submission_id(battle):
    page = Client()
    page.force_login(battle.first.user)
    body = {"submission": "²", "public_key": battle.first.pub, "signature": "x"}
    resp = page.post(f"/g/{battle.game.pk}/sign/", body, content_type="application/json")
    assert resp.status_code == 400


def test_a_bulk_upload_does_not_add_a_version_to_a_final_record(battle):
    signed_by_both(battle)
    g = battle.game
    assert g.second is not None
    text = CAPTURE.replace(b'[Gold "Kang"]', f'[Gold "{g.second.name}"]'.encode())
    text = text.replace(
        b'[Green "Kor"]', f'[Round "{g.round.number}"]\n[Green "{g.first.name}"]'.encode()
    )
    upload = io.BytesIO(text)
    upload.name = "late.kzr"
    resp = battle.arbiter.post(
        f"/api/tournaments/{g.round.tournament.slug}/record-uploads/",
        {"file": upload},
        format="multipart",
    )
    assert resp.status_code == 201, resp.content
    (row,) = resp.json()["records"]
    assert row["game"] is None and "signed by both combatants and final" in row["match"]
    assert g.submissions.count() == 1


def rsa_pem() -> str:
    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    return (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


ODD_KEYS: list[Any] = [
    123,
    ["a"],
    {"a": 1},
    "é" * 50,
    "-----BEGIN PUBLIC KEY-----\néé\n-----END PUBLIC KEY-----",
    "-----BEGIN PUBLIC KEY-----\n" + "A" * 2000,
    "AAAA",
    "=" * 44,
]


def test_odd_keys_and_signatures_are_400s_never_500s(battle):
    api = battle.first.api
    for text in [*ODD_KEYS, rsa_pem()]:
        resp = api.post("/api/signing-keys/", {"public_key": text}, format="json")
        assert resp.status_code == 400, (text, resp.status_code)
        page = Client()
        page.force_login(battle.first.user)
        resp = page.post("/keys/", {"public_key": text}, content_type="application/json")
        assert resp.status_code == 400, (text, resp.status_code)
    long_label = {"public_key": battle.first.pub, "label": "x" * 81}
    assert api.post("/api/signing-keys/", long_label, format="json").status_code == 400
    page = Client()
    page.force_login(battle.first.user)
    resp = page.post("/keys/", long_label, content_type="application/json")
    assert resp.status_code == 400
    assert not SigningKey.objects.exists()
    rid = submit(api, battle.game).json()["id"]
    assert api.post("/api/signing-keys/", {"public_key": battle.first.pub}).status_code == 201
    for sig in ["é", "A" * 201, "==", "", 5, None, "A" * 88]:
        body = {"public_key": battle.first.pub, "signature": sig}
        resp = api.post(f"/api/records/{rid}/signatures/", body, format="json")
        assert resp.status_code == 400, (sig, resp.status_code)
        page_body = {"submission": rid, **body}
        resp = page.post(f"/g/{battle.game.pk}/sign/", page_body, content_type="application/json")
        assert resp.status_code == 400, (sig, resp.status_code)
    assert api.post("/api/records/999999/signatures/", {}, format="json").status_code == 404
    assert not RecordSignature.objects.exists()


def test_the_arbiter_rules_with_a_reason_at_the_records_endpoint_too(battle):
    rid = signed_by_both(battle)
    fixed = CAPTURE.replace(b"Kang", b"Kang the Younger").decode()
    body = {"text": fixed, "reason": "the scorer's slip"}
    assert submit(battle.first.api, battle.game, fixed.encode()).status_code == 409
    refused = battle.first.api.post(f"/api/games/{battle.game.pk}/records/", body, format="json")
    assert refused.status_code == 403 and battle.game.submissions.count() == 1
    made = battle.arbiter.post(f"/api/games/{battle.game.pk}/records/", body, format="json")
    assert made.status_code == 201, made.content
    assert (made.json()["version"], made.json()["source"]) == (2, "ruling")
    row = Irregularity.objects.get(game=battle.game, kind="correction")
    assert (row.reason, row.from_submission_id) == ("the scorer's slip", rid)
    assert AuditEntry.objects.filter(action="irregularity").latest("seq").after["reason"] == (
        "the scorer's slip"
    )


def test_the_game_page_offers_the_ruling_to_the_arbiter_only(battle, setup):
    signed_by_both(battle)
    player = Client()
    player.force_login(battle.first.user)
    assert 'id="correction-form"' not in player.get(f"/g/{battle.game.pk}/").content.decode()
    arbiter = Client()
    arbiter.force_login(setup[1])
    page = arbiter.get(f"/g/{battle.game.pk}/").content.decode()
    assert 'id="correction-form"' in page
    slug = battle.game.round.tournament.slug
    fixed = CAPTURE.replace(b"Kang", b"Kang II").decode()
    form = {"game": battle.game.pk, "kind": "correction", "text": fixed, "reason": "name"}
    assert arbiter.post(f"/arbiter/t/{slug}/irregularities/", form).status_code == 302
    v2 = battle.game.submissions.get(version=2)
    assert (v2.source, bytes(v2.raw).decode()) == ("ruling", fixed)


def test_a_record_naming_other_players_is_signed_once_an_arbiter_confirms_it(battle, setup):
    b, (_, arbiter_user) = battle, setup
    other = own(b.game).replace(f'[Green "{b.game.first.name}"]'.encode(), b'[Green "Somebody"]')
    made = submit(b.first.api, b.game, other)
    assert made.status_code == 201, made.content
    rid = made.json()["id"]
    refused = sign(b.first, rid)
    assert refused.status_code == 409, refused.content
    assert "awaits an arbiter's confirmation" in refused.content.decode()
    assert not RecordSignature.objects.filter(submission_id=rid).exists()
    # The combatant's page says why there is no signing button; the console points to it.
    page = Client()
    page.force_login(b.first.user)
    html = page.get(f"/g/{b.game.pk}/").content.decode()
    assert 'id="sign-waits"' in html and 'id="sign"' not in html
    console = Client()
    console.force_login(arbiter_user)
    slug = b.game.round.tournament.slug
    html = console.get(f"/arbiter/t/{slug}/round/{b.game.round.number}/").content.decode()
    row = html[html.index(f'id="game-{b.game.board}"') :]
    assert "names-pending" in row[: row.index("</tr>")]
    # The arbiter takes its result for this game: now it is signed.
    taken = console.post(f"/arbiter/t/{slug}/game/{b.game.pk}/from-record/")
    assert taken.status_code in (200, 302), taken.content
    assert Game.objects.get(pk=b.game.pk).result == Game.Result.FIRST_WIN
    assert sign(b.first, rid).status_code == 201
    html = page.get(f"/g/{b.game.pk}/").content.decode()
    assert 'id="sign-waits"' not in html and 'id="sign"' in html
