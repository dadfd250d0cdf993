"""Record submissions, called directly: the size check, queueing one or many (and what
happens when no broker takes them), requeueing stale ones, the verdict of a record's bytes,
a submission's validation (its verdict stored, the game's first colour learnt, idempotence)
and corrections as new versions."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from games import services
from games.models import ClockAdjustment, RecordSubmission
from games.services import records
from games.services.records import record_size_check, submission_requeue
from rules.clock import Adjustment
from tests.games.conftest import BAD, CAPTURE
from tests.games.services.conftest import clock_record
from tournaments.models import Game

GOLD_FIRST = CAPTURE.replace(b'[FirstPlacement "green"]', b'[FirstPlacement "gold"]').replace(
    b'[Result "green"]', b'[Result "gold"]'
)


def stored(game: Game, raw: bytes = CAPTURE, user=None, **kwargs) -> RecordSubmission:  # type: ignore[no-untyped-def]
    """A submission stored without queueing its validation."""
    return services.submission_create(game=game, raw=raw, user=user, enqueue=False, **kwargs)


# Sizes


def test_record_size_check():
    record_size_check(b"x" * services.MAX_RECORD_BYTES)
    with pytest.raises(ValidationError) as e:
        record_size_check(b"x" * (services.MAX_RECORD_BYTES + 1))
    assert e.value.message_dict == {"record": ["a record is at most 524288 bytes"]}


def test_an_oversized_record_is_not_stored(officials, game):
    with pytest.raises(ValidationError):
        services.submission_create(
            game=game, raw=b"x" * (services.MAX_RECORD_BYTES + 1), user=officials.arbiter
        )
    assert not RecordSubmission.objects.exists()


# Queueing


def test_a_submission_is_queued_once_committed(
    officials, game, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        sub = services.submission_create(game=game, raw=CAPTURE, user=officials.arbiter)
    assert len(callbacks) == 1 and sent == [("games.validate_record", (sub.pk,))]
    assert RecordSubmission.objects.get(pk=sub.pk).status == "queued"


def test_submission_enqueue_says_whether_a_broker_took_it(officials, game, sent, monkeypatch):
    sub = stored(game)
    assert services.submission_enqueue(submission_id=sub.pk) is True
    assert sent == [("games.validate_record", (sub.pk,))]
    monkeypatch.setattr(records, "task_send", lambda name, *args: False)
    assert services.submission_enqueue(submission_id=sub.pk) is False
    assert RecordSubmission.objects.get(pk=sub.pk).status == "queued"


@pytest.mark.skipif(not settings.CELERY_TASK_ALWAYS_EAGER, reason="tasks run in a worker")
def test_in_process_enqueueing_validates_at_once(officials, game):
    sub = stored(game)
    assert services.submission_enqueue(submission_id=sub.pk) is True
    sub.refresh_from_db()
    assert (sub.status, sub.valid, sub.plies) == ("done", True, 31)


def test_submission_enqueue_many_sends_batches(sent):
    ids = list(range(101, 108))
    assert services.submission_enqueue_many(submission_ids=ids, batch=3) == 7
    assert sent == [
        ("games.validate_records", ([101, 102, 103],)),
        ("games.validate_records", ([104, 105, 106],)),
        ("games.validate_records", ([107],)),
    ]
    assert services.submission_enqueue_many(submission_ids=[]) == 0 and len(sent) == 3


def test_submission_enqueue_many_stops_when_the_broker_does(db, monkeypatch):
    calls: list[list[int]] = []

    def task_send(name: str, chunk: list[int]) -> bool:
        calls.append(chunk)
        return len(calls) == 1

    monkeypatch.setattr(records, "task_send", task_send)
    assert services.submission_enqueue_many(submission_ids=[1, 2, 3, 4, 5], batch=2) == 2
    assert calls == [[1, 2], [3, 4]]


def test_records_no_broker_took_go_in_the_next_sweep(officials, game, monkeypatch):
    """Stored while the broker was down: the first sweep once it is back sends them, without
    waiting KZ_REQUEUE_AFTER as for records the broker holds; those stay where they are."""
    took, refused, lost = stored(game), stored(game), stored(game)
    answers = iter([True, False])
    monkeypatch.setattr(records, "task_send", lambda name, *args: next(answers))
    assert services.submission_enqueue(submission_id=took.pk)
    assert not services.submission_enqueue_many(submission_ids=[refused.pk, lost.pk])
    sent: list[list[int]] = []
    monkeypatch.setattr(records, "task_send", lambda name, ids: sent.append(sorted(ids)) or True)
    assert services.submission_requeue_stale() == 2
    assert sent == [sorted([refused.pk, lost.pk])]
    assert services.submission_requeue_stale() == 0  # their wait starts again once sent


def test_the_default_batch_is_validation_batch(sent):
    ids = list(range(services.VALIDATION_BATCH + 1))
    assert services.submission_enqueue_many(submission_ids=ids) == len(ids)
    assert [len(args[0]) for _, args in sent] == [services.VALIDATION_BATCH, 1]


# Requeueing


def test_stale_submissions_are_queued_again(officials, game, sent):
    long_ago = timezone.now() - timedelta(minutes=10)
    queued, validating, fresh, finished = (stored(game) for _ in range(4))
    RecordSubmission.objects.filter(pk__in=[queued.pk, validating.pk, finished.pk]).update(
        queued_at=long_ago
    )
    RecordSubmission.objects.filter(pk=validating.pk).update(status="validating")
    RecordSubmission.objects.filter(pk=finished.pk).update(status="done")
    fresh_at = RecordSubmission.objects.get(pk=fresh.pk).queued_at
    assert services.submission_requeue_stale(older_than=timedelta(minutes=5)) == 2
    assert len(sent) == 1 and sent[0][0] == "games.validate_records"
    assert sorted(sent[0][1][0]) == sorted([queued.pk, validating.pk])
    at = dict(RecordSubmission.objects.values_list("pk", "queued_at"))
    assert at[queued.pk] > long_ago and at[validating.pk] > long_ago
    assert at[fresh.pk] == fresh_at and at[finished.pk] == long_ago


def test_stale_means_older_than_the_setting_by_default(officials, game, sent, settings):
    settings.KZ_REQUEUE_AFTER = 300
    old, recent = stored(game), stored(game)
    now = timezone.now()
    RecordSubmission.objects.filter(pk=old.pk).update(queued_at=now - timedelta(seconds=400))
    RecordSubmission.objects.filter(pk=recent.pk).update(queued_at=now - timedelta(seconds=60))
    assert services.submission_requeue_stale() == 1
    assert sent == [("games.validate_records", ([old.pk],))]


def test_requeueing_without_a_broker_hands_nothing_over(officials, game, monkeypatch):
    monkeypatch.setattr(records, "task_send", lambda name, *args: False)
    sub = stored(game)
    RecordSubmission.objects.filter(pk=sub.pk).update(queued_at=timezone.now() - timedelta(hours=1))
    assert services.submission_requeue_stale(older_than=timedelta(minutes=1)) == 0
    assert RecordSubmission.objects.get(pk=sub.pk).status == "queued"


def test_a_validated_record_is_queued_again(
    officials, game, sent, django_capture_on_commit_callbacks
):
    sub = services.submission_validate(submission_id=stored(game).pk)
    assert sub.status == "done"
    with django_capture_on_commit_callbacks(execute=True):
        submission_requeue(submission=sub)
    again = RecordSubmission.objects.get(pk=sub.pk)
    assert again.status == "queued" and again.queued_at >= sub.validated_at
    assert sent == [("games.validate_record", (sub.pk,))]


# The verdict of a record's bytes (pure)


def test_the_verdict_of_a_valid_record():
    v = services.verdict_compute(CAPTURE)
    assert (v["readable"], v["valid"], v["plies"], v["error"]) == (True, True, 31, None)
    assert (v["termination"], v["winner"], v["result"]) == ("capture", "green", "green")
    assert v["clock"] == {"decision": None, "loser": None, "article": None}
    assert v["first_colour"] == "green"
    assert services.verdict_compute(GOLD_FIRST)["first_colour"] == "gold"


def test_the_verdict_names_the_illegal_ply():
    v = services.verdict_compute(BAD)
    assert (v["readable"], v["valid"]) == (True, False)
    assert (v["error"]["ply"], v["error"]["article"]) == (21, "3.3")


def test_the_verdict_of_bytes_that_are_no_record():
    v = services.verdict_compute(b"\xff\xfe\x00")
    assert (v["readable"], v["valid"], v["plies"]) == (False, False, 0)
    assert v["error"]["reason"] == "the record is not UTF-8 text"
    v = services.verdict_compute(b"hello world")
    assert v["valid"] is False and v["error"]["reason"] == "cannot read ply 'hello'"


def test_the_verdict_with_clock_adjustments():
    raw = clock_record({30: "0:00:00"})
    assert services.verdict_compute(raw)["clock"] == {
        "decision": "time",
        "loser": "gold",
        "article": "6.5",
    }
    more_time = (Adjustment(1, 29, 60, "12.5"),)  # gold gains a minute from ply 29
    assert services.verdict_compute(raw, more_time)["clock"]["decision"] is None


@pytest.mark.parametrize(
    ("expected", "reason"),
    [
        (
            ("loyd-1989", frozenset(), 0),
            "the record is played under ruleset 'laws'; this tournament plays 'loyd-1989'",
        ),
        (
            ("laws", frozenset({"reflective"}), 0),
            "the record's variants are none; this game is played with reflective",
        ),
        (
            ("laws", frozenset(), 3),
            "this game is a Bach'san replay without a Swift: the record needs a Removed tag "
            "naming it",
        ),
    ],
)
def test_a_record_under_other_rules_than_the_games_is_not_valid(expected, reason):
    v = services.verdict_compute(CAPTURE, (), expected)
    assert v["valid"] is False
    assert v["error"] == {"ply": None, "text": None, "reason": reason, "article": "9.1"}
    assert services.verdict_compute(CAPTURE, (), ("laws", frozenset(), 0))["valid"] is True


# Validating a stored submission


def test_validation_stores_the_verdict_and_the_first_colour(officials, game):
    sub = stored(game, user=officials.arbiter)
    assert Game.objects.get(pk=game.pk).first_colour_recorded == ""
    done = services.submission_validate(submission_id=sub.pk)
    assert (done.status, done.attempts, done.readable, done.valid, done.plies) == (
        "done",
        1,
        True,
        True,
        31,
    )
    assert (done.termination, done.winner, done.result_tag) == ("capture", "green", "green")
    assert done.validated_at is not None and done.error is None
    assert done.clock == {"decision": None, "loser": None, "article": None}
    assert RecordSubmission.objects.get(pk=sub.pk).valid is True
    assert Game.objects.get(pk=game.pk).first_colour_recorded == "green"


def test_validation_is_done_once(officials, game):
    sub = stored(game)
    first = services.submission_validate(submission_id=sub.pk)
    again = services.submission_validate(submission_id=sub.pk)
    assert (again.attempts, again.validated_at) == (1, first.validated_at)


def test_the_first_readable_record_tells_the_first_colour_for_good(officials, game):
    services.submission_validate(submission_id=stored(game, raw=b"\xff not text").pk)
    assert Game.objects.get(pk=game.pk).first_colour_recorded == ""
    services.submission_validate(submission_id=stored(game, raw=GOLD_FIRST).pk)
    assert Game.objects.get(pk=game.pk).first_colour_recorded == "gold"
    services.submission_validate(submission_id=stored(game, raw=CAPTURE).pk)
    assert Game.objects.get(pk=game.pk).first_colour_recorded == "gold"


def test_validation_judges_by_the_games_rules_and_clock_adjustments(officials, game):
    Game.objects.filter(pk=game.pk).update(bachsan_removed=3)
    sub = services.submission_validate(submission_id=stored(game).pk)
    assert sub.valid is False and sub.error["article"] == "9.1"
    Game.objects.filter(pk=game.pk).update(bachsan_removed=0)
    raw = clock_record({30: "0:00:00"})
    flagged = services.submission_validate(submission_id=stored(game, raw=raw).pk)
    assert flagged.clock == {"decision": "time", "loser": "gold", "article": "6.5"}
    ClockAdjustment.objects.create(game=game, side="gold", seconds=60, article="12.5", from_ply=29)
    saved = services.submission_validate(submission_id=stored(game, raw=raw).pk)
    assert saved.clock["decision"] is None


def test_an_unreadable_record_is_done_and_kept_as_it_came(officials, game):
    raw = b"\xff\xfe not a record \x00"
    sub = services.submission_validate(submission_id=stored(game, raw=raw).pk)
    assert (sub.status, sub.readable, sub.valid) == ("done", False, False)
    assert bytes(RecordSubmission.objects.get(pk=sub.pk).raw) == raw


# Corrections


def test_a_correction_is_a_new_version(officials, game, sent, django_capture_on_commit_callbacks):
    first = services.submission_validate(submission_id=stored(game).pk)
    with django_capture_on_commit_callbacks(execute=True):
        fix = services.record_correction_create(submission=first, raw=BAD, user=officials.arbiter)
    assert (fix.version, fix.source, fix.submitted_by, fix.status) == (
        2,
        "paste",
        officials.arbiter,
        "queued",
    )
    assert bytes(fix.raw) == BAD and fix.game == game
    assert sent == [("games.validate_record", (fix.pk,))]
    kept = RecordSubmission.objects.get(pk=first.pk)
    assert (kept.version, kept.status, kept.valid, bytes(kept.raw)) == (1, "done", True, CAPTURE)
    third = services.record_correction_create(submission=first, raw=CAPTURE, user=None)
    assert third.version == 3


def test_a_combatant_corrects_a_record_but_a_stranger_cannot(officials, game):
    first = stored(game)
    with pytest.raises(PermissionDenied):
        services.record_correction_create(submission=first, raw=CAPTURE, user=officials.stranger)
    game.first.user = officials.stranger
    game.first.save()
    fix = services.record_correction_create(submission=first, raw=CAPTURE, user=officials.stranger)
    assert fix.version == 2 and fix.submitted_by == officials.stranger


def test_a_record_of_no_game_has_no_versions(officials, game):
    loose = services.submission_create(
        game=None, raw=CAPTURE, tournament=game.round.tournament, enqueue=False
    )
    with pytest.raises(ValidationError) as e:
        services.record_correction_create(submission=loose, raw=CAPTURE, user=officials.arbiter)
    assert e.value.message_dict == {"submission": ["only a game's record has versions"]}
    assert RecordSubmission.objects.count() == 1
