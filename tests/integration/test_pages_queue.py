"""The published pages rendered ahead go to a queue of their own, with an expiry: on the real
broker (Redis), a result entered queues the render on "pages", never behind the record
validations of the "celery" queue, and a worker drops it unrun once it is too old."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime

import pytest
import redis
from django.conf import settings
from django.test import override_settings

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import Game

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _queued(name: str) -> list[dict]:
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    return [json.loads(raw) for raw in broker.lrange(name, 0, -1)]


@override_settings(KZ_PAGE_PRERENDER=True, KZ_PAGE_PRERENDER_EXPIRES=30.0)
def test_a_result_queues_its_pages_render_on_the_pages_queue_with_an_expiry():
    officials = officials_make()
    t, (a, b) = event_make(officials, slug="pages-queue", names=("Ann", "Bob"))
    r1 = round_make(t, [(a, b)])
    before, pages_before = len(_queued("celery")), len(_queued("pages"))
    services.game_result_set(game=r1.games.get(), result=Game.Result.FIRST_WIN)
    pages = _queued("pages")
    assert len(pages) == pages_before + 1 and len(_queued("celery")) == before
    message = pages[0]  # the newest first (LPUSH)
    assert message["headers"]["task"] == "tournaments.published_pages_render"
    args = json.loads(base64.b64decode(message["body"]))[0]
    assert args == [t.pk]
    expires = datetime.fromisoformat(message["headers"]["expires"])
    assert 0 < (expires - datetime.now(UTC)).total_seconds() <= 30
