"""A validated record changes what the published pages show (the game's first colour, in
the rounds API): the version is bumped and no cached page is stale."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from games import services
from klinzha_site.page_cache import page_cache_local_clear
from tests.games.conftest import CAPTURE
from tournaments.models import Game, Tournament

pytestmark = pytest.mark.django_db


def test_a_validated_record_shows_in_the_rounds_api_at_once(officials, game):
    t = game.round.tournament
    path = f"/api/tournaments/{t.slug}/rounds/"
    client = Client()
    before = client.get(path).content
    assert b'"first_color":""' in before and client.get(path).content == before
    version = Tournament.objects.get(pk=t.pk).published_version
    sub = services.submission_create(game=game, raw=CAPTURE, user=officials.arbiter, enqueue=False)
    services.submission_validate(submission_id=sub.pk)
    assert Game.objects.get(pk=game.pk).first_colour_recorded == "green"
    assert Tournament.objects.get(pk=t.pk).published_version > version
    served = client.get(path).content
    assert b'"first_color":"green"' in served
    cache.clear()
    page_cache_local_clear()
    assert client.get(path).content == served
    # A second record tells nothing new: the version stays.
    version = Tournament.objects.get(pk=t.pk).published_version
    again = services.submission_create(
        game=game, raw=CAPTURE, user=officials.arbiter, enqueue=False
    )
    services.submission_validate(submission_id=again.pk)
    assert Tournament.objects.get(pk=t.pk).published_version == version
