"""The `kz keygen`, `kz sign` and `kz verify` subcommands (Art. 8.2, offline)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from games.signing import (
    SITE_ROLE,
    Signature,
    SignatureError,
    generate_key,
    read_bundle,
    sign_record,
    verify_record,
)
from rules.errors import RulesError

# What `kz bundle export` writes next to the bundles (games.kz.bundle_export; no Django here).
MANIFEST = "manifest.json"


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
    p = subparsers.add_parser(
        "verify", help="verify signatures of a record, a bundle, or a `kz bundle export` folder"
    )
    p.add_argument(
        "path",
        metavar="FILE",
        help="a record, a signed-record bundle (.json), or a folder written by kz bundle export",
    )
    p.add_argument("signatures", nargs="*", metavar="SIG")
    p.add_argument(
        "--site-keys",
        default=None,
        metavar="FILE",
        help="the site's keys (what /.well-known/klinzha-site-key answers): a site signature "
        "by any other key is invalid",
    )
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
    if path.is_dir():
        return handle_verify_folder(path, options, stdout, stderr)
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
        site_keys = _site_keys_read(options.get("site_keys"))
        results = [(s, _holds(record_text, s, site_keys)) for s in sigs]
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


def _site_keys_read(name: str | None) -> set[str] | None:
    """The public keys of a site key file (/.well-known/klinzha-site-key's JSON), current
    and retired; None without one. ValueError for a file that is not one."""
    if not name:
        return None
    data = json.loads(Path(name).read_text(encoding="utf-8"))
    try:
        keys = [data["public_key"], *(k["public_key"] for k in data["retired"])]
    except (KeyError, TypeError):
        raise ValueError(f"{name} is not the site's key file") from None
    return {str(k) for k in keys if k}


def _holds(record_text: str, sig: Signature, site_keys: set[str] | None) -> bool:
    """Whether the signature signs the record; the site's by one of the site's keys."""
    if sig.role == SITE_ROLE and site_keys is not None and sig.public_key not in site_keys:
        return False
    return verify_record(record_text, sig)


def _check(record_text: str, sig: Signature, keys: dict[str, Any] | None) -> str | None:
    """Why a signature of an exported bundle fails, or None when it holds."""
    try:
        if not verify_record(record_text, sig):
            return "does not sign this record"
    except ValueError as exc:
        return str(exc)
    if keys is not None and sig.public_key not in keys.get(sig.signer, []):
        return f"the key is not one {sig.signer or 'the signer'} registered"
    return None


def verify_folder(path: Path) -> tuple[dict[str, Any], int]:
    """Check every bundle of a `kz bundle export` folder offline against its manifest: each
    signature against its record and public key, each key among those its signer registered,
    every file listed with its number of signatures. (report, exit status 0/1/2)"""
    try:
        manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
        listed = {r["file"]: r for r in manifest["records"]}
        keys = manifest["keys"]
        if not isinstance(keys, dict):
            raise TypeError
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, RecursionError):
        return {"valid": False, "error": f"{path / MANIFEST} is not a bundle's manifest"}, 2
    problems = [
        f"{name}: listed in the manifest but missing"
        for name in listed
        if not (path / name).is_file()
    ]
    records = []
    for file in sorted(p for p in path.glob("*.json") if p.name != MANIFEST):
        entry: dict[str, Any] = {"file": file.name, "signatures": []}
        records.append(entry)
        try:
            record_text, sigs = read_bundle(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, SignatureError) as exc:
            problems.append(f"{file.name}: {exc}")
            continue
        if file.name not in listed:
            problems.append(f"{file.name}: not in the manifest")
        elif listed[file.name].get("signatures") != len(sigs):
            problems.append(
                f"{file.name}: the manifest lists {listed[file.name].get('signatures')} "
                f"signatures, the file has {len(sigs)}"
            )
        for sig in sigs:
            why = _check(record_text, sig, keys)
            entry["signatures"].append({**sig.as_dict(), "valid": why is None, "why": why})
    failed = problems or any(not s["valid"] for r in records for s in r["signatures"])
    report = {"valid": not failed, "records": records, "problems": problems}
    return report, 1 if failed else 0


def handle_verify_folder(
    path: Path, options: dict[str, Any], stdout: IO[str], stderr: IO[str]
) -> int:
    report, status = verify_folder(path)
    if status == 2:
        stderr.write(report["error"] + "\n")
        return 2
    if options.get("json"):
        stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
        return status
    held = failed = unsigned = 0
    for rec in report["records"]:
        if not rec["signatures"]:
            unsigned += 1
        for s in rec["signatures"]:
            who = f"{s['signer'] or s['public_key'][:12]} {s['role']}".strip()
            if s["valid"]:
                held += 1
                stdout.write(f"{rec['file']}: valid: {who}\n")
            else:
                failed += 1
                stdout.write(f"{rec['file']}: INVALID: {who} ({s['why']})\n")
    for problem in report["problems"]:
        stdout.write(f"PROBLEM: {problem}\n")
    stdout.write(
        f"{held} signatures hold, {failed} fail, {len(report['problems'])} problems; "
        f"{unsigned} of {len(report['records'])} records unsigned\n"
    )
    return status
