"""Record submissions: stored exactly as they came, queued, validated by a worker against
the Laws and the game's expected rules, and their clocks adjudicated."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from games.models import RecordSubmission
from games.record_event_check import event_rules_broken, event_time_control
from games.selectors import (
    NAMES_CONFIRMED,
    NAMES_PENDING,
    Expected,
    record_final,
    record_names_mismatch,
    tags_first_colour,
)
from klinzha_site.errors import Conflict
from klinzha_site.tasking import task_send
from klinzha_site.user_types import AnyUser
from rules.clock import Adjustment, adjudicate
from rules.errors import RecordError, RulesError
from rules.messages import message
from rules.position import KIND_NAMES, Rules
from rules.record import read_record
from rules.validate import PlyError, validate_record, verdict_for_unreadable
from tournaments.audit import Action, audit_append
from tournaments.models import Game, Tournament
from tournaments.roles import user_can_arbitrate
from tournaments.services.common import acting_account
from tournaments.services.results import game_lock

MAX_RECORD_BYTES = 512 * 1024
# Records of a bulk upload go to the workers in batches of this many.
VALIDATION_BATCH = 50
VALIDATE_TASK = "games.validate_record"
VALIDATE_BATCH_TASK = "games.validate_records"
# The sweep's name, as the beat schedule (settings.CELERY_BEAT_SCHEDULE) spells it.
REQUEUE_STALE_TASK = "games.requeue_stale"


def _can_submit(user: AnyUser | None, game: Game) -> bool:
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
    user: AnyUser | None = None,
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
    RecordSubmission.objects.filter(pk__in=submission_ids).update(queued_at=long_ago, resends=0)


def submission_requeue(*, submission: RecordSubmission) -> None:
    """Validate a stored record again (its clock adjustments changed, or an arbiter queues a
    failed one again), once committed. A new generation: a worker validating it meanwhile
    from what it read before stores nothing (games.services.validation)."""
    RecordSubmission.objects.filter(pk=submission.pk).update(
        status=RecordSubmission.Status.QUEUED,
        queued_at=timezone.now(),
        generation=F("generation") + 1,
        attempts=0,
        resends=0,
        failure_reason="",
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
        reason: str = message("not_utf8")
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


def record_correction_create(
    *, submission: RecordSubmission, raw: bytes, user: AnyUser | None
) -> RecordSubmission:
    """A correction is a new version; the old one and its signatures are kept. Refused
    (409) once both combatants signed: then only the arbiter's ruling
    (games.services.rulings.record_correction_rule) corrects the record."""
    if submission.game is None:
        raise ValidationError({"submission": gettext("only a game's record has versions")})
    return submission_create(
        game=submission.game, raw=raw, source=RecordSubmission.Source.PASTE, user=user
    )
