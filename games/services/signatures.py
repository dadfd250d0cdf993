"""Signatures of records (Art. 8.2): public keys registered by their owners, and records
signed by the combatants (both lock the record) or the arbiter."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from games.models import RecordSignature, RecordSubmission, SigningKey
from games.selectors import record_needs_confirmation
from games.signing import Signature, SignatureError, public_key_canonical, verify_record
from klinzha_site.errors import Conflict
from klinzha_site.user_types import AnyUser
from rules.errors import RulesError
from tournaments.audit import Action, audit_append
from tournaments.models import Game
from tournaments.roles import user_can_arbitrate
from tournaments.services.common import tournament_lock

LABEL_CHARS = SigningKey._meta.get_field("label").max_length or 80
SIGNATURE_CHARS = RecordSignature._meta.get_field("signature").max_length or 200


def _canonical_key(public_key: str) -> str:
    try:
        return public_key_canonical(public_key)
    except SignatureError as exc:
        raise ValidationError({"public_key": str(exc)}) from None


@transaction.atomic
def signing_key_register(*, user: AnyUser, public_key: str, label: str = "") -> SigningKey:
    """Register a public key (raw base64 or PEM, stored in one spelling) for its owner; the
    same key again is the same registration, another account's key a 400."""
    if not user.is_authenticated:
        raise PermissionDenied(gettext("log in first"))
    canonical = _canonical_key(public_key)
    if len(label) > LABEL_CHARS:
        raise ValidationError(
            {"label": gettext("at most %(LABEL_CHARS)s characters") % {"LABEL_CHARS": LABEL_CHARS}}
        )
    taken = ValidationError({"public_key": gettext("this key is registered by another account")})
    key = SigningKey.objects.filter(public_key=canonical).first()
    if key is not None and key.user_id != user.pk:
        raise taken
    if key is None:
        try:
            with transaction.atomic():
                key = SigningKey.objects.create(user=user, public_key=canonical, label=label)
        except IntegrityError:
            # registered at the same moment by another request
            key = SigningKey.objects.filter(public_key=canonical, user=user).first()
            if key is None:
                raise taken from None
    return key


def _signer_role(user: AnyUser | None, game: Game) -> str:
    """Which signature `user` gives on the game's record (PermissionDenied if none)."""
    player = getattr(user, "player", None)
    if player is not None and player.pk == game.first_id:
        return RecordSignature.Role.FIRST
    if player is not None and player.pk == game.second_id:
        return RecordSignature.Role.SECOND
    if user_can_arbitrate(user=user, tournament=game.round.tournament):
        return RecordSignature.Role.ARBITER
    raise PermissionDenied(gettext("only the combatants and the arbiter sign a record"))


@transaction.atomic
def signature_add(
    *, submission: RecordSubmission, user: AnyUser, public_key: str, signature: str
) -> RecordSignature:
    """A combatant or the arbiter signs the latest version of the record (Art. 8.2); both
    combatants lock it, and it is final. A signature once given stands: the same one again
    changes nothing, another (a new key, another text) is refused (409)."""
    if not user.is_authenticated:
        raise PermissionDenied(gettext("only the combatants and the arbiter sign a record"))
    unlocked = RecordSubmission.objects.select_related("game__round__tournament")
    game = unlocked.get(pk=submission.pk).game
    if game is None:
        raise ValidationError({"submission": gettext("only a game's record is signed")})
    _signer_role(user, game)  # before any lock: whoever may not sign takes none
    tournament_lock(game.round.tournament_id)
    sub = (
        RecordSubmission.objects.select_for_update(of=("self",))
        .select_related("game__round__tournament")
        .get(pk=submission.pk)
    )
    game = sub.game
    assert game is not None  # a record never leaves the game it was matched to
    role = _signer_role(user, game)  # again under the lock: the pairing could change
    public_key = _canonical_key(public_key)
    signature = signature.strip()
    if not SigningKey.objects.filter(user=user, public_key=public_key).exists():
        raise ValidationError({"public_key": gettext("register this public key first")})
    if len(signature) > SIGNATURE_CHARS:
        raise ValidationError(
            {"signature": gettext("an Ed25519 signature is 88 characters of base64")}
        )
    try:
        ok = verify_record(sub.text, Signature(public_key, signature))
    except (SignatureError, RulesError) as exc:
        raise ValidationError({"signature": str(exc)}) from None
    if not ok:
        raise ValidationError({"signature": gettext("does not sign this record")})
    given = sub.signatures.filter(role=role).first()
    if given is not None:
        if (given.public_key, given.signature) == (public_key, signature):
            return given
        raise Conflict(
            {
                "signature": gettext(
                    "the %(role)s signed record v%(version)s already (Art. 8.2): a signature "
                    "given stands and is not replaced"
                )
                % {"role": given.get_role_display().lower(), "version": sub.version}
            }
        )
    if record_needs_confirmation(submission=sub):
        raise Conflict(
            {
                "submission": gettext(
                    "record v%(version)s names other players than this game's and awaits an "
                    "arbiter's confirmation: it is signed once the arbiter has confirmed it is "
                    "this game's record (Art. 8.2)"
                )
                % {"version": sub.version}
            }
        )
    latest = game.submissions.order_by("-version", "-id").values_list("pk", "version")[0]
    if latest[0] != sub.pk:
        raise Conflict(
            {
                "submission": gettext(
                    "record v%(version)s has been replaced by v%(value)s: only the latest "
                    "version is signed"
                )
                % {"version": sub.version, "value": latest[1]}
            }
        )
    sig = RecordSignature.objects.create(
        submission=sub, role=role, signer=user, public_key=public_key, signature=signature
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
