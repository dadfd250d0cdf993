"""The `kz bundle export SLUG --out DIR` subcommand: every record of a tournament with its
signatures and the signers' public keys, for `kz verify DIR` to check offline (Art. 8.2), and
its results with the rounds' dates; `kz bundle export --pool POOL --out DIR`: a rating pool's
whole history, for `kz ratings verify DIR`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from django.utils import timezone

from games.kz import offline_signing
from games.models import RecordSignature, RecordSubmission
from games.selectors import signing_keys_of, tournament_records
from games.signing import Signature, bundle
from games.site_key import SITE_SIGNER, site_public_keys
from rules.errors import RulesError
from tournaments.models import Tournament
from tournaments.rating_bundle import event_results_export, pool_history_export
from tournaments.ratings.pools import POOLS
from tournaments.ratings.verify import RATING_HISTORY

MANIFEST = offline_signing.MANIFEST


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("bundle", help="a tournament's signed records, to verify offline")
    sub = p.add_subparsers(dest="bundle_action", required=True)
    exp = sub.add_parser(
        "export", help="write every record with its signatures and public keys (kz verify DIR)"
    )
    exp.add_argument("slug", nargs="?", default=None)
    exp.add_argument(
        "--pool", choices=POOLS, default=None, help="a rating pool's whole history instead"
    )
    exp.add_argument("--out", required=True, metavar="DIR")
    exp.add_argument("--json", action="store_true")
    exp.set_defaults(handler=handle_bundle_export)


def _meta(tournament: Tournament, sub: RecordSubmission) -> dict[str, Any]:
    game = sub.game
    return {
        "tournament": tournament.slug,
        "round": game.round.number if game else None,
        "board": game.board if game else None,
        "game": game.pk if game else None,
        "first": game.first.name if game else None,
        "second": game.second.name if game and game.second else None,
        "submission": sub.pk,
        "version": sub.version,
        "source": sub.source,
        "final": sub.locked,
    }


def _file_name(sub: RecordSubmission, taken: set[str]) -> str:
    if sub.game is None:
        name = f"unmatched-{sub.pk}.json"
    else:
        name = f"r{sub.game.round.number:02d}-b{sub.game.board:02d}-v{sub.version}.json"
    if name in taken:
        name = name.removesuffix(".json") + f"-{sub.pk}.json"
    taken.add(name)
    return name


def _bundle_text(sub: RecordSubmission, sigs: list[Signature], meta: dict[str, Any]) -> str:
    try:
        return bundle(sub.text, sigs, meta)
    except RulesError:
        # A record that cannot be read cannot have been signed; it is written as it came.
        body = {"format": "kz-signed-record/1", **meta, "readable": False, "record": sub.text}
        body["signatures"] = [s.as_dict() for s in sigs]
        return json.dumps(body, ensure_ascii=False, indent=2) + "\n"


def _signer_name(sig: RecordSignature) -> str:
    """The signer a bundle names: the account's user name, or the site for its own."""
    if sig.role == RecordSignature.Role.SITE:
        return SITE_SIGNER
    return sig.signer.get_username() if sig.signer else ""


def _pool_export(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    """Write the pool's history (tournaments.rating_bundle) to DIR/rating-history.json."""
    out = Path(options["out"])
    body = pool_history_export(pool=options["pool"])
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / RATING_HISTORY).write_text(
            json.dumps(body, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
    except OSError as exc:
        stderr.write(f"cannot write {out}: {exc.strerror or exc}\n")
        return 2
    events = len(body["events"])
    results = sum(len(e["results"]) for e in body["events"])
    if options.get("json"):
        summary = {"out": str(out), "pool": body["pool"], "events": events, "results": results}
        stdout.write(json.dumps(summary) + "\n")
    else:
        stdout.write(f"{body['pool']}: {events} events, {results} results: {out}\n")
    return 0


def handle_bundle_export(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    if options.get("pool"):
        if options.get("slug"):
            stderr.write("give a tournament or --pool, not both\n")
            return 2
        return _pool_export(options, stdout, stderr)
    if not options.get("slug"):
        stderr.write("give a tournament's slug, or --pool POOL\n")
        return 2
    tournament = Tournament.objects.filter(slug=options["slug"]).first()
    if tournament is None:
        stderr.write(f"no tournament {options['slug']!r}\n")
        return 2
    out = Path(options["out"])
    records = tournament_records(tournament=tournament)
    signers = {s.signer for sub in records for s in sub.signatures.all() if s.signer is not None}
    listed: list[dict[str, Any]] = []
    taken: set[str] = set()
    try:
        out.mkdir(parents=True, exist_ok=True)
        for sub in records:
            sigs = [
                Signature(s.public_key, s.signature, _signer_name(s), s.role)
                for s in sub.signatures.all()
            ]
            meta = _meta(tournament, sub)
            name = _file_name(sub, taken)
            (out / name).write_text(_bundle_text(sub, sigs, meta), encoding="utf-8")
            listed.append({"file": name, **meta, "signatures": len(sigs)})
        manifest = {
            "format": "kz-bundle/1",
            "tournament": tournament.slug,
            "name": tournament.name,
            "exported_at": timezone.now().isoformat(),
            "records": listed,
            # the keys each signer registered: a signature by any other key does not count
            "keys": signing_keys_of(users=list(signers)),
            # Its results and rounds' dates: what the ratings were computed from.
            **{
                k: v
                for k, v in event_results_export(tournament=tournament).items()
                if k in ("pool", "rounds", "results")
            },
        }
        if any(
            s.role == RecordSignature.Role.SITE for sub in records for s in sub.signatures.all()
        ):
            # the site's: its current and retired keys, as /.well-known/klinzha-site-key
            manifest["keys"][SITE_SIGNER] = site_public_keys()
        (out / MANIFEST).write_text(
            json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
    except OSError as exc:
        stderr.write(f"cannot write {out}: {exc.strerror or exc}\n")
        return 2
    count = sum(r["signatures"] for r in listed)
    if options.get("json"):
        stdout.write(json.dumps({"out": str(out), "records": len(listed), "signatures": count}))
        stdout.write("\n")
    else:
        stdout.write(f"{len(listed)} records, {count} signatures: {out}\n")
    return 0
