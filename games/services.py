"""Writes of the games app: record submissions, their validation, signatures, corrections."""

from __future__ import annotations

import io
import logging
import time
import zipfile
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from games.models import (
    ClockAdjustment,
    Game,
    Irregularity,
    RecordSignature,
    RecordSubmission,
    SigningKey,
)
from games.selectors import game_rules_expected
from games.signing import Signature, SignatureError, load_public_key, verify_record
from rules.clock import Adjustment, adjudicate
from rules.errors import RecordError, RulesError
from rules.position import KIND_NAMES, Rules
from rules.record import read_record, write_record
from rules.validate import validate_record, verdict_for_unreadable

log = logging.getLogger(__name__)
MAX_RECORD_BYTES = 512 * 1024


def _can_submit(user: Any, game: Game) -> bool:
    from tournaments.roles import user_can_arbitrate

    if user_can_arbitrate(user=user, tournament=game.round.tournament):
        return True
    player = getattr(user, "player", None) if getattr(user, "is_authenticated", False) else None
    return player is not None and player.pk in (game.first_id, game.second_id)


@transaction.atomic
def submission_create(
    *,
    game: Game | None,
    raw: bytes,
    source: str = RecordSubmission.Source.PASTE,
    filename: str = "",
    user: Any = None,
    tournament: Any = None,
    enqueue: bool = True,
    match_note: str = "",
) -> RecordSubmission:
    """Store a record exactly as it came, then queue its validation once committed (unless
    the caller queues a batch itself). `match_note` says how a bulk upload found its game."""
    if len(raw) > MAX_RECORD_BYTES:
        raise ValidationError({"record": f"a record is at most {MAX_RECORD_BYTES} bytes"})
    if game is not None:
        if user is not None and not _can_submit(user, game):
            raise PermissionDenied("only the game's combatants and arbiters submit its record")
        Game.objects.select_for_update().get(pk=game.pk)
        last = game.submissions.order_by("-version").first()
        version = last.version + 1 if last else 1
        tournament = game.round.tournament
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
        submitted_by=user if getattr(user, "is_authenticated", False) else None,
        queued_at=timezone.now(),
    )
    if tournament is not None:
        from tournaments.audit import audit_append

        audit_append(
            tournament=tournament,
            user=user,
            action="record_submitted",
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


def submission_enqueue(*, submission_id: int) -> bool:
    """Hand a submission to a worker; False (and it stays queued) when the broker is down."""
    from games.tasks import validate_record_task

    try:
        validate_record_task.apply_async(args=[submission_id], retry=False)
    except Exception as exc:  # noqa: BLE001 - any broker failure leaves the record queued
        if settings.CELERY_TASK_ALWAYS_EAGER:
            raise
        log.warning("record %s stays queued: broker unavailable (%s)", submission_id, exc)
        return False
    return True


# Records of a bulk upload go to the workers in batches of this many.
VALIDATION_BATCH = 50


def submission_enqueue_many(*, submission_ids: list[int], batch: int = VALIDATION_BATCH) -> int:
    """Hand submissions to the workers in batches; returns how many were handed over (the
    others stay queued for submission_requeue_stale when the broker is down)."""
    from games.tasks import validate_records_task

    sent = 0
    for i in range(0, len(submission_ids), batch):
        chunk = submission_ids[i : i + batch]
        try:
            validate_records_task.apply_async(args=[chunk], retry=False)
        except Exception as exc:  # noqa: BLE001 - any broker failure leaves them queued
            if settings.CELERY_TASK_ALWAYS_EAGER:
                raise
            log.warning("%d records stay queued: broker unavailable (%s)", len(chunk), exc)
            break
        sent += len(chunk)
    return sent


def submission_validate_many(*, submission_ids: list[int]) -> int:
    """Validate a batch; returns how many are done."""
    return sum(
        submission_validate(submission_id=pk).status == RecordSubmission.Status.DONE
        for pk in submission_ids
        if RecordSubmission.objects.filter(pk=pk).exists()
    )


def submission_requeue_stale(*, older_than: timedelta | None = None) -> int:
    """Queue again every submission still waiting (e.g. stored while Redis was down)."""
    if older_than is None:
        older_than = timedelta(seconds=settings.KZ_REQUEUE_AFTER)
    limit = timezone.now() - older_than
    ids = list(
        RecordSubmission.objects.filter(
            status__in=[RecordSubmission.Status.QUEUED, RecordSubmission.Status.VALIDATING],
            queued_at__lte=limit,
        ).values_list("pk", flat=True)
    )
    RecordSubmission.objects.filter(pk__in=ids).update(queued_at=timezone.now())
    return submission_enqueue_many(submission_ids=ids)


# (ruleset, variants, removed warrior kind) a game's record must be played under.
Expected = tuple[str, frozenset[str], int]


def verdict_compute(
    raw: bytes, adjustments: tuple[Adjustment, ...] = (), expected: Expected | None = None
) -> dict[str, Any]:
    """The validator's verdict and the clock decision for a record's bytes (pure); with
    `expected`, a record played under other rules than the game's is not valid."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return {"readable": False, **verdict_for_unreadable("the record is not UTF-8 text")}
    try:
        record = read_record(text)
    except RecordError as exc:
        return {"readable": False, **verdict_for_unreadable(str(exc))}
    checked = validate_record(record)
    verdict = checked.as_dict()
    mismatch = None
    if expected and checked.valid and checked.position is not None:
        mismatch = _rules_mismatch(checked.position.rules, expected)
    if mismatch:
        verdict["valid"] = False
        verdict["error"] = {"ply": None, "text": None, "reason": mismatch, "article": "9.1"}
    try:
        clock: dict[str, Any] = adjudicate(record, adjustments).as_dict()
    except RulesError as exc:
        clock = {"decision": None, "loser": None, "article": None, "error": str(exc)}
    return {
        "readable": True,
        **verdict,
        "clock": clock,
        "first_placement": record.tags.get("FirstPlacement", "green").lower(),
    }


def _rules_mismatch(rules: Rules, expected: Expected) -> str | None:
    """How the rules a record names (its Ruleset, Variants and Removed tags) differ from the
    game's."""
    ruleset, variants, removed = expected
    if rules.ruleset != ruleset:
        return (
            f"the record is played under ruleset {rules.ruleset!r}; this tournament plays "
            f"{ruleset!r}"
        )
    if rules.variants != variants:
        want = ", ".join(sorted(variants)) or "none"
        got = ", ".join(sorted(rules.variants)) or "none"
        return f"the record's variants are {got}; this game is played with {want}"
    if rules.removed != removed:
        if removed:
            return (
                f"this game is a Bach'san replay without a {KIND_NAMES[removed]}: the record "
                "needs a Removed tag naming it"
            )
        return "this game is not a Bach'san replay: the record may not have a Removed tag"
    return None


def submission_validate(*, submission_id: int) -> RecordSubmission:
    """Validate a stored submission (idempotent: a retry of a finished one does nothing)."""
    with transaction.atomic():
        sub = RecordSubmission.objects.select_for_update().get(pk=submission_id)
        if sub.status == RecordSubmission.Status.DONE:
            return sub
        sub.status = RecordSubmission.Status.VALIDATING
        sub.attempts += 1
        sub.save(update_fields=["status", "attempts"])
        raw = bytes(sub.raw)
        adjustments = clock_adjustments(game=sub.game) if sub.game else ()
        expected = game_rules_expected(game=sub.game) if sub.game else None
    delay = float(getattr(settings, "KZ_VALIDATION_DELAY", 0) or 0)
    if delay:
        time.sleep(delay)  # lets the integration tests stop a worker mid-validation
    verdict = verdict_compute(raw, adjustments, expected)
    with transaction.atomic():
        sub = RecordSubmission.objects.select_for_update().get(pk=submission_id)
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
        sub.validated_at = timezone.now()
        sub.save()
        colour = verdict.get("first_placement")
        if sub.game_id and sub.readable and colour in ("green", "gold"):
            # The record says which colour the first placer had; the game keeps it so that
            # results and penalties can name sides without reading the record again.
            Game.objects.filter(pk=sub.game_id, first_color="").update(first_color=colour)
    return sub


def proposed_result(*, submission: RecordSubmission, first_placement: str) -> str | None:
    """The Game.Result the moves or the clocks decide, for the arbiter to confirm."""
    winner = submission.winner
    if not winner and submission.clock and submission.clock.get("decision") == "time":
        loser = submission.clock["loser"]
        winner = "gold" if loser == "green" else "green"
    if not winner:
        return None
    return Game.Result.FIRST_WIN if winner == first_placement else Game.Result.SECOND_WIN


@transaction.atomic
def bulk_upload(*, tournament: Any, data: bytes, filename: str, user: Any = None) -> list[int]:
    """Store every record of a zip (or one file) for a tournament, each matched to its game
    by its Round, Green and Gold tags where exactly one game fits; each is validated."""
    from tournaments.roles import user_can_arbitrate

    if user is not None and not user_can_arbitrate(user=user, tournament=tournament):
        raise PermissionDenied("only this tournament's arbiters upload its records")
    files: list[tuple[str, bytes]] = []
    if zipfile.is_zipfile(io.BytesIO(data)):
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            for info in zf.infolist():
                if info.is_dir() or info.file_size > MAX_RECORD_BYTES:
                    continue
                files.append((info.filename, zf.read(info)))
    else:
        files.append((filename, data))
    index = _game_index(tournament)
    ids = []
    for name, raw in files:
        game, note = _match_game(raw, index)
        sub = submission_create(
            game=game,
            raw=raw,
            source=RecordSubmission.Source.BULK,
            filename=name,
            tournament=tournament,
            enqueue=False,
            match_note=note,
        )
        ids.append(sub.pk)
    transaction.on_commit(lambda: submission_enqueue_many(submission_ids=ids))
    return ids


def _name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _game_index(tournament: Any) -> dict[tuple[int, frozenset[str]], list[Game]]:
    games = Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME)
    index: dict[tuple[int, frozenset[str]], list[Game]] = {}
    for g in games.select_related("round", "first", "second"):
        assert g.second is not None
        key = (g.round.number, frozenset({_name_key(g.first.name), _name_key(g.second.name)}))
        index.setdefault(key, []).append(g)
    return index


def _match_game(
    raw: bytes, index: dict[tuple[int, frozenset[str]], list[Game]]
) -> tuple[Game | None, str]:
    """The one game a record's tags name, and how (or why none)."""
    from rules.record import read_tags

    try:
        tags = read_tags(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, RecordError):
        return None, "not matched: the tags cannot be read"
    rnd, green, gold = tags.get("Round", ""), tags.get("Green", ""), tags.get("Gold", "")
    if not rnd.strip().isdigit() or not green.strip() or not gold.strip():
        return None, "not matched: Round, Green and Gold tags are needed"
    found = index.get((int(rnd), frozenset({_name_key(green), _name_key(gold)})), [])
    if len(found) != 1:
        why = "no game" if not found else f"{len(found)} games"
        return None, f"not matched: {why} in round {int(rnd)} between {green} and {gold}"
    game = found[0]
    first_colour = "green" if _name_key(game.first.name) == _name_key(green) else "gold"
    said = tags.get("FirstPlacement", "").strip().lower()
    note = f"matched to round {game.round.number} board {game.board}"
    if said and said != first_colour:
        note += f"; FirstPlacement says {said} but the pairing has {first_colour} first"
    return game, note


@transaction.atomic
def signing_key_register(*, user: Any, public_key: str, label: str = "") -> SigningKey:
    try:
        load_public_key(public_key)
    except SignatureError as exc:
        raise ValidationError({"public_key": str(exc)}) from None
    key, _ = SigningKey.objects.get_or_create(
        user=user, public_key=public_key.strip(), defaults={"label": label}
    )
    return key


@transaction.atomic
def signature_add(
    *, submission: RecordSubmission, user: Any, public_key: str, signature: str
) -> RecordSignature:
    """A combatant or the arbiter signs the record (Art. 8.2); both combatants lock it."""
    from tournaments.roles import user_can_arbitrate

    sub = (
        RecordSubmission.objects.select_for_update(of=("self",))
        .select_related("game__round__tournament")
        .get(pk=submission.pk)
    )
    game = sub.game
    if game is None:
        raise ValidationError({"submission": "only a game's record is signed"})
    player = getattr(user, "player", None)
    if player is not None and player.pk == game.first_id:
        role = RecordSignature.Role.FIRST
    elif player is not None and player.pk == game.second_id:
        role = RecordSignature.Role.SECOND
    elif user_can_arbitrate(user=user, tournament=game.round.tournament):
        role = RecordSignature.Role.ARBITER
    else:
        raise PermissionDenied("only the combatants and the arbiter sign a record")
    if not SigningKey.objects.filter(user=user, public_key=public_key.strip()).exists():
        raise ValidationError({"public_key": "register this public key first"})
    try:
        ok = verify_record(sub.text, Signature(public_key.strip(), signature.strip()))
    except (SignatureError, RulesError) as exc:
        raise ValidationError({"signature": str(exc)}) from None
    if not ok:
        raise ValidationError({"signature": "does not sign this record"})
    sig, _ = RecordSignature.objects.update_or_create(
        submission=sub,
        role=role,
        defaults={"signer": user, "public_key": public_key.strip(), "signature": signature},
    )
    from tournaments.audit import audit_append

    audit_append(
        tournament=game.round.tournament,
        user=user,
        action="record_signed",
        obj=sig,
        after={"submission": sub.pk, "role": role},
    )
    roles = set(sub.signatures.values_list("role", flat=True))
    if {RecordSignature.Role.FIRST, RecordSignature.Role.SECOND} <= roles and not sub.locked:
        sub.locked = True
        sub.save(update_fields=["locked"])
    return sig


def record_correction_create(
    *, submission: RecordSubmission, raw: bytes, user: Any
) -> RecordSubmission:
    """A correction is a new version; the old one and its signatures are kept."""
    if submission.game is None:
        raise ValidationError({"submission": "only a game's record has versions"})
    return submission_create(
        game=submission.game, raw=raw, source=RecordSubmission.Source.PASTE, user=user
    )


def clock_adjustments(*, game: Game) -> tuple[Adjustment, ...]:
    return tuple(
        Adjustment(0 if a.side == "green" else 1, a.from_ply, a.seconds, a.article)
        for a in game.clock_adjustments.all()
    )


@transaction.atomic
def clock_adjustment_add(
    *,
    game: Game,
    side: str,
    seconds: int,
    article: str,
    from_ply: int = 1,
    reason: str = "",
    user: Any = None,
) -> ClockAdjustment:
    """Record an arbiter's time adjustment and validate the latest record again with it."""
    from tournaments.roles import user_can_arbitrate

    if user is not None and not user_can_arbitrate(user=user, tournament=game.round.tournament):
        raise PermissionDenied("only this tournament's arbiters adjust clocks")
    if side not in ("green", "gold"):
        raise ValidationError({"side": "green or gold"})
    adj = ClockAdjustment(
        game=game,
        side=side,
        seconds=seconds,
        article=article,
        from_ply=from_ply,
        reason=reason,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    adj.full_clean()
    adj.save()
    latest = game.submissions.order_by("-version", "-id").first()
    if latest is not None:
        RecordSubmission.objects.filter(pk=latest.pk).update(
            status=RecordSubmission.Status.QUEUED, queued_at=timezone.now()
        )
        transaction.on_commit(lambda: submission_enqueue(submission_id=latest.pk))
    return adj


@transaction.atomic
def game_result_confirm(*, game: Game, user: Any, result: str | None = None) -> Game:
    """The arbiter confirms the result: the one given, or the one the latest record proposes
    (from the moves or the clocks)."""
    from tournaments.roles import Role, role_require
    from tournaments.services import game_result_set

    role_require(user=user, tournament=game.round.tournament, role=Role.ARBITER)
    if result is None:
        sub = (
            game.submissions.filter(status=RecordSubmission.Status.DONE)
            .order_by("-version", "-id")
            .first()
        )
        if sub is None or not sub.valid:
            raise ValidationError({"result": "no valid record proposes a result"})
        first = (read_record(sub.text).tags.get("FirstPlacement", "green") or "green").lower()
        result = proposed_result(submission=sub, first_placement=first)
        if result is None:
            raise ValidationError({"result": "the record decides no result; enter it"})
    return game_result_set(game=game, result=result, user=user)


@transaction.atomic
def irregularity_declare(*, game: Game, kind: str, reason: str, user: Any) -> Irregularity:
    """The arbiter's ruling on an irregularity (Art. 7), taking effect at once:
    - `new_battle` (7.1, an illegal placement): the result is cleared and a new record is
      expected; the old records stay as they were;
    - `restore` (7.3): a new version of the latest record is stored, cut before its first
      illegal ply, so that the battle goes on from the last legal position (its clock
      readings come with it) and is validated again;
    - `draw` (7.3, no legal position can be restored): the battle is declared drawn."""
    from tournaments.audit import audit_append
    from tournaments.roles import Role, role_require
    from tournaments.services import game_result_set

    tournament = game.round.tournament
    role_require(user=user, tournament=tournament, role=Role.ARBITER)
    if kind not in Irregularity.Kind.values:
        raise ValidationError({"kind": f"unknown irregularity {kind!r}"})
    if not reason.strip():
        raise ValidationError({"reason": "say what happened"})
    if game.kind != Game.Kind.GAME:
        raise ValidationError({"game": "a bye has no battle"})
    latest = game.submissions.order_by("-version", "-id").first()
    ply = (latest.error or {}).get("ply") if latest is not None and latest.error else None
    new_sub = None
    if kind == Irregularity.Kind.RESTORE:
        if latest is None or latest.status != RecordSubmission.Status.DONE:
            raise ValidationError({"kind": "no validated record to restore from"})
        if latest.valid or not ply:
            raise ValidationError({"kind": "the latest record has no illegal ply to go back from"})
        if ply < 2:
            raise ValidationError(
                {"kind": "no legal position precedes the first ply: declare a new battle (7.1)"}
            )
        record = read_record(latest.text)
        record.plies = record.plies[: ply - 1]
        for tag in ("Result", "Termination"):
            record.tags.pop(tag, None)
        record.preamble = (
            *record.preamble,
            f"restored by the arbiter to the position before ply {ply} (Art. 7.3)",
        )
        new_sub = submission_create(
            game=game,
            raw=write_record(record).encode("utf-8"),
            source=RecordSubmission.Source.ARBITER,
            user=user,
        )
    irregularity = Irregularity.objects.create(
        game=game,
        kind=kind,
        article=Irregularity.ARTICLES[kind],
        reason=reason,
        ply=ply,
        from_submission=latest,
        new_submission=new_sub,
        arbiter=user if getattr(user, "is_authenticated", False) else None,
    )
    audit_append(
        tournament=tournament,
        user=user,
        action="irregularity",
        obj=game,
        before={"result": game.result},
        after={"kind": kind, "article": irregularity.article, "ply": ply, "reason": reason},
    )
    if kind == Irregularity.Kind.DRAW:
        game_result_set(game=game, result=Game.Result.DRAW, user=user)
    elif game.result:
        game_result_set(game=game, result=Game.Result.PENDING, user=user)
    return irregularity


@transaction.atomic
def latecomers_record(
    *,
    game: Game,
    scheduled: datetime,
    green_arrival: datetime | None,
    gold_arrival: datetime | None,
    user: Any = None,
) -> list[ClockAdjustment]:
    """Charge latecomers' clocks (Art. 6.8, 6.9) from the scheduled start and the arrival
    times (None: on time), as clock adjustments from the first ply; the latest record is
    adjudicated again with them. Recorded once per game."""
    from rules.clock import latecomer_adjustments

    locked = Game.objects.select_for_update().get(pk=game.pk)
    if locked.clock_adjustments.filter(article__in=["6.8", "6.9"]).exists():
        raise ValidationError({"arrival": "latecomers are already recorded for this game"})

    def late(arrival: datetime | None) -> int:
        if arrival is None or arrival <= scheduled:
            return 0
        return int((arrival - scheduled).total_seconds())

    charges = latecomer_adjustments(late(green_arrival), late(gold_arrival))
    if not charges:
        raise ValidationError({"arrival": "nobody arrived after the scheduled start"})
    made = []
    for adj in charges:
        side = "green" if adj.side == 0 else "gold"
        minutes, seconds = divmod(-adj.seconds, 60)
        made.append(
            clock_adjustment_add(
                game=locked,
                side=side,
                seconds=adj.seconds,
                article=adj.article,
                reason=f"{side} arrived {minutes} min {seconds} s after the scheduled start",
                user=user,
            )
        )
    return made


def game_timeout_decide(*, game: Game, user: Any) -> Any:
    """Decide a battle stopped at time-out under the Italian society's rules from its latest
    valid record: the count (a tie: the coin), or in a final the Bach'san replay."""
    import secrets

    from games.selectors import game_is_final, submission_latest
    from tournaments.audit import audit_append
    from tournaments.italian import RULESET, timeout_decide
    from tournaments.roles import Role, role_require
    from tournaments.services import game_result_set

    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        tournament = game.round.tournament
        role_require(user=user, tournament=tournament, role=Role.ARBITER)
        if tournament.ruleset != RULESET:
            raise ValidationError(
                {
                    "ruleset": "a time-out is decided by the count only under the Italian "
                    "society's ruleset; under the Laws the clock decides (Art. 6.5)"
                }
            )
        if game.kind != Game.Kind.GAME or game.second_id is None:
            raise ValidationError({"game": "only a battle between two players has a time-out"})
        if game.result:
            raise ValidationError({"game": "this game already has a result"})
        sub = submission_latest(game=game)
        if sub is None or sub.status != RecordSubmission.Status.DONE or not sub.valid:
            raise ValidationError(
                {"record": "the count needs a valid record of the battle up to the time-out"}
            )
        if sub.termination:
            raise ValidationError(
                {"record": f"the moves already ended the battle ({sub.termination})"}
            )
        verdict = validate_record(read_record(bytes(sub.raw).decode("utf-8-sig")))
        assert verdict.position is not None
        if not game.spindle_seed:
            game.spindle_seed = (
                f"{tournament.slug}/{game.round.number}/{game.board}/{secrets.token_hex(8)}"
            )
        decision = timeout_decide(
            verdict.position,
            seed=f"{game.spindle_seed}/v{sub.version}",
            final=game_is_final(game=game),
            bachsan=game.bachsan_removed > 0,
        )
        before = {"result": game.result, "bachsan_removed": game.bachsan_removed}
        if decision.how == "bachsan":
            game.bachsan_removed = decision.removed
        game.save(update_fields=["spindle_seed", "bachsan_removed"])
        if decision.winner is not None:
            first_colour = game.first_color or "green"
            won_first = decision.winner_name == first_colour
            result = Game.Result.FIRST_WIN if won_first else Game.Result.SECOND_WIN
            game = game_result_set(game=game, result=result, user=user)
        audit_append(
            tournament=tournament,
            user=user,
            action="game.timeout",
            obj=game,
            before=before,
            after={
                "how": decision.how,
                "winner": decision.winner_name,
                "removed": decision.removed,
                "explanation": decision.explanation,
                "seed": f"{game.spindle_seed}/v{sub.version}",
            },
        )
    return decision
