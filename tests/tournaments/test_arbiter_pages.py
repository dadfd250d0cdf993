"""The arbiter's pages: creating an event, entrants, pairing review, the console."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tournaments import selectors, services
from tournaments.models import Game, Player, Round, Tournament

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def organizer():
    user = User.objects.create_user("org", password="pw-organizer-1")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.fixture
def event(organizer):
    t = services.tournament_create(
        name="Club Night", slug="club-night", start_date=date(2026, 11, 20), organizer=organizer
    )
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dax", "Eve"]):
        p = services.player_create(name=name, rating=1800 - 100 * i, user=organizer)
        services.registration_create(tournament=t, player=p)
    return t


def test_anonymous_goes_to_login_and_strangers_get_403(client, event):
    resp = client.get(f"/arbiter/t/{event.slug}/")
    assert resp.status_code == 302 and "/accounts/login/" in resp["Location"]
    client.force_login(User.objects.create_user("x", password="pw-x-12345"))
    assert client.get(f"/arbiter/t/{event.slug}/").status_code == 403
    assert client.get("/arbiter/new/").status_code == 403


def test_organizer_creates_a_tournament_with_the_form(client, organizer):
    client.force_login(organizer)
    resp = client.post(
        "/arbiter/new/",
        {
            "slug": "autumn",
            "name": "Autumn Open",
            "start_date": "2026-11-28",
            "ruleset": "laws",
            "pairing_system": "swiss",
            "rounds_planned": 5,
            "forfeit_win_points": "1",
            "forfeit_loss_points": "0",
            "bye_points": "1",
            "requested_bye_points": "0",
            "tiebreaks": "buchholz,wins",
            "placement_order": "balanced",
            "accelerated_rounds": 0,
        },
    )
    assert resp.status_code == 302, resp.content.decode()[:2000]
    t = Tournament.objects.get(slug="autumn")
    assert t.organizer == organizer and t.rounds_planned == 5
    # A bad tie-break is refused with the field named, and nothing is created.
    resp = client.post("/arbiter/new/", {"slug": "bad", "name": "Bad", "start_date": "x"})
    assert resp.status_code == 400 and "start_date" in resp.content.decode()
    assert not Tournament.objects.filter(slug="bad").exists()


def test_pairing_is_proposed_edited_with_warnings_then_published(client, organizer, event):
    client.force_login(organizer)
    page = client.get(f"/arbiter/t/{event.slug}/").content.decode()
    assert "Pair round 1" in page
    resp = client.post(f"/arbiter/t/{event.slug}/pair/")
    assert resp.status_code == 302
    rnd = event.rounds.get(number=1)
    assert rnd.status == Round.Status.DRAFT
    # Proposed pairings are not public yet.
    assert client.get(f"/t/{event.slug}/round/1/").status_code == 404
    page = client.get(f"/arbiter/t/{event.slug}/round/1/").content.decode()
    assert "Proposed pairings" in page and "bye" in page.lower()
    # Hand edit: the bye goes to the top-rated player. In round 1 everyone is on 0 points,
    # so the top player is in the lowest score group too and no rule is broken.
    ids = [p.pk for p in Player.objects.order_by("-rating")]
    data = {
        "board-1-first": ids[1],
        "board-1-second": ids[2],
        "board-2-first": ids[3],
        "board-2-second": ids[4],
        "board-3-first": ids[0],
        "board-3-second": "",
    }
    resp = client.post(f"/arbiter/t/{event.slug}/round/1/edit/", data, follow=True)
    assert "no rule is broken" in resp.content.decode()
    # Pairing a player twice (which leaves another out) is refused and changes nothing.
    bad = dict(data, **{"board-3-first": ids[1]})
    resp = client.post(f"/arbiter/t/{event.slug}/round/1/edit/", bad, follow=True)
    assert "paired twice" in resp.content.decode()
    assert rnd.games.get(board=3).first_id == ids[0]
    client.post(f"/arbiter/t/{event.slug}/round/1/publish/")
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
    assert client.get(f"/t/{event.slug}/round/1/").status_code == 200
    # Round 2: a hand-made rematch is saved but warned about.
    for g in rnd.games.filter(kind=Game.Kind.GAME):
        client.post(f"/arbiter/t/{event.slug}/game/{g.pk}/result/", {"result": "first_win"})
    client.post(f"/arbiter/t/{event.slug}/pair/")
    rematch = {
        "board-1-first": ids[1],
        "board-1-second": ids[2],
        "board-2-first": ids[3],
        "board-2-second": ids[0],
        "board-3-first": ids[4],
        "board-3-second": "",
    }
    resp = client.post(f"/arbiter/t/{event.slug}/round/2/edit/", rematch, follow=True)
    body = resp.content.decode()
    assert "have met already" in body and "pairings saved with warnings" in body
    assert event.rounds.get(number=2).warnings


def test_console_enters_results_and_standings_follow(client, organizer, event):
    client.force_login(organizer)
    services.round_pair(tournament=event, user=organizer)
    game = Game.objects.filter(round__tournament=event, kind=Game.Kind.GAME).first()
    page = client.get(f"/arbiter/t/{event.slug}/round/1/").content.decode()
    assert f'id="game-{game.board}"' in page and "data-live-poll" in page
    resp = client.post(
        f"/arbiter/t/{event.slug}/game/{game.pk}/result/",
        {"result": "second_win"},
        HTTP_HX_REQUEST="true",
    )
    assert resp.status_code == 200 and "Second placer wins" in resp.content.decode()
    scores = {r.entrant.id: r.score for r in selectors.standings_compute(tournament=event)}
    assert scores[game.second_id] == 1 and scores[game.first_id] == 0
    # An unknown result is a message, not a 500, and changes nothing.
    resp = client.post(
        f"/arbiter/t/{event.slug}/game/{game.pk}/result/", {"result": "nonsense"}, follow=True
    )
    assert resp.status_code == 200 and "choose a result" in resp.content.decode()
    game.refresh_from_db()
    assert game.result == "second_win"


def test_two_person_confirmation(client, organizer, event):
    second = User.objects.create_user("arb2", password="pw-arb2-123")
    event.arbiters.add(second)
    services.tournament_update(tournament=event, user=organizer, result_confirmation=True)
    services.round_pair(tournament=event, user=organizer)
    game = Game.objects.filter(round__tournament=event, kind=Game.Kind.GAME).first()
    client.force_login(organizer)
    client.post(f"/arbiter/t/{event.slug}/game/{game.pk}/result/", {"result": "first_win"})
    scores = {r.entrant.id: r.score for r in selectors.standings_compute(tournament=event)}
    assert scores[game.first_id] == 0  # not counted until confirmed
    resp = client.post(f"/arbiter/t/{event.slug}/game/{game.pk}/countersign/", follow=True)
    assert "second person" in resp.content.decode()
    game.refresh_from_db()
    assert game.result_confirmed_at is None
    client.force_login(second)
    page = client.get(f"/arbiter/t/{event.slug}/round/1/").content.decode()
    assert "awaits confirmation" in page
    client.post(f"/arbiter/t/{event.slug}/game/{game.pk}/countersign/")
    game.refresh_from_db()
    assert game.result_confirmed_by == second
    scores = {r.entrant.id: r.score for r in selectors.standings_compute(tournament=event)}
    assert scores[game.first_id] == 1
    # A correction waits for a new confirmation.
    client.post(f"/arbiter/t/{event.slug}/game/{game.pk}/result/", {"result": "draw"})
    scores = {r.entrant.id: r.score for r in selectors.standings_compute(tournament=event)}
    assert scores[game.first_id] == 0


def test_settings_lock_in_the_form_and_officials(client, organizer, event):
    client.force_login(organizer)
    chief = User.objects.create_user("chief", password="pw-chief-12")
    resp = client.post(
        f"/arbiter/t/{event.slug}/officials/", {"chief_arbiter": "chief", "arbiters": ""}
    )
    assert resp.status_code == 302
    event.refresh_from_db()
    assert event.chief_arbiter == chief
    resp = client.post(
        f"/arbiter/t/{event.slug}/officials/", {"chief_arbiter": "nobody", "arbiters": ""}
    )
    event.refresh_from_db()
    assert event.chief_arbiter == chief
    services.round_pair(tournament=event, user=organizer)
    page = client.get(f"/arbiter/t/{event.slug}/").content.decode()
    assert "locked: round 1 has been paired" in page
    client.force_login(chief)
    assert client.post(f"/arbiter/t/{event.slug}/officials/", {"arbiters": ""}).status_code == 403


def test_entrants_accounts_and_audit(client, organizer, event):
    client.force_login(organizer)
    client.post(f"/arbiter/t/{event.slug}/entrants/", {"name": "Fay", "rating": 1300})
    fay = Player.objects.get(name="Fay")
    assert event.registrations.filter(player=fay).exists()
    account = User.objects.create_user("fay", password="pw-fay-12345")
    client.post(f"/arbiter/t/{event.slug}/accounts/", {"player": fay.pk, "account": "fay"})
    fay.refresh_from_db()
    assert fay.user == account
    client.post(f"/arbiter/t/{event.slug}/entrants/{fay.pk}/withdraw/")
    page = client.get(f"/arbiter/t/{event.slug}/audit/?player={fay.pk}").content.decode()
    assert "Chain intact" in page and "withdrawal" in page and "player_account" in page


def test_a_player_sees_their_own_penalties_and_nobody_else_does(client, organizer, event):
    ann = Player.objects.get(name="Ann")
    account = User.objects.create_user("ann", password="pw-ann-12345")
    services.player_link_user(player=ann, account=account, user=organizer)
    services.penalty_impose(
        tournament=event,
        player=ann,
        kind="warning",
        reason="talking to a spectator",
        user=organizer,
    )
    assert "talking to a spectator" not in client.get(f"/p/{ann.pk}/").content.decode()
    client.force_login(User.objects.create_user("bob", password="pw-bob-12345"))
    assert "talking to a spectator" not in client.get(f"/p/{ann.pk}/").content.decode()
    client.force_login(account)
    assert "talking to a spectator" in client.get(f"/p/{ann.pk}/").content.decode()
    client.force_login(organizer)
    assert "talking to a spectator" in client.get(f"/p/{ann.pk}/").content.decode()
