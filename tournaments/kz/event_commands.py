"""The tournament's `kz` subcommands: demo, standings, trf import/export, pair, audit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from rules.points import format_points
from tournaments.audit import audit_head, audit_head_parse, audit_verify
from tournaments.demo import PLAYER_LOGIN, demo_load
from tournaments.models import Tournament
from tournaments.roles import user_is_organizer
from tournaments.selectors import standings_compute
from tournaments.services import round_pair
from tournaments.services.trf_import import trf_import, trf_import_check
from tournaments.standings import standings_json
from tournaments.tiebreaks import code_of, name_of
from tournaments.trf import TrfError
from tournaments.trf_export import tournament_trf


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("demo", help="load the demo event (once) and print the login")
    p.set_defaults(handler=handle_demo)

    p = subparsers.add_parser("trf", help="TRF interchange: import FILE / export SLUG")
    sub = p.add_subparsers(dest="trf_action", required=True)
    imp = sub.add_parser("import", help="create a tournament from a TRF file")
    imp.add_argument("path", metavar="FILE")
    imp.add_argument("--json", action="store_true")
    imp.add_argument(
        "--check",
        action="store_true",
        help="print what the import would make and its warnings, storing nothing",
    )
    imp.add_argument(
        "--organizer",
        metavar="USERNAME",
        default=None,
        help="the account that organizes the imported event (default: none, the system)",
    )
    imp.set_defaults(handler=handle_trf_import)
    exp = sub.add_parser("export", help="write a tournament as TRF")
    exp.add_argument("slug")
    exp.add_argument("--shift", action="store_true", help="scores shifted by +1/2 a round")
    exp.set_defaults(handler=handle_trf_export)

    p = subparsers.add_parser("pair", help="pair and store the next round")
    p.add_argument("slug")
    p.add_argument("--round", type=int, default=None, help="the round to pair (the next one)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=handle_pair)

    p = subparsers.add_parser("audit", help="the audit trail")
    sub_audit = p.add_subparsers(dest="audit_action", required=True)
    ver = sub_audit.add_parser(
        "verify", help="check a tournament's hash chain (or with --site, the site's chain)"
    )
    ver.add_argument("slug", nargs="?", default=None)
    ver.add_argument(
        "--site",
        action="store_true",
        help="the site's own chain: players' accounts and invitations, of no tournament",
    )
    ver.add_argument(
        "--head",
        default=None,
        metavar="SEQ:HASH",
        help="a chain head published earlier (tournament page, API, crosstable.json): the "
        "chain must still reach it unchanged",
    )
    ver.add_argument("--json", action="store_true")
    ver.set_defaults(handler=handle_audit_verify)

    p = subparsers.add_parser("standings", help="print a tournament's standings")
    p.add_argument("slug")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=handle_standings)


def handle_demo(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:

    tournament, login, password, created = demo_load()
    what = "loaded" if created else "already there"
    stdout.write(f"Demo event {tournament.name!r} {what}: /t/{tournament.slug}/\n")
    # Each login with the page it opens (the admin shows the demo arbiter nothing).
    stdout.write(f"Arbiter login: {login} / {password}  (http://127.0.0.1:8000/arbiter/)\n")
    stdout.write(
        f"Player login: {PLAYER_LOGIN[0]} / {PLAYER_LOGIN[1]}  (http://127.0.0.1:8000/me/games/)\n"
    )
    return 0


def handle_standings(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    tournament = _tournament(options["slug"], stderr)
    if tournament is None:
        return 2
    rows = standings_compute(tournament=tournament)
    tiebreaks = tournament.tiebreak_list
    if options.get("json"):
        stdout.write(json.dumps(standings_json(rows, tiebreaks), ensure_ascii=False) + "\n")
        return 0
    codes = [code_of(t) for t in tiebreaks]
    widths = [max(len(c), 5) for c in codes]
    heads = "  ".join(f"{c:>{w}}" for c, w in zip(codes, widths, strict=True))
    stdout.write(f"{'#':>3}  {'name':24} {'score':>6}  {heads}\n")
    for row in rows:
        values = (format_points(row.tiebreaks[t]) for t in tiebreaks)
        tbs = "  ".join(f"{v:>{w}}" for v, w in zip(values, widths, strict=True))
        stdout.write(f"{row.rank:>3}  {row.entrant.name:24} {format_points(row.score):>6}  {tbs}\n")
    # One line of legend: each code's name (docs/tiebreaks.md says how each is computed).
    if codes:
        stdout.write("; ".join(f"{c} {name_of(c)}" for c in codes) + "\n")
    return 0


def handle_trf_import(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    """Exit 2 for a file that cannot be read, 1 for one refused (the line and why)."""
    try:
        text = Path(options["path"]).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        stderr.write(f"cannot read {options['path']}: {exc}\n")
        return 2
    organizer = None
    if options.get("organizer"):
        organizer = _organizer_find(options["organizer"])
        if organizer is None:
            stderr.write(f"no active account named {options['organizer']!r}\n")
            return 2
        if not user_is_organizer(organizer):
            stderr.write(f"{options['organizer']!r} may not organize tournaments\n")
            return 2
    if options.get("check"):
        return _trf_check(
            text=text,
            as_json=bool(options.get("json")),
            organizer=organizer,
            stdout=stdout,
            stderr=stderr,
        )
    try:
        imported = trf_import(text=text, organizer=organizer)
    except (TrfError, ValidationError) as exc:
        message = str(exc) if isinstance(exc, TrfError) else "; ".join(exc.messages)
        if options.get("json"):
            stdout.write(json.dumps({"error": message}, ensure_ascii=False) + "\n")
        stderr.write(f"{message}\n")
        return 1
    tournament = imported.tournament
    if options.get("json"):
        out = {"slug": tournament.slug, "warnings": imported.warnings}
        stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    else:
        stdout.write(f"imported {tournament.name!r} as {tournament.slug}\n")
        for warning in imported.warnings:
            stdout.write(f"warning: {warning}\n")
    return 0


def _organizer_find(username: str) -> User | None:
    """`--organizer`'s account: an active one of that username, else None."""
    return User.objects.filter(username=username, is_active=True).first()


def _trf_check(
    *,
    text: str,
    as_json: bool,
    organizer: User | None,
    stdout: IO[str],
    stderr: IO[str],
) -> int:
    """`kz trf import FILE --check`: what the import would make, nothing stored; exit 1 for
    a file the import would refuse."""
    try:
        check = trf_import_check(text=text, organizer=organizer)
    except (TrfError, ValidationError) as exc:
        message = str(exc) if isinstance(exc, TrfError) else "; ".join(exc.messages)
        if as_json:
            stdout.write(json.dumps({"error": message}, ensure_ascii=False) + "\n")
        stderr.write(f"{message}\n")
        return 1
    if as_json:
        out = {"check": True, **check.summary, "warnings": check.warnings}
        stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        return 0
    s = check.summary
    stdout.write(f"would import {s['name']!r} as {s['slug']} ({s['dialect']}); nothing stored\n")
    stdout.write(
        f"  {s['players']} players ({s['withdrawn']} withdrawn), {s['rounds']} of "
        f"{s['rounds_planned']} rounds, {s['games']} games, {s['byes']} byes, "
        f"{s['forbidden_pairs']} forbidden pairs; from {s['start_date']}"
        + (f" to {s['end_date']}" if s["end_date"] else "")
        + "\n"
    )
    for warning in check.warnings:
        stdout.write(f"warning: {warning}\n")
    return 0


def handle_trf_export(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:

    tournament = _tournament(options["slug"], stderr)
    if tournament is None:
        return 2
    stdout.write(tournament_trf(tournament=tournament, shift=bool(options.get("shift"))))
    return 0


def handle_pair(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:

    tournament = _tournament(options["slug"], stderr)
    if tournament is None:
        return 2
    try:
        rnd = round_pair(tournament=tournament, round_number=options.get("round"))
    except ValidationError as exc:
        message = "; ".join(exc.messages)
        if options.get("json"):
            stdout.write(json.dumps({"error": message}, ensure_ascii=False) + "\n")
        stderr.write(message + "\n")
        return 1
    out: list[dict[str, str]] = []
    byes = []
    for game in rnd.games.select_related("first", "second").order_by("board"):
        if game.second is not None:
            out.append({"first": game.first.name, "second": game.second.name})
        elif game.kind == "bye":
            byes.append({"bye": game.first.name})
    out.extend(byes)
    if options.get("json"):
        stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    else:
        for row in out:
            line = f"{row['first']} - {row['second']}" if "first" in row else f"bye: {row['bye']}"
            stdout.write(line + "\n")
        for w in rnd.warnings:
            stdout.write(f"warning: {w}\n")
    return 0


# Said whenever no head is given: a chain cut at its end is still a well-formed chain.
TAIL_UNCHECKED = (
    "deletions at the tail cannot be detected without a saved head: verify again with "
    "--head SEQ:HASH"
)
HEAD_PUBLISHED = (
    "the last published head is on the tournament's page, in the API's audit_head "
    "(/api/tournaments/{slug}/) and in crosstable.json (/t/{slug}/crosstable.json)"
)
SITE_HEAD = "the site's chain publishes no head: keep the head printed here to check later"


def handle_audit_verify(options: dict[str, Any], stdout: IO[str], stderr: IO[str]) -> int:
    """A tournament's chain (SLUG) or the site's (--site), against a saved head if given."""
    tournament = None
    if options.get("site") == bool(options.get("slug")):
        stderr.write("name a tournament's SLUG, or --site for the site's chain (not both)\n")
        return 2
    if not options.get("site"):
        tournament = _tournament(options["slug"], stderr)
        if tournament is None:
            return 2
    head = None
    if options.get("head"):
        try:
            head = audit_head_parse(options["head"])
        except ValueError as exc:
            stderr.write(f"--head: {exc}\n")
            return 2
    ok, count, problem = audit_verify(tournament=tournament, head=head)
    where = SITE_HEAD if tournament is None else HEAD_PUBLISHED.format(slug=tournament.slug)
    now = audit_head(tournament=tournament)
    if options.get("json"):
        out = {"valid": ok, "entries": count, "problem": problem or None}
        extra = {"tail_checked": head is not None, "published_head": where}
        stdout.write(json.dumps({**out, "head": now, **extra}) + "\n")
        return 0 if ok else 1
    stdout.write(f"{count} entries: {'intact' if ok else 'TAMPERED: ' + problem}\n")
    if now is not None:
        stdout.write(f"head: {now['seq']}:{now['hash']}\n")
    if head is None:
        stdout.write(f"note: {TAIL_UNCHECKED}; {where}\n")
    return 0 if ok else 1


def _tournament(slug: str, stderr: IO[str]) -> Tournament | None:
    """The tournament named by SLUG, or None after saying there is none."""

    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        stderr.write(f"no tournament {slug!r}\n")
    return tournament
