"""Irregularities (Art. 7): a new battle, a battle restored to its last legal position, a
battle drawn when nothing can be restored; through the service, the API and the console."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from games import services
from games.models import Irregularity
from rules.record import read_record
from tests.games.conftest import BAD, CAPTURE, done
from tournaments import selectors
from tournaments.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def test_restore_cuts_the_record_before_the_illegal_ply(setup):
    game, arbiter = setup
    bad = done(services.submission_create(game=game, raw=BAD, user=arbiter))
    assert bad.error["ply"] == 21
    ruling = services.irregularity_declare(
        game=game, kind="restore", reason="illegal Fencer move seen at ply 21", user=arbiter
    )
    assert ruling.article == "7.3" and ruling.ply == 21 and ruling.from_submission == bad
    restored = done(ruling.new_submission)
    assert restored.version == bad.version + 1 and restored.source == "arbiter"
    assert restored.valid is True and restored.plies == 20 and not restored.termination
    record = read_record(restored.text)
    assert len(record.plies) == 20 and "Result" not in record.tags
    assert [p.text for p in record.plies] == [p.text for p in read_record(bad.text).plies[:20]]
    assert any("7.3" in c for c in record.preamble)
    bad.refresh_from_db()
    assert bytes(bad.raw) == BAD  # the old version is kept as it came


def test_restore_needs_an_illegal_ply_after_a_legal_one(setup):
    game, arbiter = setup
    with pytest.raises(ValidationError, match="no validated record"):
        services.irregularity_declare(game=game, kind="restore", reason="x", user=arbiter)
    done(services.submission_create(game=game, raw=CAPTURE, user=arbiter))
    with pytest.raises(ValidationError, match="no illegal ply"):
        services.irregularity_declare(game=game, kind="restore", reason="x", user=arbiter)
    assert not Irregularity.objects.exists()


def test_draw_when_nothing_can_be_restored_and_new_battle(setup):
    game, arbiter = setup
    tournament = game.round.tournament
    services.irregularity_declare(
        game=game, kind="draw", reason="both records lost after ply 30", user=arbiter
    )
    game.refresh_from_db()
    assert game.result == Game.Result.DRAW
    scores = {r.entrant.id: r.score for r in selectors.standings_compute(tournament=tournament)}
    assert scores[game.first_id] == -0.5 and scores[game.second_id] == -0.5
    services.irregularity_declare(
        game=game, kind="new_battle", reason="a Flier placed outside its region", user=arbiter
    )
    game.refresh_from_db()
    assert game.result == Game.Result.PENDING
    kinds = list(game.irregularities.values_list("kind", "article"))
    assert kinds == [("draw", "7.3"), ("new_battle", "7.1")]
    actions = list(tournament.audit.values_list("action", flat=True))
    assert actions.count("irregularity") == 2


def test_api_and_console(setup, client):
    game, arbiter = setup
    api = APIClient()
    api.force_authenticate(arbiter)
    resp = api.post(f"/api/games/{game.pk}/irregularities/", {"kind": "nonsense", "reason": "x"})
    assert resp.status_code == 400 and "kind" in resp.json()
    resp = api.post(f"/api/games/{game.pk}/irregularities/", {"kind": "draw", "reason": "lost"})
    assert resp.status_code == 201 and resp.json()["result"] == "draw"
    client.force_login(arbiter)
    t = game.round.tournament
    resp = client.post(
        f"/arbiter/t/{t.slug}/irregularities/",
        {"game": game.pk, "kind": "new_battle", "reason": "bad placement"},
        follow=True,
    )
    page = resp.content.decode()
    assert "7.1 Illegal placement" in page and "bad placement" in page
