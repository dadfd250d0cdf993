"""Issue 26 item 6: each audit trail entry reads as a sentence with names on the arbiter's
page, never raw Python data or internal ids; the API keeps the stored data unchanged."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Game, Player

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def trail():
    arbiter = User.objects.create_user("arb", password="pw-arbiter-1")
    t = services.tournament_create(
        name="Club Night", slug="club-night", start_date=date(2026, 11, 20), rounds_planned=3
    )
    t.chief_arbiter = arbiter
    t.save(update_fields=["chief_arbiter"])
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dax", "Eve"]):
        p = services.player_create(name=name, rating=1800 - 100 * i)
        services.registration_create(tournament=t, player=p, user=arbiter)
    services.bye_request_create(
        registration=t.registrations.get(player__name="Eve"), round_number=1, user=arbiter
    )
    rnd = services.round_pair(tournament=t, user=arbiter, publish=False)
    games = list(rnd.games.filter(kind=Game.Kind.GAME).order_by("board"))
    pairs = [(g.first_id, g.second_id) for g in games]
    services.round_pairings_edit(round=rnd, pairings=[(b, a) for a, b in pairs], user=arbiter)
    services.round_publish(round=rnd, user=arbiter)
    game = rnd.games.get(board=1)
    services.game_result_set(game=game, result=Game.Result.FIRST_WIN, user=arbiter)
    services.game_result_set(game=game, result="", user=arbiter)
    services.penalty_impose(
        tournament=t, player=game.first, kind="warning", reason="talking", user=arbiter, game=game
    )
    services.registration_withdraw(
        registration=t.registrations.get(player__name="Dax"), user=arbiter
    )
    services.tournament_update(tournament=t, user=arbiter, rounds_planned=4)
    return t, arbiter


def audit_page(client, t, arbiter) -> str:
    client.force_login(arbiter)
    resp = client.get(f"/arbiter/t/{t.slug}/audit/", HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 200
    return resp.content.decode()


def sentences(html: str) -> list[str]:
    return re.findall(r'<td class="audit-sentence">(.*?)</td>', html, re.S)


def test_every_entry_is_a_sentence_with_names_and_no_raw_data(client, trail):
    t, arbiter = trail
    html = audit_page(client, t, arbiter)
    rows = sentences(html)
    assert len(rows) == t.audit.count()
    for row in rows:
        assert "{" not in row and "[" not in row and "&#x27;" not in row, row
        assert "Registration " not in row and "Game " not in row and "Round " not in row, row
        assert row.startswith(("arb ", "the system")), row
    text = "\n".join(rows)
    names = set(Player.objects.values_list("name", flat=True))
    assert all(n in text for n in names)
    assert "arb requested a bye for Eve in round 1" in text
    assert "arb registered Ann from round 1" in text
    assert re.search(r"arb paired round 1: \w+ – \w+, \w+ – \w+; requested byes: Eve", text)
    assert re.search(r"arb edited the pairings of round 1: \w+ – \w+", text)
    assert "arb published round 1" in text
    assert "First placer wins (before: none yet)" in text
    assert "none yet (before: First placer wins)" in text
    assert "imposed a penalty on" in text and "talking" in text
    assert "arb withdrew Dax" in text
    assert "arb changed the settings:" in text and "3 → 4" in text


def test_the_api_and_the_trail_keep_the_stored_data(trail):
    t, arbiter = trail
    client = APIClient()
    client.force_authenticate(arbiter)
    body = client.get(f"/api/tournaments/{t.slug}/audit/?page_size=100").json()
    items = body["results"] if isinstance(body, dict) else body
    results = [e for e in items if e["action"] == "result"]
    assert any(e["after"] == {"result": ""} for e in results)
    paired = next(e for e in items if e["action"] == "round_paired")
    assert all(isinstance(x, int) for pair in paired["after"]["pairings"] for x in pair if x)
