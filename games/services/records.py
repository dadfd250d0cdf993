"""Record submissions: stored exactly as they came, queued, validated by a worker against
the Laws and the game's expected rules, and their clocks adjudicated."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from games.event_rules import event_rules_broken, event_time_control
from games.models import RecordSubmission
from games.selectors import (
    NAMES_CONFIRMED,
    NAMES_PENDING,
    Expected,
    clock_adjustments_of,
    game_rules_expected,
    record_final,
    record_names_mismatch,
    record_needs_confirmation,
    tags_first_colour,
)
from klinzha_site.errors import Conflict
from klinzha_site.tasking import task_send
from rules.clock import Adjustment, adjudicate
from rules.errors import RecordError, RulesError
from rules.messages import message
from rules.position import KIND_NAMES, Rules
from rules.record import read_record
from rules.validate import PlyError, validate_record, verdict_for_unreadable
from tournaments.audit import Action, audit_append
from tournaments.models import Game, Tournament
from tournaments.roles import user_can_arbitrate
from tournaments.services.common import acting_account, standings_bump_for_game
from tournaments.services.results import game_lock

MAX_RECORD_BYTES = 512 * 1024
# Records of a bulk upload go to the workers in batches of this many.
VALIDATION_BATCH = 50
VALIDATE_TASK = "games.validate_record"
VALIDATE_BATCH_TASK = "games.validate_records"
# The sweep's name, as the beat schedule (settings.CELERY_BEAT_SCHEDULE) spells it.
REQUEUE_STALE_TASK = "games.requeue_stale"


def _can_submit(user: Any, game: Game) -> bool:
    if user_can_arbitrate(user=user, tournament=game.round.tournament):
        return True
    player = getattr(user, "player", None) if getattr(user, "is_authenticated", False) else None
    return player is not None and player.pk in (game.first_id, game.second_id)


def record_size_check(raw: bytes) -> None:
    if len(raw) > MAX_RECORD_BYTES:
        raise ValidationError(
            {
                "record": gettext("a record is at most %(MAX_RECORD_BYTES)s bytes")
                % {"MAX_RECORD_BYTES": MAX_RECORD_BYTES}
            }
        )


@transaction.atomic
def submission_create(
    *,
    game: Game | None,
    raw: bytes,
    source: str = RecordSubmission.Source.PASTE,
    filename: str = "",
    user: Any = None,
    tournament: Tournament | None = None,
    enqueue: bool = True,
    match_note: str = "",
    ruling: bool = False,
) -> RecordSubmission:
    """Store a record exactly as it came, then queue its validation once committed (unless
    the caller queues a batch itself). `match_note` says how a bulk upload found its game.
    Once both combatants signed (Art. 8.2) only an arbiter's ruling (games.services.rulings,
    `ruling=True`) adds a version. A record naming other players than the game's is kept
    with a note that it awaits an arbiter's confirmation (games.selectors.NAMES_PENDING)."""
    record_size_check(raw)
    if game is not None:
        if user is not None and not _can_submit(user, game):
            raise PermissionDenied(
                gettext("only the game's combatants and arbiters submit its record")
            )
        game_lock(game)
        final = None if ruling else record_final(game=game)
        if final is not None:
            raise Conflict({"record": record_final_message(final)})
        last = game.submissions.order_by("-version").first()
        version = last.version + 1 if last else 1
        tournament = game.round.tournament
        mismatch = "" if ruling else record_names_mismatch(raw=raw, game=game)
        if mismatch:
            # An arbiter (or the system, no user: kz, imports) who submits it for this game
            # confirms it is the game's; the note keeps that the names differed.
            arbiter = user is None or user_can_arbitrate(user=user, tournament=tournament)
            match_note = (NAMES_CONFIRMED if arbiter else NAMES_PENDING) + mismatch
    else:
        version = 1
    sub = RecordSubmission.objects.create(
        game=game,
        tournament=tournament,
        version=version,
        source=source,
        filename=filename[:255],
        match_note=match_note[:200],
        raw=raw,
        submitted_by=acting_account(user),
        queued_at=timezone.now(),
    )
    if tournament is not None:
        audit_append(
            tournament=tournament,
            user=user,
            action=Action.RECORD_SUBMITTED,
            obj=sub,
            after={
                "game": game.pk if game else None,
                "version": version,
                "source": source,
                "filename": filename,
            },
        )
    if enqueue:
        transaction.on_commit(lambda: submission_enqueue(submission_id=sub.pk))
    return sub


def record_final_message(final: RecordSubmission) -> str:
    return (
        f"record v{final.version} of this game is signed by both combatants and final "
        "(Art. 8.2): a new version only comes from an arbiter's ruling (Art. 7) with its "
        f"reason: the record with a reason at /api/games/{final.game_id}/records/, or kind "
        "'correction' at irregularities/"
    )


def submission_enqueue(*, submission_id: int) -> bool:
    """Hand a submission to a worker; False (and it stays queued) when the broker is down."""
    if task_send(VALIDATE_TASK, submission_id):
        return True
    _sweep_first([submission_id])
    return False


def submission_enqueue_many(*, submission_ids: list[int], batch: int = VALIDATION_BATCH) -> int:
    """Hand submissions to the workers in batches; returns how many were handed over (the
    others stay queued for submission_requeue_stale when the broker is down)."""
    sent = 0
    for i in range(0, len(submission_ids), batch):
        chunk = submission_ids[i : i + batch]
        if not task_send(VALIDATE_BATCH_TASK, chunk):
            _sweep_first(submission_ids[i:])
            break
        sent += len(chunk)
    return sent


def _sweep_first(submission_ids: list[int]) -> None:
    """Records no broker took are dated back past KZ_REQUEUE_AFTER, so that the sweep's first
    round once the broker is back sends them, instead of waiting as if they were queued."""
    long_ago = timezone.now() - timedelta(seconds=settings.KZ_REQUEUE_AFTER + 1)
    RecordSubmission.objects.filter(pk__in=submission_ids).update(queued_at=long_ago)


def submission_requeue_stale(*, older_than: timedelta | None = None) -> int:
    """The sweep: queue again every submission still waiting after `older_than` (stored
    while the broker was down, lost with a Redis restart, or held by a worker that died),
    so that nothing waits for someone to poll it. Each is claimed (skipping those another
    sweep holds) and its wait restarted only once a broker took it; returns how many went."""
    if older_than is None:
        older_than = timedelta(seconds=settings.KZ_REQUEUE_AFTER)
    limit = timezone.now() - older_than
    with transaction.atomic():
        ids = list(
            RecordSubmission.objects.select_for_update(skip_locked=True)
            .filter(
                status__in=[RecordSubmission.Status.QUEUED, RecordSubmission.Status.VALIDATING],
                queued_at__lte=limit,
            )
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        sent = submission_enqueue_many(submission_ids=ids)
        RecordSubmission.objects.filter(pk__in=ids[:sent]).update(queued_at=timezone.now())
    return sent


def submission_requeue(*, submission: RecordSubmission) -> None:
    """Validate a stored record again (its clock adjustments changed), once committed."""
    RecordSubmission.objects.filter(pk=submission.pk).update(
        status=RecordSubmission.Status.QUEUED, queued_at=timezone.now()
    )
    transaction.on_commit(lambda: submission_enqueue(submission_id=submission.pk))


def verdict_compute(
    raw: bytes,
    adjustments: tuple[Adjustment, ...] = (),
    expected: Expected | tuple[str, frozenset[str], int] | None = None,
    *,
    codes: bool = False,
) -> dict[str, Any]:
    """The validator's verdict and the clock decision for a record's bytes (pure); with
    `expected`, a record played under other rules than the game's, or breaking the event's
    own rules, is not valid, and its clocks are adjudicated under the event's time control
    (Art. 6.4), not the record's tag. `codes` adds each message's code and parameters to the
    error and the warnings (rules/messages.py), as a stored verdict keeps them."""
    if isinstance(expected, tuple):
        expected = Expected(*expected)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        reason = message("not_utf8")
        return {"readable": False, **verdict_for_unreadable(reason, codes=codes)}
    try:
        record = read_record(text)
    except RecordError as exc:
        first = exc.args[0] if exc.args else None
        reason = first if isinstance(first, str) else str(exc)
        return {"readable": False, **verdict_for_unreadable(reason, codes=codes)}
    checked = validate_record(record)
    verdict = checked.as_dict(codes=codes)
    broken = None
    if expected is not None and checked.valid and checked.position is not None:
        mismatch = _rules_mismatch(checked.position.rules, expected)
        broken = (mismatch, "9.1") if mismatch else None
        broken = broken or event_rules_broken(record, checked.position.rules, expected)
    if broken:
        verdict["valid"] = False
        verdict["error"] = PlyError(None, None, broken[0], broken[1]).as_dict(codes=codes)
    if expected is not None and event_time_control(expected) is not None:
        record = replace(record, tags={**record.tags, "TimeControl": expected.time_control})
    try:
        clock: dict[str, Any] = adjudicate(record, adjustments).as_dict()
    except RulesError as exc:
        clock = {"decision": None, "loser": None, "article": None, "error": str(exc)}
    return {
        "readable": True,
        **verdict,
        "clock": clock,
        "first_colour": tags_first_colour(record.tags),
    }


def _rules_mismatch(rules: Rules, expected: Expected) -> str | None:
    """How the rules a record names (its Ruleset, Variants and Removed tags) differ from the
    game's."""
    ruleset, variants, removed = expected.ruleset, expected.variants, expected.removed
    if rules.ruleset != ruleset:
        return message("ruleset_mismatch", ruleset=repr(rules.ruleset), expected=repr(ruleset))
    if rules.variants != variants:
        want = ", ".join(sorted(variants)) or "none"
        got = ", ".join(sorted(rules.variants)) or "none"
        return message("variants_mismatch", variants=got, expected=want)
    if rules.removed != removed:
        if removed:
            return message("removed_missing", kind=KIND_NAMES[removed])
        return message("removed_unexpected")
    return None


def submission_validate(*, submission_id: int) -> RecordSubmission:
    """Validate a stored submission (idempotent: a retry of a finished one does nothing)."""
    subs = _submissions_validate([submission_id])
    if not subs:
        raise RecordSubmission.DoesNotExist(f"no record submission {submission_id}")
    return subs[0]


def submission_validate_many(*, submission_ids: list[int]) -> int:
    """Validate a batch (those deleted meanwhile skipped); returns how many are done."""
    subs = _submissions_validate(submission_ids)
    return sum(s.status == RecordSubmission.Status.DONE for s in subs)


_VERDICT_FIELDS = [
    "readable",
    "valid",
    "plies",
    "error",
    "warnings",
    "termination",
    "winner",
    "result_tag",
    "clock",
    "status",
    "validated_at",
]


def _submissions_validate(submission_ids: list[int]) -> list[RecordSubmission]:
    """Validate submissions as one batch, idempotently: those done already are left as they
    are. The batch costs two short transactions, not two per record: a worker's time goes
    to validating, not to the database every worker shares. The records are claimed in id
    order (the order the sweep takes them in) with one statement, each game's rules and
    clock adjustments read in one go, the verdicts computed with no lock held, then written
    in one transaction and one batch; a record another worker finished meanwhile keeps its
    verdict."""
    with transaction.atomic():
        subs = list(
            RecordSubmission.objects.select_for_update(of=("self",))
            .select_related("game__round__tournament")
            .filter(pk__in=submission_ids)
            .order_by("pk")
        )
        todo = [s for s in subs if s.status != RecordSubmission.Status.DONE]
        RecordSubmission.objects.filter(pk__in=[s.pk for s in todo]).update(
            status=RecordSubmission.Status.VALIDATING, attempts=F("attempts") + 1
        )
        for sub in todo:
            sub.attempts += 1
        games = {sub.game_id: sub.game for sub in todo if sub.game is not None}
        adjustments = clock_adjustments_of(games=list(games.values()))
        expected = {pk: game_rules_expected(game=game) for pk, game in games.items()}
    if not todo:
        return subs
    delay = float(getattr(settings, "KZ_VALIDATION_DELAY", 0) or 0)
    if delay:
        time.sleep(delay)  # lets the integration tests stop a worker mid-validation
    verdicts: dict[int, dict[str, Any]] = {}
    for sub in todo:
        pk = sub.game_id or 0
        raw = bytes(sub.raw)
        verdicts[sub.pk] = verdict_compute(
            raw, adjustments.get(pk, ()), expected.get(pk), codes=True
        )
    with transaction.atomic():
        open_ids = set(
            RecordSubmission.objects.select_for_update()
            .filter(pk__in=list(verdicts))
            .exclude(status=RecordSubmission.Status.DONE)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        now = timezone.now()
        written = [sub for sub in todo if sub.pk in open_ids]
        for sub in written:
            _verdict_set(sub, verdicts[sub.pk], now)
        _verdicts_write(written)
    colours: dict[int, str] = {}
    for sub in written:
        colour = verdicts[sub.pk].get("first_colour")
        if (
            sub.game_id
            and sub.readable
            and colour
            and not record_needs_confirmation(submission=sub)
        ):
            colours.setdefault(sub.game_id, colour)
    for game_id, colour in colours.items():
        # The record says which colour the first placer had; the game keeps it so that
        # results and penalties can name sides without reading the record again. Its own
        # statement, after the record's lock is let go: holding the record while waiting for
        # the game would reverse the one lock order (tournament, game, records) of a ruling.
        # After the game's row: whoever reads the new version reads the colour too.
        changed = Game.objects.filter(pk=game_id, first_color="").update(first_color=colour)
        if changed:
            standings_bump_for_game(game_id=game_id)
    fresh = {sub.pk: sub for sub in written}
    fresh.update(RecordSubmission.objects.in_bulk([s.pk for s in todo if s.pk not in open_ids]))
    return [fresh.get(sub.pk, sub) for sub in subs]


def _verdicts_write(subs: list[RecordSubmission]) -> None:
    """UPDATE each record's verdict fields, sent as one batch (psycopg's executemany
    pipelines the statements): bulk_update's CASE per field and row cost the worker more CPU
    than validating, and a statement per record a round trip each, which on a busy machine
    waits for the database's process to be scheduled every time."""
    if not subs:
        return
    meta = RecordSubmission._meta
    fields = [meta.get_field(name) for name in _VERDICT_FIELDS]
    quote = connection.ops.quote_name
    sets = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    sql = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"
    rows = [
        [f.get_db_prep_save(getattr(sub, f.attname), connection) for f in fields] + [sub.pk]
        for sub in subs
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def _verdict_set(sub: RecordSubmission, verdict: dict[str, Any], now: Any) -> None:
    sub.readable = verdict["readable"]
    sub.valid = verdict["valid"]
    sub.plies = verdict["plies"]
    sub.error = verdict["error"]
    sub.warnings = verdict["warnings"]
    sub.termination = verdict["termination"] or ""
    sub.winner = verdict["winner"] or ""
    sub.result_tag = (verdict.get("result") or "")[:8]
    sub.clock = verdict.get("clock")
    sub.status = RecordSubmission.Status.DONE
    sub.validated_at = now


def record_correction_create(
    *, submission: RecordSubmission, raw: bytes, user: Any
) -> RecordSubmission:
    """A correction is a new version; the old one and its signatures are kept. Refused
    (409) once both combatants signed: then only the arbiter's ruling
    (games.services.rulings.record_correction_rule) corrects the record."""
    if submission.game is None:
        raise ValidationError({"submission": gettext("only a game's record has versions")})
    return submission_create(
        game=submission.game, raw=raw, source=RecordSubmission.Source.PASTE, user=user
    )
