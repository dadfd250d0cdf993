"""Signatures of records (Art. 8.2): public keys registered by their owners, and records
signed by the combatants (both lock the record) or the arbiter."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from games.models import RecordSignature, RecordSubmission, SigningKey
from games.signing import Signature, SignatureError, load_public_key, verify_record
from rules.errors import RulesError
from tournaments.audit import Action, audit_append
from tournaments.roles import user_can_arbitrate
from tournaments.services.common import tournament_lock


@transaction.atomic
def signing_key_register(*, user: Any, public_key: str, label: str = "") -> SigningKey:
    try:
        load_public_key(public_key)
    except SignatureError as exc:
        raise ValidationError({"public_key": str(exc)}) from None
    key = SigningKey.objects.filter(public_key=public_key.strip()).first()
    if key is not None and key.user_id != user.pk:
        raise ValidationError({"public_key": "this key is registered by another account"})
    if key is None:
        key = SigningKey.objects.create(user=user, public_key=public_key.strip(), label=label)
    return key


@transaction.atomic
def signature_add(
    *, submission: RecordSubmission, user: Any, public_key: str, signature: str
) -> RecordSignature:
    """A combatant or the arbiter signs the record (Art. 8.2); both combatants lock it."""
    tournament_id = (
        RecordSubmission.objects.filter(pk=submission.pk)
        .values_list("game__round__tournament_id", flat=True)
        .get()
    )
    if tournament_id is not None:
        tournament_lock(tournament_id)
    sub = (
        RecordSubmission.objects.select_for_update(of=("self",))
        .select_related("game__round__tournament")
        .get(pk=submission.pk)
    )
    game = sub.game
    if game is None:
        raise ValidationError({"submission": "only a game's record is signed"})
    player = getattr(user, "player", None)
    if player is not None and player.pk == game.first_id:
        role = RecordSignature.Role.FIRST
    elif player is not None and player.pk == game.second_id:
        role = RecordSignature.Role.SECOND
    elif user_can_arbitrate(user=user, tournament=game.round.tournament):
        role = RecordSignature.Role.ARBITER
    else:
        raise PermissionDenied("only the combatants and the arbiter sign a record")
    if not SigningKey.objects.filter(user=user, public_key=public_key.strip()).exists():
        raise ValidationError({"public_key": "register this public key first"})
    try:
        ok = verify_record(sub.text, Signature(public_key.strip(), signature.strip()))
    except (SignatureError, RulesError) as exc:
        raise ValidationError({"signature": str(exc)}) from None
    if not ok:
        raise ValidationError({"signature": "does not sign this record"})
    sig, _ = RecordSignature.objects.update_or_create(
        submission=sub,
        role=role,
        defaults={"signer": user, "public_key": public_key.strip(), "signature": signature},
    )
    audit_append(
        tournament=game.round.tournament,
        user=user,
        action=Action.RECORD_SIGNED,
        obj=sig,
        after={"submission": sub.pk, "role": role},
    )
    roles = set(sub.signatures.values_list("role", flat=True))
    if {RecordSignature.Role.FIRST, RecordSignature.Role.SECOND} <= roles and not sub.locked:
        sub.locked = True
        sub.save(update_fields=["locked"])
    return sig
