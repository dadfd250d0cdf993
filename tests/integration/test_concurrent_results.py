"""Two arbiters entering the same result at once, on PostgreSQL: nothing lost, nothing twice."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from tournaments.demo import demo_load
from tournaments.models import Game, Tournament

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _post_together(game_id: int, payloads: list[dict[str, str]], users: list) -> list[int]:
    barrier = threading.Barrier(len(payloads))
    codes: list[int] = [0] * len(payloads)

    def worker(i: int) -> None:
        api = APIClient()
        api.force_authenticate(users[i])
        barrier.wait()
        try:
            codes[i] = api.post(
                f"/api/games/{game_id}/result/", payloads[i], format="json"
            ).status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(payloads))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return codes


def test_same_result_entered_twice_at_once():
    tournament, login, _, _ = demo_load(rounds_played=0)
    from tournaments import services

    ids = list(tournament.registrations.values_list("player_id", flat=True))
    rnd = services.round_create(tournament=tournament, pairings=[(ids[0], ids[1])])
    game = rnd.games.get()
    User = get_user_model()
    first = User.objects.get(username=login)
    second = User.objects.create_user("arbiter2", password="pw-second-arbiter")
    tournament.arbiters.add(second)
    version = Tournament.objects.get(pk=tournament.pk).published_version
    codes = _post_together(game.pk, [{"result": "draw"}, {"result": "draw"}], [first, second])
    assert codes == [200, 200]
    game.refresh_from_db()
    assert game.result == Game.Result.DRAW
    # the second entry found the result already there: one change, one version bump
    assert Tournament.objects.get(pk=tournament.pk).published_version == version + 1
    assert Game.objects.filter(round=rnd).count() == 1


def test_different_results_at_once_keep_one_whole():
    tournament, login, _, _ = demo_load(rounds_played=0)
    from tournaments import services

    ids = list(tournament.registrations.values_list("player_id", flat=True))
    rnd = services.round_create(tournament=tournament, pairings=[(ids[0], ids[1])])
    game = rnd.games.get()
    user = get_user_model().objects.get(username=login)
    codes = _post_together(
        game.pk, [{"result": "first_win"}, {"result": "second_win"}], [user, user]
    )
    assert codes == [200, 200]
    game.refresh_from_db()
    assert game.result in ("first_win", "second_win")
    assert game.result_entered_at is not None
