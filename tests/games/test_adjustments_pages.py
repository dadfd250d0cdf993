"""Clock adjustments in time on the game's page: a ply or a moment is required, latecomers'
charges their own clock ran are shown as such, and an adjustment is revoked with a reason."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.utils import timezone

from tests.tournaments.services.factories import Officials, event_make, officials_make, round_make
from tournaments.models import Game, Round

pytestmark = pytest.mark.django_db
START = timezone.make_aware(datetime(2026, 11, 22, 10, 0, 0))


@pytest.fixture
def officials() -> Officials:
    return officials_make()


@pytest.fixture
def game(officials: Officials) -> Game:
    t, (a, b, c, d) = event_make(officials, time_control="20/1800:1200")
    return round_make(t, [(a, b), (c, d)]).games.get(board=1)


def test_the_page_asks_from_when_and_revokes(officials, game, client):
    client.force_login(officials.arbiter)
    url = f"/g/{game.pk}/clock/"
    body = {"side": "gold", "seconds": "-30", "article": "6.12", "reason": "set wrong"}
    resp = client.post(url, body)
    assert resp.status_code == 400 and b"from which ply" in resp.content
    assert client.post(url, {**body, "at": "2026-11-22T10:30"}).status_code == 400  # no start
    Round.objects.filter(pk=game.round_id).update(starts_at=START)
    assert client.post(url, {**body, "at": "2026-11-22T10:30"}).status_code == 302
    assert client.post(url, {**body, "from_ply": "12"}).status_code == 302
    moment, ply = game.clock_adjustments.order_by("id")
    # no record yet: where the readings cannot place the moment, from ply 1
    assert (moment.at is not None, moment.from_ply) == (True, 1)
    assert (ply.from_ply, ply.at) == (12, None)
    late = {"scheduled": "2026-11-22T10:00", "green_arrival": "2026-11-22T10:04"}
    assert client.post(f"/g/{game.pk}/latecomers/", late).status_code == 302
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "already in the readings" in page
    revoke = f"/g/{game.pk}/clock/{ply.pk}/revoke/"
    assert client.post(revoke, {"reason": ""}).status_code == 400
    assert client.post(revoke, {"reason": "the wrong clock"}).status_code == 302
    assert client.post(revoke, {"reason": "again"}).status_code == 409
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "revoked: the wrong clock" in page
    client.force_login(officials.stranger)
    assert (
        client.post(f"/g/{game.pk}/clock/{moment.pk}/revoke/", {"reason": "x"}).status_code == 403
    )


def test_the_penalty_form_takes_the_ply_a_penalty_of_time_acts_from(officials, game, client):
    client.force_login(officials.arbiter)
    t = game.round.tournament
    body = {
        "player": game.second_id,
        "game": game.pk,
        "kind": "offender_time",
        "amount": "10",
        "reason": "noise after ply 25",
        "from_ply": "26",
    }
    assert client.post(f"/arbiter/t/{t.slug}/penalties/", body).status_code == 302
    (adj,) = game.clock_adjustments.all()
    assert (adj.side, adj.seconds, adj.from_ply, adj.at) == ("gold", -10, 26, None)
    page = client.get(f"/arbiter/t/{t.slug}/round/1/").content.decode()
    assert 'name="from_ply"' in page


def test_everyone_sees_the_adjustments_only_arbiters_revoke_them(officials, game, client):
    client.force_login(officials.arbiter)
    body = {"side": "gold", "seconds": "-30", "article": "6.12", "reason": "set wrong"}
    assert client.post(f"/g/{game.pk}/clock/", {**body, "from_ply": "12"}).status_code == 302
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert 'id="clock-adjustments"' in page and "set wrong" in page
    assert "/revoke/" in page
    client.logout()
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert 'id="clock-adjustments"' in page and "set wrong" in page and "from ply 12" in page
    assert "/revoke/" not in page
