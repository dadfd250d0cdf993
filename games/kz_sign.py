"""The `kz keygen`, `kz sign` and `kz verify` subcommands (Art. 8.2, offline)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from games.signing import (
    Signature,
    SignatureError,
    generate_key,
    read_bundle,
    sign_record,
    verify_record,
)
from rules.errors import RulesError


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("keygen", help="make an Ed25519 key pair")
    p.add_argument("--out", default="kz-key", help="writes OUT.key (private) and OUT.pub")
    p.set_defaults(handler=handle_keygen)
    p = subparsers.add_parser("sign", help="sign a record with a private key")
    p.add_argument("path", metavar="FILE")
    p.add_argument("--key", required=True, metavar="KEY", help="private key file (PEM)")
    p.add_argument("--signer", default="")
    p.add_argument("--role", default="", help="green, gold or arbiter")
    p.add_argument("--out", default=None, help="signature file (default FILE.sig)")
    p.set_defaults(handler=handle_sign)
    p = subparsers.add_parser("verify", help="verify signatures of a record, or a bundle")
    p.add_argument("path", metavar="FILE", help="a record, or a signed-record bundle (.json)")
    p.add_argument("signatures", nargs="*", metavar="SIG")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=handle_verify)


def handle_keygen(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    pem, pub = generate_key()
    out = Path(options["out"])
    key_path = out.with_name(out.name + ".key")
    key_path.write_text(pem, encoding="ascii")
    key_path.chmod(0o600)
    out.with_name(out.name + ".pub").write_text(pub + "\n", encoding="ascii")
    stdout.write(f"private key: {key_path}\npublic key: {pub}\n")
    return 0


def handle_sign(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    path = Path(options["path"])
    try:
        text = path.read_text(encoding="utf-8")
        pem = Path(options["key"]).read_text(encoding="ascii")
        sig = sign_record(text, pem, signer=options["signer"], role=options["role"])
    except (OSError, UnicodeDecodeError, SignatureError, RulesError) as exc:
        stderr.write(f"{exc}\n")
        return 2
    out = Path(options["out"]) if options.get("out") else path.with_name(path.name + ".sig")
    out.write_text(json.dumps(sig.as_dict(), indent=2) + "\n", encoding="utf-8")
    stdout.write(f"signature: {out}\n")
    return 0


def handle_verify(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    path = Path(options["path"])
    try:
        text = path.read_text(encoding="utf-8")
        if text.lstrip().startswith("{"):
            record_text, sigs = read_bundle(text)
        else:
            record_text, sigs = text, []
        for name in options["signatures"]:
            sigs.append(Signature.from_dict(json.loads(Path(name).read_text(encoding="utf-8"))))
        if not sigs:
            stderr.write("no signatures to verify\n")
            return 2
        results = [(s, verify_record(record_text, s)) for s in sigs]
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        stderr.write(f"{exc}\n")
        return 2
    if options.get("json"):
        stdout.write(
            json.dumps(
                {
                    "valid": all(ok for _, ok in results),
                    "signatures": [{**s.as_dict(), "valid": ok} for s, ok in results],
                }
            )
            + "\n"
        )
    else:
        for s, ok in results:
            who = s.signer or s.public_key[:12]
            stdout.write(f"{'valid' if ok else 'INVALID'}: {who} {s.role}\n".rstrip() + "\n")
    return 0 if all(ok for _, ok in results) else 1
