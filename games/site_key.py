"""The site's Ed25519 key, which signs the record of every battle played online: read from
the file KZ_SITE_KEY_FILE names, rotated with its retired public keys kept
(KZ_SITE_RETIRED_KEYS) so that older records keep verifying."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.utils.translation import gettext

from games.signing import (
    SITE_ROLE,
    SITE_SIGNER,
    Signature,
    SignatureError,
    b64,
    canonical_bytes,
    load_private_key,
    public_key_canonical,
    public_key_text,
)

ALGORITHM = "Ed25519"


class SiteKeyMissing(Exception):
    """The site key is not configured or cannot be read: online play cannot start."""


def site_key_current() -> tuple[str, Ed25519PrivateKey]:
    """(key id, private key) of the current site key; SiteKeyMissing says why not."""
    name = str(settings.KZ_SITE_KEY_FILE or "").strip()
    if not name:
        raise SiteKeyMissing(
            gettext("online play needs the site key: KZ_SITE_KEY_FILE names no file")
        )
    try:
        pem = Path(name).read_text(encoding="ascii")
        return str(settings.KZ_SITE_KEY_ID), load_private_key(pem)
    except (OSError, UnicodeDecodeError, SignatureError) as exc:
        raise SiteKeyMissing(
            gettext("online play needs the site key: %(file)s cannot be read (%(why)s)")
            % {"file": name, "why": exc}
        ) from None


def site_key_check() -> None:
    """SiteKeyMissing unless the site key can sign."""
    site_key_current()


def site_keys_retired() -> dict[str, str]:
    """The retired public keys by id (base64 of the raw bytes), unreadable ones left out."""
    keys = {}
    for key_id, text in settings.KZ_SITE_RETIRED_KEYS.items():
        try:
            keys[str(key_id)] = public_key_canonical(str(text))
        except SignatureError:
            continue
    return keys


def site_keys_published() -> dict[str, Any]:
    """What `/.well-known/klinzha-site-key` answers: the current key's id, the algorithm,
    the current public key (null without one) and the retired ones."""
    try:
        key_id, key = site_key_current()
        current: str | None = public_key_text(key.public_key())
    except SiteKeyMissing:
        key_id, current = str(settings.KZ_SITE_KEY_ID), None
    return {
        "key_id": key_id,
        "algorithm": ALGORITHM,
        "public_key": current,
        "retired": [{"key_id": k, "public_key": v} for k, v in site_keys_retired().items()],
    }


def site_public_keys() -> list[str]:
    """Every public key of the site, current first: a site signature by another is false."""
    published = site_keys_published()
    keys = [published["public_key"]] if published["public_key"] else []
    return keys + [k["public_key"] for k in published["retired"]]


def site_sign(record_text: str) -> Signature:
    """The site's signature of a record (as the writer writes it)."""
    _key_id, key = site_key_current()
    signed = key.sign(canonical_bytes(record_text))
    return Signature(public_key_text(key.public_key()), b64(signed), SITE_SIGNER, SITE_ROLE)
