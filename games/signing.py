"""Ed25519 signatures of game records (Art. 8.2): the signed bytes are the record as the
writer writes it, so layout does not matter and any change to a tag or a ply does."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from rules.record import read_record, write_record

# The role and signer name of the site's signature on a record of a battle played online
# (games.site_key); no user name has parentheses, so no account can pass for the site.
SITE_ROLE = "site"
SITE_SIGNER = "(site)"


class SignatureError(ValueError):
    """A key or signature that cannot be read."""


def canonical_bytes(record_text: str) -> bytes:
    """What is signed: the record re-written by the writer, UTF-8."""
    return write_record(read_record(record_text)).encode("utf-8")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: str, what: str) -> bytes:
    try:
        return base64.b64decode(text.strip(), validate=True)
    except (ValueError, TypeError):
        raise SignatureError(f"{what} is not base64") from None


def generate_key() -> tuple[str, str]:
    """(private key PEM, public key base64 of the 32 raw bytes)."""
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")
    return pem, public_key_text(key.public_key())


def public_key_text(pub: Ed25519PublicKey) -> str:
    return b64(pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))


def load_private_key(pem: str) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(pem.encode("ascii"), password=None)
    except (ValueError, TypeError, UnicodeEncodeError):
        raise SignatureError("not an unencrypted PEM private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SignatureError("not an Ed25519 key")
    return key


# A PEM Ed25519 public key is 113 characters; anything much longer is not a key.
MAX_PUBLIC_KEY_CHARS = 1000


def load_public_key(text: str) -> Ed25519PublicKey:
    """A public key as base64 raw bytes (what browsers export from WebCrypto) or PEM."""
    text = text.strip()
    if len(text) > MAX_PUBLIC_KEY_CHARS:
        raise SignatureError(f"a public key is at most {MAX_PUBLIC_KEY_CHARS} characters")
    if text.startswith("-----BEGIN"):
        try:
            key = serialization.load_pem_public_key(text.encode("ascii"))
        except (ValueError, UnsupportedAlgorithm):
            raise SignatureError("not a PEM public key") from None
        if not isinstance(key, Ed25519PublicKey):
            raise SignatureError("not an Ed25519 key")
        return key
    raw = unb64(text, "public key")
    if len(raw) != 32:
        raise SignatureError("an Ed25519 public key has 32 bytes")
    return Ed25519PublicKey.from_public_bytes(raw)


def public_key_canonical(text: str) -> str:
    """One spelling per key (base64 of its 32 raw bytes), whether it came as PEM or raw: what
    is stored, compared and handed to browsers (WebCrypto imports it as "raw")."""
    return public_key_text(load_public_key(text))


@dataclass(frozen=True, slots=True)
class Signature:
    """A signer's name and role, public key and signature (base64)."""

    public_key: str
    signature: str
    signer: str = ""
    role: str = ""

    def as_dict(self) -> dict[str, str]:
        return {
            "signer": self.signer,
            "role": self.role,
            "public_key": self.public_key,
            "signature": self.signature,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Signature:
        try:
            return cls(
                str(data["public_key"]),
                str(data["signature"]),
                str(data.get("signer", "")),
                str(data.get("role", "")),
            )
        except (KeyError, TypeError):
            raise SignatureError("a signature needs public_key and signature") from None


def sign_record(
    record_text: str, private_pem: str, *, signer: str = "", role: str = ""
) -> Signature:
    key = load_private_key(private_pem)
    sig = key.sign(canonical_bytes(record_text))
    return Signature(public_key_text(key.public_key()), b64(sig), signer, role)


def verify_record(record_text: str, signature: Signature) -> bool:
    """Whether `signature` signs this record (as the writer writes it)."""
    key = load_public_key(signature.public_key)
    try:
        key.verify(unb64(signature.signature, "signature"), canonical_bytes(record_text))
    except InvalidSignature:
        return False
    return True


def bundle(
    record_text: str, signatures: list[Signature], meta: dict[str, Any] | None = None
) -> str:
    """An export bundle: the record, its signatures and public keys, as JSON; `meta` says
    which game and version it is (read by people, not by the verification)."""
    return (
        json.dumps(
            {
                "format": "kz-signed-record/1",
                **(meta or {}),
                "record": write_record(read_record(record_text)),
                "signatures": [s.as_dict() for s in signatures],
            },
            ensure_ascii=False,
            indent=2,
        )
        + "\n"
    )


def read_bundle(text: str) -> tuple[str, list[Signature]]:
    try:
        data = json.loads(text)
        return str(data["record"]), [Signature.from_dict(s) for s in data["signatures"]]
    except (ValueError, KeyError, TypeError, RecursionError):
        raise SignatureError("not a signed-record bundle") from None
