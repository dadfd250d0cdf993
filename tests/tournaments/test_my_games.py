"""The player's side (issue 15): "my games" with the next pairing, records to submit and to
sign, penalties, only the user's own; the game page shows players no arbiter's control;
refusals come inside the site's layout with a way back."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings

from games.models import RecordSignature, RecordSubmission
from tournaments import services
from tournaments.models import Game

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def event():
    t = services.tournament_create(
        name="Club Night", slug="club-night", start_date=date(2026, 11, 20)
    )
    arbiter = User.objects.create_user("arb")
    t.arbiters.add(arbiter)
    players = []
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        p = services.player_create(name=name, rating=2000 - i)
        services.registration_create(tournament=t, player=p)
        players.append(p)
    for p in players[:2]:
        p.user = User.objects.create_user(p.name.lower())
        p.save(update_fields=["user"])
    ids = [p.pk for p in players]
    r1 = services.round_create(tournament=t, pairings=[(ids[0], ids[1]), (ids[2], ids[3])])
    return t, players, arbiter, r1


def page(client, user) -> str:
    client.force_login(user)
    resp = client.get("/me/games/")
    assert resp.status_code == 200
    return resp.content.decode()


def section(html: str, name: str) -> str:
    start = html.index(f'<section id="{name}">')
    return html[start : html.index("</section>", start)]


def test_next_pairing_and_a_record_to_submit(client, event):
    t, players, _, r1 = event
    game = r1.games.get(board=1)
    html = page(client, players[0].user)
    nxt = section(html, "next-pairing")
    assert f'href="/g/{game.pk}/"' in nxt and "round 1, board 1" in nxt
    assert "you place first against" in nxt and f'href="/p/{players[1].pk}/">Bob' in nxt
    assert f'href="/g/{game.pk}/"' in section(html, "to-submit")
    assert "None." in section(html, "to-sign")
    assert "you place second against" in section(page(client, players[1].user), "next-pairing")


def test_a_record_to_sign_until_this_player_signed_it(client, event):
    t, players, _, r1 = event
    game = r1.games.get(board=1)
    sub = RecordSubmission.objects.create(
        game=game, raw=b'[Event "x"]\n\n', status=RecordSubmission.Status.DONE, valid=True
    )
    html = page(client, players[0].user)
    assert "None." in section(html, "to-submit")
    assert "record v1" in section(html, "to-sign")
    RecordSignature.objects.create(
        submission=sub, role="first", signer=players[0].user, public_key="k", signature="s"
    )
    assert "None." in section(page(client, players[0].user), "to-sign")
    assert "record v1" in section(page(client, players[1].user), "to-sign")  # Bob has not


def test_a_result_moves_the_next_pairing_on(client, event):
    t, players, arbiter, r1 = event
    services.game_result_set(game=r1.games.get(board=1), result=Game.Result.DRAW, user=arbiter)
    html = page(client, players[0].user)
    assert "No game waits to be played." in section(html, "next-pairing")
    assert "drew" in section(html, "all-games")


def test_a_proposed_round_is_not_shown(client, event):
    t, players, arbiter, r1 = event
    for g in r1.games.all():
        services.game_result_set(game=g, result=Game.Result.DRAW, user=arbiter)
    ids = [p.pk for p in players]
    r2 = services.round_create(
        tournament=t, pairings=[(ids[0], ids[2]), (ids[1], ids[3])], status="draft"
    )
    html = page(client, players[0].user)
    assert f'href="/g/{r2.games.get(board=1).pk}/"' not in html
    assert "No game waits to be played." in section(html, "next-pairing")


def test_only_ones_own_penalties_and_games(client, event):
    t, players, arbiter, _ = event
    services.penalty_impose(
        tournament=t, player=players[0], kind="warning", reason="talking", user=arbiter
    )
    services.penalty_impose(
        tournament=t, player=players[1], kind="warning", reason="phone rang", user=arbiter
    )
    ann = page(client, players[0].user)
    assert "talking" in section(ann, "penalties") and "phone rang" not in ann
    bob = page(client, players[1].user)
    assert "phone rang" in section(bob, "penalties") and "talking" not in bob
    assert "Cid" not in bob and "Dee" not in bob  # the other board's


def test_an_account_with_no_player_and_a_visitor(client, event):
    html = page(client, User.objects.create_user("nobody"))
    assert 'id="no-player"' in html
    client.logout()
    resp = client.get("/me/games/")
    assert resp.status_code == 302 and "/accounts/login/" in resp["Location"]


def test_the_header_links_my_games(client, event):
    _, players, _, _ = event
    assert 'href="/me/games/">My games</a>' in page(client, players[0].user)
    client.logout()
    assert "My games" not in client.get("/").content.decode()


ARBITER_CONTROLS = ["games:confirm", "/confirm/", "/clock/", 'id="latecomers"']


def test_the_game_page_shows_players_only_their_controls(client, event):
    t, players, arbiter, r1 = event
    game = r1.games.get(board=1)
    RecordSubmission.objects.create(
        game=game, raw=b'[Event "x"]\n\n', status=RecordSubmission.Status.DONE, valid=True
    )
    client.force_login(players[0].user)
    html = client.get(f"/g/{game.pk}/").content.decode()
    assert f'action="/g/{game.pk}/confirm/"' not in html
    assert f'action="/g/{game.pk}/clock/"' not in html and 'id="latecomers"' not in html
    assert f'action="/g/{game.pk}/submit/"' in html and 'id="sign"' in html
    # A player of the other board, and an account with no player: no control at all.
    other = User.objects.create_user("cid")
    players[2].user = other
    players[2].save(update_fields=["user"])
    for user in (other, User.objects.create_user("stranger")):
        client.force_login(user)
        html = client.get(f"/g/{game.pk}/").content.decode()
        assert "/submit/" not in html and 'id="sign"' not in html and "/confirm/" not in html
    client.force_login(arbiter)
    html = client.get(f"/g/{game.pk}/").content.decode()
    assert f'action="/g/{game.pk}/confirm/"' in html and 'id="latecomers"' in html
    assert f'action="/g/{game.pk}/submit/"' in html and 'id="sign"' in html


def test_a_bye_shows_no_control_to_a_player_without_an_account_link(client, event):
    t, players, _, _ = event
    ids = [p.pk for p in players]
    for g in t.rounds.get(number=1).games.all():
        services.game_result_set(game=g, result=Game.Result.DRAW)
    r2 = services.round_create(tournament=t, pairings=[(ids[0], ids[1]), (ids[2], None)])
    bye = r2.games.get(second__isnull=True)
    client.force_login(User.objects.create_user("stranger"))
    html = client.get(f"/g/{bye.pk}/").content.decode()
    assert "/submit/" not in html


def in_layout(resp) -> str:
    html = resp.content.decode()
    assert "<header>" in html and 'class="brand"' in html, html[:300]
    assert 'id="back" href="/"' in html or 'href="/" id="back"' in html
    return html


def test_a_403_is_in_the_layout_with_a_way_back(client, event):
    _, players, _, _ = event
    client.force_login(players[0].user)
    resp = client.get("/arbiter/t/club-night/")
    assert resp.status_code == 403
    in_layout(resp)


def test_a_404_is_in_the_layout_with_a_way_back(client, event):
    resp = client.get("/t/no-such-event/")
    assert resp.status_code == 404
    assert "Not found" in in_layout(resp)


@override_settings(ALLOWED_HOSTS=["testserver"])
def test_a_400_is_in_the_layout_with_a_way_back():
    client = Client(raise_request_exception=False)
    resp = client.get("/", HTTP_HOST="evil.example")  # DisallowedHost: Django's 400
    assert resp.status_code == 400
    assert "Bad request" in in_layout(resp)


def test_a_refused_game_form_is_a_page_with_a_way_back(client, event):
    """The game page's forms answer a refusal inside the layout, saying why, with a link
    back to the game (they were bare text)."""
    _, players, arbiter, r1 = event
    game = r1.games.get(board=1)
    client.force_login(players[0].user)
    resp = client.post(f"/g/{game.pk}/confirm/", {"result": "draw"})
    assert resp.status_code == 403
    html = resp.content.decode()
    assert "<header>" in html and f'href="/g/{game.pk}/" id="back"' in html
    assert "arbiters" in html  # why
    resp = client.post(f"/g/{game.pk}/submit/", {"text": "   "})
    assert resp.status_code == 400 and "empty record" in resp.content.decode()
    client.force_login(arbiter)
    resp = client.post(f"/g/{game.pk}/clock/", {"side": "green", "seconds": "x"})
    assert resp.status_code == 400 and "seconds" in resp.content.decode()
    assert f'href="/g/{game.pk}/" id="back"' in resp.content.decode()


def test_a_form_without_its_csrf_token_is_refused_in_the_layout(event):
    client = Client(enforce_csrf_checks=True)
    resp = client.post("/accounts/login/", {"username": "ann", "password": "x"})
    assert resp.status_code == 403
    assert "The form expired" in in_layout(resp)
