"""Signing keys and signatures, called directly: a key registered once per owner (and a
broken one refused), and who may sign a record with which role."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError

from games import services
from games.models import RecordSignature, RecordSubmission, SigningKey
from games.signing import generate_key, sign_record
from tests.games.conftest import CAPTURE
from tournaments.models import AuditEntry


def test_a_key_is_registered_once_for_its_owner(officials):
    _, pub = generate_key()
    key = services.signing_key_register(user=officials.arbiter, public_key=pub, label="laptop")
    assert (key.user, key.public_key, key.label) == (officials.arbiter, pub, "laptop")
    again = services.signing_key_register(
        user=officials.arbiter, public_key=f"  {pub}\n", label="phone"
    )
    assert again.pk == key.pk and again.label == "laptop"
    assert SigningKey.objects.count() == 1


@pytest.mark.parametrize("text", ["", "not a key", "-----BEGIN PUBLIC KEY-----\nxx\n"])
def test_a_broken_key_is_refused(officials, text):
    with pytest.raises(ValidationError) as e:
        services.signing_key_register(user=officials.arbiter, public_key=text)
    assert list(e.value.message_dict) == ["public_key"]
    assert not SigningKey.objects.exists()


def test_a_key_of_another_account_is_refused(officials):
    _, pub = generate_key()
    services.signing_key_register(user=officials.arbiter, public_key=pub)
    with pytest.raises(ValidationError) as e:
        services.signing_key_register(user=officials.stranger, public_key=pub)
    assert list(e.value.message_dict) == ["public_key"]


def test_the_anonymous_neither_registers_a_key_nor_signs(officials, game):
    # The pages and the API let only an account in; the services refuse the anonymous too.
    sub = services.submission_create(game=game, raw=CAPTURE, enqueue=False)
    pem, pub = generate_key()
    with pytest.raises(PermissionDenied):
        services.signing_key_register(user=AnonymousUser(), public_key=pub)
    with pytest.raises(PermissionDenied):
        services.signature_add(
            submission=sub,
            user=AnonymousUser(),
            public_key=pub,
            signature=sign_record(sub.text, pem).signature,
        )
    assert not SigningKey.objects.exists() and not RecordSignature.objects.exists()


def signed(user, sub: RecordSubmission) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    pem, pub = generate_key()
    services.signing_key_register(user=user, public_key=pub)
    return pub, sign_record(sub.text, pem).signature


def test_the_arbiter_signs_without_locking(officials, game):
    sub = services.submission_create(game=game, raw=CAPTURE, enqueue=False)
    pub, sig = signed(officials.arbiter, sub)
    made = services.signature_add(
        submission=sub, user=officials.arbiter, public_key=pub, signature=sig
    )
    assert (made.role, made.signer, made.public_key) == ("arbiter", officials.arbiter, pub)
    assert RecordSubmission.objects.get(pk=sub.pk).locked is False
    entry = AuditEntry.objects.get(action="record_signed")
    assert entry.after == {"submission": sub.pk, "role": "arbiter"}


def test_both_combatants_lock_the_record(officials, game):
    sub = services.submission_create(game=game, raw=CAPTURE, enqueue=False)
    for player, user in ((game.first, officials.stranger), (game.second, officials.organizer)):
        player.user = user
        player.save()
    pub, sig = signed(officials.stranger, sub)
    first = services.signature_add(
        submission=sub, user=officials.stranger, public_key=pub, signature=sig
    )
    assert first.role == "first" and not RecordSubmission.objects.get(pk=sub.pk).locked
    pub, sig = signed(officials.organizer, sub)
    second = services.signature_add(
        submission=sub, user=officials.organizer, public_key=pub, signature=sig
    )
    assert second.role == "second" and RecordSubmission.objects.get(pk=sub.pk).locked


def test_a_signature_needs_a_registered_key_and_a_right_to_sign(officials, game):
    sub = services.submission_create(game=game, raw=CAPTURE, enqueue=False)
    pem, pub = generate_key()
    sig = sign_record(sub.text, pem).signature
    with pytest.raises(ValidationError) as e:
        services.signature_add(
            submission=sub, user=officials.arbiter, public_key=pub, signature=sig
        )
    assert e.value.message_dict == {"public_key": ["register this public key first"]}
    services.signing_key_register(user=officials.stranger, public_key=pub)
    with pytest.raises(PermissionDenied):
        services.signature_add(
            submission=sub, user=officials.stranger, public_key=pub, signature=sig
        )
    assert not RecordSignature.objects.exists()


def test_a_record_of_no_game_is_not_signed(officials, game):
    loose = services.submission_create(
        game=None, raw=CAPTURE, tournament=game.round.tournament, enqueue=False
    )
    pub, sig = signed(officials.arbiter, loose)
    with pytest.raises(ValidationError) as e:
        services.signature_add(
            submission=loose, user=officials.arbiter, public_key=pub, signature=sig
        )
    assert e.value.message_dict == {"submission": ["only a game's record is signed"]}
