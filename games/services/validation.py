"""Validating stored records in a worker: claimed with a generation, judged with no lock held,
stored only over the claim they came from; the sweep, failed validations and their re-queue."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.db.models import F, Field, Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext

from games.models import RecordSubmission
from games.selectors import (
    Expected,
    clock_adjustments_of,
    game_rules_expected,
    record_needs_confirmation,
)
from games.services.records import submission_enqueue_many, submission_requeue, verdict_compute
from klinzha_site.errors import Conflict
from klinzha_site.user_types import AnyUser
from rules.clock import Adjustment
from tournaments.audit import Action, audit_append
from tournaments.models import Game
from tournaments.roles import user_can_arbitrate
from tournaments.services.common import published_version_bump_for_game, tournament_lock
from tournaments.services.results import game_lock

log = logging.getLogger(__name__)
Status = RecordSubmission.Status
# A record the sweep sent again waits KZ_REQUEUE_AFTER × 2^resends (at most this many
# doublings) before the next: a long backlog is not sent again on every sweep.
RESEND_DOUBLINGS = 3
STOPPED = "its validation started {n} times and never finished (the worker stopped each time)"


@dataclass
class Claim:
    """A record a worker holds: the generation it claimed it in and what it read for it."""

    submission: RecordSubmission
    generation: int
    adjustments: tuple[Adjustment, ...]
    expected: Expected | None


def _max_attempts() -> int:
    return max(1, int(settings.KZ_VALIDATION_MAX_ATTEMPTS))


def submission_validate(*, submission_id: int) -> RecordSubmission:
    """Validate a stored submission (idempotent: a retry of a finished one does nothing)."""
    subs = _submissions_validate([submission_id])
    if not subs:
        raise RecordSubmission.DoesNotExist(f"no record submission {submission_id}")
    return subs[0]


def submission_validate_many(*, submission_ids: list[int]) -> int:
    """Validate a batch (those deleted meanwhile skipped); returns how many are done."""
    subs = _submissions_validate(submission_ids)
    return sum(s.status == Status.DONE for s in subs)


def _submissions_validate(submission_ids: list[int]) -> list[RecordSubmission]:
    """Validate submissions as one batch, idempotently. The batch costs two short
    transactions, not two per record: a worker's time goes to validating, not to the
    database every worker shares."""
    subs, claims = submissions_claim(submission_ids=submission_ids)
    if not claims:
        return subs
    delay = float(getattr(settings, "KZ_VALIDATION_DELAY", 0) or 0)
    if delay:
        time.sleep(delay)  # lets the integration tests stop a worker mid-validation
    outcomes = claims_judge(claims=claims)
    return claims_store(submissions=subs, claims=claims, outcomes=outcomes)


def submissions_claim(*, submission_ids: list[int]) -> tuple[list[RecordSubmission], list[Claim]]:
    """Claim the queued (or stale validating) records of a batch in id order (the order the
    sweep takes them in) with one statement, and read each game's rules and clock
    adjustments in one go. A claim from the queue starts a new generation; taking over a
    stale claim keeps it (nothing sent the record back, so it reads the same). A record
    claimed KZ_VALIDATION_MAX_ATTEMPTS times already fails instead."""
    with transaction.atomic():
        subs = list(
            RecordSubmission.objects.select_for_update(of=("self",))
            .select_related("game__round__tournament")
            .filter(pk__in=submission_ids)
            .order_by("pk")
        )
        now = timezone.now()
        open_ = [s for s in subs if s.status in (Status.QUEUED, Status.VALIDATING)]
        todo = [s for s in open_ if s.attempts < _max_attempts()]
        spent = _attempts_spent(submissions=open_, now=now)
        _todo_claim(todo=todo, now=now)
        for sub in spent:
            _fail(sub, STOPPED.format(n=sub.attempts))
        return subs, _claims_read(submissions=todo)


def _attempts_spent(
    *, submissions: list[RecordSubmission], now: datetime
) -> list[RecordSubmission]:
    """The open records claimed KZ_VALIDATION_MAX_ATTEMPTS times already: queued, or whose
    last claim is stale (on its last attempt and freshly claimed, another worker is at it
    still)."""
    stale = now - timedelta(seconds=settings.KZ_REQUEUE_AFTER)
    return [
        s
        for s in submissions
        if s.attempts >= _max_attempts()
        and (s.status == Status.QUEUED or (s.claimed_at or s.queued_at or now) <= stale)
    ]


def _todo_claim(*, todo: list[RecordSubmission], now: datetime) -> None:
    """Mark the records validating, one more attempt, claimed `now`, in two statements and
    on the objects; those from the queue start a new generation."""
    queued = [s.pk for s in todo if s.status == Status.QUEUED]
    RecordSubmission.objects.filter(pk__in=queued).update(generation=F("generation") + 1)
    RecordSubmission.objects.filter(pk__in=[s.pk for s in todo]).update(
        status=Status.VALIDATING, attempts=F("attempts") + 1, claimed_at=now
    )
    for sub in todo:
        sub.generation += sub.pk in queued
        sub.attempts += 1
        sub.status, sub.claimed_at = Status.VALIDATING, now


def _claims_read(*, submissions: list[RecordSubmission]) -> list[Claim]:
    """The claims of the records, with their games' clock adjustments and rules read in one
    go."""
    games = {sub.game_id: sub.game for sub in submissions if sub.game is not None}
    adjustments = clock_adjustments_of(games=list(games.values()))
    expected = {pk: game_rules_expected(game=game) for pk, game in games.items()}
    return [
        Claim(s, s.generation, adjustments.get(s.game_id or 0, ()), expected.get(s.game_id or 0))
        for s in submissions
    ]


def _fail(sub: RecordSubmission, reason: str) -> None:
    RecordSubmission.objects.filter(pk=sub.pk, status=sub.status).update(
        status=Status.FAILED, failure_reason=reason[:2000]
    )
    sub.status, sub.failure_reason = Status.FAILED, reason[:2000]
    log.error("record %s failed validation: %s", sub.pk, reason)


def claims_judge(*, claims: list[Claim]) -> dict[int, dict[str, Any] | str]:
    """Each claimed record's verdict (no lock held), or why computing it raised."""
    outcomes: dict[int, dict[str, Any] | str] = {}
    for claim in claims:
        sub = claim.submission
        try:
            outcomes[sub.pk] = verdict_compute(
                bytes(sub.raw), claim.adjustments, claim.expected, codes=True
            )
        except Exception as exc:  # noqa: BLE001 - one record's fault must not lose the batch
            log.exception("validating record %s raised", sub.pk)
            outcomes[sub.pk] = f"{type(exc).__name__}: {exc}"
    return outcomes


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
    "failure_reason",
]


def claims_store(
    *,
    submissions: list[RecordSubmission],
    claims: list[Claim],
    outcomes: dict[int, dict[str, Any] | str],
) -> list[RecordSubmission]:
    """Store each verdict over the claim it came from, in one transaction and one batch: a
    record another worker finished, or that was sent back to the queue (a clock adjustment)
    since, keeps what it has, and the task that sent it back validates it from what is true
    now. A validation that raised goes back to the queue, or fails on its last attempt."""
    with transaction.atomic():
        held = dict(
            RecordSubmission.objects.select_for_update()
            .filter(pk__in=[c.submission.pk for c in claims], status=Status.VALIDATING)
            .order_by("pk")
            .values_list("pk", "generation")
        )
        current = [c for c in claims if held.get(c.submission.pk) == c.generation]
        now = timezone.now()
        written = []
        for claim in current:
            outcome = outcomes[claim.submission.pk]
            if isinstance(outcome, str):
                _raised_store(claim, outcome, now)
            else:
                _verdict_set(claim.submission, outcome, now)
                written.append(claim)
        _verdicts_write(written)
    kept = {c.submission.pk for c in current}
    for claim in claims:
        if claim.submission.pk not in kept:
            log.info(
                "record %s changed while validated: its verdict is dropped", claim.submission.pk
            )
    _first_colours_keep(written, outcomes)
    fresh = {c.submission.pk: c.submission for c in current}
    fresh.update(RecordSubmission.objects.in_bulk([s.pk for s in submissions if s.pk not in kept]))
    return [fresh.get(sub.pk, sub) for sub in submissions]


def _raised_store(claim: Claim, reason: str, now: datetime) -> None:
    sub = claim.submission
    last = sub.attempts >= _max_attempts()
    status = Status.FAILED if last else Status.QUEUED
    # Back in the queue: the sweep sends it again after KZ_REQUEUE_AFTER.
    RecordSubmission.objects.filter(
        pk=sub.pk, generation=claim.generation, status=Status.VALIDATING
    ).update(
        status=status,
        failure_reason=reason[:2000],
        queued_at=now,
        resends=0,
        generation=F("generation") + (0 if last else 1),
    )
    sub.status, sub.failure_reason = status, reason[:2000]
    if last:
        log.error("record %s failed validation: %s", sub.pk, reason)


def _first_colours_keep(written: list[Claim], outcomes: dict[int, Any]) -> None:
    """The record says which colour the first placer had; the game keeps it so that results
    and penalties can name sides without reading the record again. Its own statement,
    after the record's lock is let go: holding the record while waiting for the game would
    reverse the one lock order (tournament, game, records) of a ruling. After the game's
    row: whoever reads the new version reads the colour too."""
    colours: dict[int, str] = {}
    for claim in written:
        sub = claim.submission
        colour = outcomes[sub.pk].get("first_colour")
        if (
            sub.game_id
            and sub.readable
            and colour
            and not record_needs_confirmation(submission=sub)
        ):
            colours.setdefault(sub.game_id, colour)
    for game_id, colour in colours.items():
        changed = Game.objects.filter(pk=game_id, first_colour_recorded="").update(
            first_colour_recorded=colour
        )
        if changed:
            published_version_bump_for_game(game_id=game_id)


def _column(field: Field[Any, Any]) -> str:
    """The column of a concrete field (only a many-to-many one has none)."""
    assert field.column is not None
    return field.column


def _verdicts_write(claims: list[Claim]) -> None:
    """UPDATE each record's verdict fields where it still has the generation it was claimed
    in, sent as one batch (psycopg's executemany pipelines the statements): bulk_update's
    CASE per field and row cost the worker more CPU than validating, and a statement per
    record a round trip each, which on a busy machine waits for the database's process to
    be scheduled every time."""
    if not claims:
        return
    meta = RecordSubmission._meta
    concrete = {f.name: f for f in meta.concrete_fields}
    fields = [concrete[name] for name in _VERDICT_FIELDS]
    quote = connection.ops.quote_name
    sets = ", ".join(f"{quote(_column(f))} = %s" for f in fields)
    where = f"{quote(_column(meta.pk))} = %s AND {quote('generation')} = %s"
    sql = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {where} AND {quote('status')} = %s"
    rows = []
    for claim in claims:
        sub = claim.submission
        values = [f.get_db_prep_save(getattr(sub, f.attname), connection) for f in fields]
        rows.append([*values, sub.pk, claim.generation, Status.VALIDATING.value])
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def _verdict_set(sub: RecordSubmission, verdict: dict[str, Any], now: datetime) -> None:
    sub.readable = verdict["readable"]
    sub.valid = verdict["valid"]
    sub.plies = verdict["plies"]
    sub.error = verdict["error"]
    sub.warnings = verdict["warnings"]
    sub.termination = verdict["termination"] or ""
    sub.winner = verdict["winner"] or ""
    sub.result_tag = (verdict.get("result") or "")[:8]
    sub.clock = verdict.get("clock")
    sub.status = Status.DONE
    sub.validated_at = now
    sub.failure_reason = ""


def submission_requeue_stale(*, older_than: timedelta | None = None) -> int:
    """The sweep: queue again each record waiting longer than its own wait, `older_than`
    (KZ_REQUEUE_AFTER) doubled for each time the sweep sent it already: a queued one timed
    from its queueing, a validating one from its worker's claim (stored while the broker
    was down, lost with a Redis restart, or held by a worker that died). A validating one
    claimed KZ_VALIDATION_MAX_ATTEMPTS times fails instead. Each is claimed (skipping those
    another sweep holds) and its wait restarted only once a broker took it; returns how
    many went."""
    wait = older_than if older_than is not None else timedelta(seconds=settings.KZ_REQUEUE_AFTER)
    now = timezone.now()
    with transaction.atomic():
        rows = list(
            RecordSubmission.objects.select_for_update(skip_locked=True)
            .alias(since=Coalesce("claimed_at", "queued_at"))
            .filter(
                Q(status=Status.QUEUED, queued_at__lte=now - wait)
                | Q(status=Status.VALIDATING, since__lte=now - wait)
            )
            .order_by("pk")
            .values_list("pk", "status", "queued_at", "claimed_at", "attempts", "resends")
        )
        due: list[tuple[int, int]] = []
        spent: list[tuple[int, int]] = []
        for pk, status, queued_at, claimed_at, attempts, resends in rows:
            since = queued_at if status == Status.QUEUED else claimed_at or queued_at
            if since > now - wait * 2 ** min(resends, RESEND_DOUBLINGS):
                continue
            stopped = status == Status.VALIDATING and attempts >= _max_attempts()
            (spent if stopped else due).append((pk, attempts))
        for pk, attempts in spent:
            RecordSubmission.objects.filter(pk=pk, status=Status.VALIDATING).update(
                status=Status.FAILED, failure_reason=STOPPED.format(n=attempts)
            )
        ids = [pk for pk, _ in due]
        sent = submission_enqueue_many(submission_ids=ids)
        went = RecordSubmission.objects.filter(pk__in=ids[:sent])
        went.update(queued_at=timezone.now(), resends=F("resends") + 1)
        went.filter(status=Status.VALIDATING).update(claimed_at=timezone.now())
    return sent


@transaction.atomic
def submission_retry(
    *, submission: RecordSubmission, user: AnyUser | None = None
) -> RecordSubmission:
    """An arbiter queues a failed record again: its attempts start over (audited)."""
    game = submission.game
    tournament = submission.tournament or (game.round.tournament if game else None)
    if tournament is None or (
        user is not None and not user_can_arbitrate(user=user, tournament=tournament)
    ):
        raise PermissionDenied(gettext("only the event's arbiters queue a record again"))
    if game is not None:
        game_lock(game)
    else:
        tournament_lock(tournament.pk)
    sub = RecordSubmission.objects.select_for_update().get(pk=submission.pk)
    if sub.status != Status.FAILED:
        raise Conflict(
            {
                "status": gettext(
                    "only a record whose validation failed is queued again; this one is %(status)s"
                )
                % {"status": sub.get_status_display()}
            }
        )
    submission_requeue(submission=sub)
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.RECORD_REQUEUED,
        obj=sub,
        before={"status": sub.status, "attempts": sub.attempts, "reason": sub.failure_reason},
        after={"status": Status.QUEUED, "attempts": 0},
    )
    sub.refresh_from_db()
    return sub
