"""The arbiter's clock adjustments, called directly: one adjustment (and the latest record
judged again with it), a penalty's clock effect on the right side with the right sign, and
latecomers charged from their arrival times (Art. 6.8, 6.9)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from games import services
from games.models import ClockAdjustment, RecordSubmission
from tests.games.services.conftest import clock_record
from tournaments.models import Game, Penalty

START = timezone.make_aware(datetime(2026, 11, 22, 10, 0, 0))


def log(game: Game) -> list[tuple[str, int, str, int]]:
    return list(
        ClockAdjustment.objects.filter(game=game)
        .order_by("id")
        .values_list("side", "seconds", "article", "from_ply")
    )


def validated(game: Game, raw: bytes) -> RecordSubmission:
    sub = services.submission_create(game=game, raw=raw, enqueue=False)
    return services.submission_validate(submission_id=sub.pk)


# clock_adjustment_add


def test_an_adjustment_is_recorded(officials, game):
    adj = services.clock_adjustment_add(
        game=game,
        side="gold",
        seconds=-45,
        article="6.12",
        from_ply=12,
        reason="clock set wrong",
        user=officials.arbiter,
    )
    assert log(game) == [("gold", -45, "6.12", 12)]
    assert (adj.reason, adj.created_by) == ("clock set wrong", officials.arbiter)


def test_the_latest_record_is_judged_again_with_it(
    officials, game, sent, django_capture_on_commit_callbacks
):
    validated(game, clock_record({30: "0:00:00"}))
    latest = validated(game, clock_record({30: "0:00:00"}))
    assert latest.clock["decision"] == "time" and latest.clock["loser"] == "gold"
    with django_capture_on_commit_callbacks(execute=True):
        services.clock_adjustment_add(
            game=game, side="gold", seconds=60, article="12.5", from_ply=29, user=officials.arbiter
        )
    assert sent == [("games.validate_record", (latest.pk,))]  # the latest version only
    assert RecordSubmission.objects.get(pk=latest.pk).status == "queued"
    again = services.submission_validate(submission_id=latest.pk)
    # attempts count the validations since it was last sent back to the queue
    assert again.clock["decision"] is None and again.attempts == 1
    assert again.generation == latest.generation + 2  # sent back, then claimed


def test_an_adjustment_needs_a_side_and_an_arbiter(officials, game):
    with pytest.raises(ValidationError) as e:
        services.clock_adjustment_add(
            game=game, side="white", seconds=60, article="6.12", user=officials.arbiter
        )
    assert e.value.message_dict == {"side": ["green or gold"]}
    with pytest.raises(PermissionDenied):
        services.clock_adjustment_add(
            game=game, side="green", seconds=60, article="6.12", user=officials.stranger
        )
    assert log(game) == []


# penalty_clock_effect_apply


@pytest.mark.parametrize(
    ("kind", "offender", "first_color", "side", "seconds"),
    [
        ("opponent_time", "first", "", "gold", 75),
        ("offender_time", "first", "", "green", -75),
        ("offender_time", "second", "", "gold", -75),
        ("extra_time", "second", "", "gold", 75),
        ("opponent_time", "second", "gold", "gold", 75),
        ("offender_time", "first", "gold", "gold", -75),
    ],
)
def test_a_penalty_falls_on_its_side(officials, game, kind, offender, first_color, side, seconds):
    Game.objects.filter(pk=game.pk).update(first_colour_recorded=first_color)
    game.refresh_from_db()
    article = {"opponent_time": "12.4b", "offender_time": "12.4c", "extra_time": "12.5"}[kind]
    penalty = Penalty.objects.create(
        tournament=game.round.tournament,
        player=game.first if offender == "first" else game.second,
        game=game,
        kind=kind,
        article=article,
        reason="because",
        amount=75,
    )
    adj = services.penalty_clock_effect_apply(penalty=penalty, sign=1, user=officials.arbiter)
    assert (adj.side, adj.seconds, adj.article, adj.reason) == (side, seconds, article, "because")
    back = services.penalty_clock_effect_apply(penalty=penalty, sign=-1, user=officials.arbiter)
    assert (back.side, back.seconds) == (side, -seconds)


def test_a_penalty_without_a_clock_effect_is_refused(officials, game):
    penalty = Penalty(
        tournament=game.round.tournament, player=game.first, game=game, kind="battle_lost"
    )
    with pytest.raises(ValueError, match="does not change a clock"):
        services.penalty_clock_effect_apply(penalty=penalty, sign=1, user=officials.arbiter)
    assert log(game) == []


# latecomers_record


def test_a_latecomer_loses_the_time_they_missed(officials, game):
    made = services.latecomers_record(
        game=game,
        scheduled=START,
        green_arrival=START + timedelta(minutes=3, seconds=20),
        gold_arrival=START - timedelta(minutes=5),  # early is on time
        user=officials.arbiter,
    )
    assert [(a.side, a.seconds, a.article, a.from_ply) for a in made] == [("green", -200, "6.8", 1)]
    # Art. 6.8: green's own clock ran meanwhile, so the readings hold the charge already
    assert made[0].in_readings
    assert made[0].reason == (
        "green arrived 3 min 20 s after the scheduled start: 200 s its own clock ran"
    )
    assert log(game) == [("green", -200, "6.8", 1)]


def test_both_latecomers_are_charged_under_6_9(officials, game):
    made = services.latecomers_record(
        game=game,
        scheduled=START,
        green_arrival=START + timedelta(minutes=2),
        gold_arrival=START + timedelta(minutes=7, seconds=30),
        user=officials.arbiter,
    )
    # the clock ran for the first placer (green) until green came; gold's is adjusted by
    # those 2 minutes, and gold's own clock ran for the 5 1/2 more (6.8)
    assert [(a.side, a.seconds, a.article, a.in_readings) for a in made] == [
        ("green", -120, "6.9", True),
        ("gold", -120, "6.9", False),
        ("gold", -330, "6.8", True),
    ]


def test_latecomers_are_recorded_once(officials, game):
    late = START + timedelta(minutes=1)
    services.latecomers_record(
        game=game, scheduled=START, green_arrival=None, gold_arrival=late, user=officials.arbiter
    )
    with pytest.raises(ValidationError) as e:
        services.latecomers_record(
            game=game,
            scheduled=START,
            green_arrival=late,
            gold_arrival=None,
            user=officials.arbiter,
        )
    assert e.value.message_dict == {"arrival": ["latecomers are already recorded for this game"]}
    assert log(game) == [("gold", -60, "6.8", 1)]


def test_nobody_late_is_refused_and_so_is_a_stranger(officials, game):
    with pytest.raises(ValidationError) as e:
        services.latecomers_record(
            game=game,
            scheduled=START,
            green_arrival=START,
            gold_arrival=None,
            user=officials.arbiter,
        )
    assert e.value.message_dict == {"arrival": ["nobody arrived after the scheduled start"]}
    with pytest.raises(PermissionDenied):
        services.latecomers_record(
            game=game,
            scheduled=START,
            green_arrival=START + timedelta(minutes=1),
            gold_arrival=None,
            user=officials.stranger,
        )
    assert log(game) == []


def test_latecomers_have_the_latest_record_judged_again(
    officials, game, sent, django_capture_on_commit_callbacks
):
    sub = validated(game, clock_record({25: "0:02:00"}))
    assert sub.clock["decision"] is None
    with django_capture_on_commit_callbacks(execute=True):
        services.latecomers_record(
            game=game,
            scheduled=START,
            green_arrival=START + timedelta(minutes=3),
            gold_arrival=None,
            user=officials.arbiter,
        )
    assert sent == [("games.validate_record", (sub.pk,))]
    again = services.submission_validate(submission_id=sub.pk)
    # green's 2 minutes left are what its running clock showed: not charged twice
    assert again.clock["decision"] is None
