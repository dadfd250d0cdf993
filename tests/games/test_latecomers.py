"""Latecomers (Art. 6.8, 6.9): arrival times become clock charges and the latest record is
adjudicated again with them."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from games import services
from games.models import RecordSubmission
from rules.record import write_record
from tests.rules.test_clock import record

pytestmark = pytest.mark.django_db(transaction=True)
START = timezone.make_aware(datetime(2026, 11, 22, 10, 0, 0))


def done(sub):
    """Unlike the shared `done`, wait for every version of the game's record (a clock
    adjustment queues the latest again) and return the latest."""
    from tests.workers import wait_for

    assert wait_for(
        lambda: (
            RecordSubmission.objects.filter(game=sub.game, status="done").count()
            == RecordSubmission.objects.filter(game=sub.game).count()
        ),
        60,
    )
    return RecordSubmission.objects.filter(game=sub.game).order_by("-version").first()


def test_a_late_green_is_not_charged_twice_and_the_record_is_adjudicated_again(setup):
    game, arbiter = setup
    raw = write_record(record("20/1800:1200", {25: "0:02:00"})).encode()
    sub = done(services.submission_create(game=game, raw=raw, user=arbiter))
    assert sub.clock["decision"] is None
    made = services.latecomers_record(
        game=game,
        scheduled=START,
        green_arrival=START + timedelta(minutes=3),
        gold_arrival=None,
        user=arbiter,
    )
    assert [(a.side, a.seconds, a.article, a.from_ply) for a in made] == [("green", -180, "6.8", 1)]
    # Art. 6.8: green's clock ran while green was away: its 2 minutes left are 2 minutes
    assert made[0].in_readings
    sub = done(sub)
    assert sub.clock["decision"] is None
    with pytest.raises(ValidationError, match="already recorded"):
        services.latecomers_record(
            game=game, scheduled=START, green_arrival=START, gold_arrival=None, user=arbiter
        )


def test_both_late_and_errors(setup, client):
    game, arbiter = setup
    with pytest.raises(ValidationError, match="nobody arrived"):
        services.latecomers_record(
            game=game, scheduled=START, green_arrival=START, gold_arrival=None, user=arbiter
        )
    stranger = get_user_model().objects.create_user("s", password="pw-stranger-1")
    with pytest.raises(PermissionDenied):
        services.latecomers_record(
            game=game,
            scheduled=START,
            green_arrival=START + timedelta(minutes=1),
            gold_arrival=None,
            user=stranger,
        )
    assert not game.clock_adjustments.exists()
    client.force_login(arbiter)
    resp = client.post(
        f"/g/{game.pk}/latecomers/",
        {"scheduled": "2026-11-22T10:00", "green_arrival": "soon", "gold_arrival": ""},
    )
    assert resp.status_code == 400 and b"green_arrival" in resp.content
    resp = client.post(
        f"/g/{game.pk}/latecomers/",
        {
            "scheduled": "2026-11-22T10:00",
            "green_arrival": "2026-11-22T10:02:00",
            "gold_arrival": "2026-11-22T10:07:30",
        },
    )
    assert resp.status_code == 302
    charges = sorted(game.clock_adjustments.values_list("side", "seconds", "article"))
    # 6.9: green's clock (the first placer's) ran until green came; gold's is adjusted by
    # those 2 minutes, its own clock ran the rest (6.8)
    assert charges == [("gold", -330, "6.8"), ("gold", -120, "6.9"), ("green", -120, "6.9")]
