"""Bulk upload: a zip of records (or one record) for a tournament, each stored, matched to
its game by its tags, and validated by the workers in batches."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from games.models import RecordSubmission
from games.selectors import name_key, record_final
from games.services.records import (
    MAX_RECORD_BYTES,
    record_size_check,
    submission_enqueue_many,
)
from klinzha_site.user_types import AnyUser
from rules.errors import RecordError
from rules.record import read_tags
from tournaments.audit import Action, AuditItem, audit_append_many
from tournaments.models import Colour, Game, Tournament
from tournaments.roles import user_can_arbitrate
from tournaments.services.common import acting_account, tournament_lock

MAX_UPLOAD_BYTES = 200 * 2**20
# Records stored per transaction: each holds the tournament's row for a fraction of a second.
STORE_BATCH = 100

GameIndex = dict[tuple[int, frozenset[str]], list[Game]]


@dataclass(frozen=True)
class BulkUpload:
    """What an upload stored: each record's submission, in the order of the upload."""

    submissions: list[RecordSubmission]

    @property
    def matched(self) -> int:
        return sum(1 for s in self.submissions if s.game_id)

    def as_dict(self) -> dict[str, Any]:
        return {
            "stored": len(self.submissions),
            "matched": self.matched,
            "records": [
                {"id": s.pk, "file": s.filename, "game": s.game_id, "match": s.match_note}
                for s in self.submissions
            ],
        }


def upload_size_check(size: int) -> None:
    if size > MAX_UPLOAD_BYTES:
        raise ValidationError(
            {"file": gettext("at most %(number)s MiB") % {"number": MAX_UPLOAD_BYTES // 2**20}}
        )


def _files(data: bytes, filename: str) -> list[tuple[str, bytes]]:
    if not zipfile.is_zipfile(io.BytesIO(data)):
        return [(filename, data)]
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return [
            (info.filename, zf.read(info))
            for info in zf.infolist()
            if not info.is_dir() and info.file_size <= MAX_RECORD_BYTES
        ]


def bulk_upload(
    *, tournament: Tournament, data: bytes, filename: str, user: AnyUser | None = None
) -> BulkUpload:
    """Store every record of a zip (or one file) for a tournament, each matched to its game
    by its Round, Green and Gold tags where exactly one game fits; each is validated.
    Records are stored in transactions of STORE_BATCH, each queued once committed: a
    result entered meanwhile waits for one batch at most, never for the whole upload."""
    if user is not None and not user_can_arbitrate(user=user, tournament=tournament):
        raise PermissionDenied(gettext("only this tournament's arbiters upload its records"))
    upload_size_check(len(data))
    files = _files(data, filename)
    for _, raw in files:
        record_size_check(raw)
    index = _game_index(tournament)
    matched = [(name, raw, *_match_game(raw, index)) for name, raw in files]
    subs: list[RecordSubmission] = []
    for i in range(0, len(matched), STORE_BATCH):
        subs += _store_batch(tournament, matched[i : i + STORE_BATCH], user)
    return BulkUpload(subs)


@transaction.atomic
def _store_batch(
    tournament: Tournament, matched: list[tuple[str, bytes, Game | None, str]], user: AnyUser | None
) -> list[RecordSubmission]:
    """One transaction: the tournament locked, then the batch's games (in id order, the one
    lock order), their next versions read, the records inserted and audited in one go."""
    tournament_lock(tournament.pk)
    game_ids = sorted({g.pk for _, _, g, _ in matched if g is not None})
    games = {
        g.pk: g
        for g in Game.objects.select_for_update(of=("self",), no_key=True)
        .select_related("round")
        .filter(pk__in=game_ids)
        .order_by("pk")
    }
    versions = dict(
        RecordSubmission.objects.filter(game_id__in=game_ids)
        .values("game_id")
        .annotate(last=Max("version"))
        .values_list("game_id", "last")
    )
    final = {pk for pk in game_ids if record_final(game=games[pk]) is not None}
    account, now = acting_account(user), timezone.now()
    subs = []
    for name, raw, game, note in matched:
        version = 1
        if game is not None and game.pk in final:
            # Kept as it came, but not as a version: only a ruling adds one (Art. 8.2, 7).
            note = (
                f"not matched: the record of round {game.round.number} board {game.board} is "
                "signed by both combatants and final (Art. 8.2)"
            )
            game = None
        if game is not None:
            version = versions.get(game.pk, 0) + 1
            versions[game.pk] = version
        subs.append(
            RecordSubmission(
                game=game,
                tournament=tournament,
                version=version,
                source=RecordSubmission.Source.BULK,
                filename=name[:255],
                match_note=note[:200],
                raw=raw,
                submitted_by=account,
                queued_at=now,
            )
        )
    subs = RecordSubmission.objects.bulk_create(subs)
    items = [
        AuditItem(
            action=Action.RECORD_SUBMITTED,
            obj=sub,
            after={
                "game": sub.game_id,
                "version": sub.version,
                "source": RecordSubmission.Source.BULK,
                "filename": sub.filename,
            },
        )
        for sub in subs
    ]
    audit_append_many(tournament=tournament, user=user, items=items)
    ids = [s.pk for s in subs]
    transaction.on_commit(lambda: submission_enqueue_many(submission_ids=ids))
    return subs


def _game_index(tournament: Tournament) -> GameIndex:
    games = Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME)
    index: GameIndex = {}
    for g in games.select_related("round", "first", "second"):
        assert g.second is not None
        key = (g.round.number, frozenset({name_key(g.first.name), name_key(g.second.name)}))
        index.setdefault(key, []).append(g)
    return index


def _match_game(raw: bytes, index: GameIndex) -> tuple[Game | None, str]:
    """The one game a record's tags name, and how (or why none)."""
    try:
        tags = read_tags(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, RecordError):
        return None, "not matched: the tags cannot be read"
    rnd, green, gold = tags.get("Round", ""), tags.get("Green", ""), tags.get("Gold", "")
    # ASCII digits: "²" passes isdigit() but not int() (issue 14).
    number = rnd.strip()
    digits = number.isascii() and number.isdigit() and len(number) < 10
    if not digits or not green.strip() or not gold.strip():
        return None, "not matched: Round, Green and Gold tags are needed"
    found = index.get((int(rnd), frozenset({name_key(green), name_key(gold)})), [])
    if len(found) != 1:
        why = "no game" if not found else f"{len(found)} games"
        return None, f"not matched: {why} in round {int(rnd)} between {green} and {gold}"
    game = found[0]
    first_colour = Colour.GREEN if name_key(game.first.name) == name_key(green) else Colour.GOLD
    said = tags.get("FirstPlacement", "").strip().lower()
    note = f"matched to round {game.round.number} board {game.board}"
    if said and said != first_colour:
        note += f"; FirstPlacement says {said} but the pairing has {first_colour} first"
    return game, note
