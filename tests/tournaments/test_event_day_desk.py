"""Issue 26 item 8: the arbiter's desk and the public pages, each seen in the walk of an
event day: buttons offered only when they can work, refusals in words, withdrawn players
marked, results from the player's side, one shown result after penalties, the clock
decision in words, discarding hand edits confirmed, signing a final record not offered, a
pending bye shown, the audit head explained."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from tournaments import services
from tournaments.forms import ScheduleForm
from tournaments.models import Game, Player, Round
from tournaments.permissions import errors_text, form_errors_text

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def arbiter():
    return User.objects.create_user("arb", password="pw-arbiter-1")


def make_event(arbiter, names=("Ann", "Bob", "Cid", "Dax")):
    t = services.tournament_create(
        name="Club Night", slug="club-night", start_date=date(2026, 11, 20), rounds_planned=3
    )
    t.arbiters.add(arbiter)
    for i, name in enumerate(names):
        p = services.player_create(name=name, rating=1800 - 100 * i)
        services.registration_create(tournament=t, player=p)
    return t


def manage_page(client, arbiter, t) -> str:
    client.force_login(arbiter)
    resp = client.get(f"/arbiter/t/{t.slug}/")
    assert resp.status_code == 200
    return resp.content.decode()


def test_pair_round_1_is_not_offered_without_two_entrants(client, arbiter):
    t = make_event(arbiter, names=("Ann",))
    page = manage_page(client, arbiter, t)
    assert 'id="pair-next"' not in page
    assert "Round 1 is paired once two players are registered." in page
    services.registration_create(tournament=t, player=services.player_create(name="Bob"))
    assert 'id="pair-next"' in manage_page(client, arbiter, t)


def test_pair_round_2_is_not_offered_while_round_1_is_a_proposal(client, arbiter):
    t = make_event(arbiter)
    services.round_pair(tournament=t, user=arbiter, publish=False)
    page = manage_page(client, arbiter, t)
    assert "Pair round 2" not in page and 'id="pair-next"' not in page
    assert "Round 1 is a proposal" in page
    services.round_publish(round=t.rounds.get(number=1), user=arbiter)
    assert "Pair round 2" in manage_page(client, arbiter, t)


def test_refusals_read_without_field_names():
    exc = ValidationError({"round": "0 active players for round 1: a round needs two"})
    assert errors_text(exc) == "0 active players for round 1: a round needs two"
    exc = ValidationError({"round_number": "must be 1 or more"})
    assert errors_text(exc) == "round: must be 1 or more"
    exc = ValidationError({"game": "a whole number is expected"})
    assert errors_text(exc) == "game: a whole number is expected"


def test_a_form_refusal_names_the_field_by_its_label():
    form = ScheduleForm({"starts_at": "not a time", "place": "Hall"})
    assert not form.is_valid()
    text = form_errors_text(form)
    assert "starts_at" not in text


def test_a_refused_pairing_says_it_in_words_on_the_page(client, arbiter):
    t = make_event(arbiter, names=("Ann",))
    client.force_login(arbiter)
    resp = client.post(f"/arbiter/t/{t.slug}/pair/", follow=True)
    body = resp.content.decode()
    assert "a round needs two" in body and "round: " not in body


def withdrawn_event(arbiter):
    t = make_event(arbiter)
    services.round_pair(tournament=t, user=arbiter)
    for g in t.rounds.get(number=1).games.filter(kind=Game.Kind.GAME):
        services.game_result_set(game=g, result=Game.Result.FIRST_WIN, user=arbiter)
    dax = t.registrations.get(player__name="Dax")
    services.registration_withdraw(registration=dax, user=arbiter)
    return t


def test_withdrawn_players_are_marked_on_standings_and_crosstable(client, arbiter):
    t = withdrawn_event(arbiter)
    for url in (f"/t/{t.slug}/standings/", f"/t/{t.slug}/crosstable/"):
        body = client.get(url).content.decode()
        row = next(line for line in body.split("<tr>") if ">Dax</a>" in line)
        assert "withdrawn after round 1" in row, url
        other = next(line for line in body.split("<tr>") if ">Ann</a>" in line)
        assert "withdrawn" not in other


def test_the_crosstable_csv_adds_a_withdrawal_column_after_the_others(client, arbiter):
    t = withdrawn_event(arbiter)
    resp = client.get(f"/t/{t.slug}/crosstable.csv")
    text = (b"".join(resp.streaming_content) if resp.streaming else resp.content).decode()
    rows = list(csv.reader(io.StringIO(text)))
    head = rows[0]
    assert head[:4] == ["rank", "name", "club", "rating"] and head[-1] == "withdrawn_after_round"
    by_name = {r[1]: r for r in rows[1:]}
    assert by_name["Dax"][-1] == "1" and by_name["Ann"][-1] == ""


def test_my_games_says_won_lost_drew_from_the_players_side(client, arbiter):
    t = make_event(arbiter)
    ann, bob = Player.objects.get(name="Ann"), Player.objects.get(name="Bob")
    for p in (ann, bob):
        p.user = User.objects.create_user(p.name.lower())
        p.save(update_fields=["user"])
    r1 = services.round_create(tournament=t, pairings=[(ann.pk, bob.pk)])
    services.game_result_set(game=r1.games.get(), result=Game.Result.FIRST_WIN, user=arbiter)
    client.force_login(ann.user)
    page = client.get("/me/games/").content.decode()
    assert "<td>won</td>" in page and "First placer wins" not in page
    client.force_login(bob.user)
    assert "<td>lost</td>" in client.get("/me/games/").content.decode()


def test_the_player_page_shows_the_penalised_points_the_crosstable_shows(client, arbiter):
    t = make_event(arbiter)
    ann, bob = Player.objects.get(name="Ann"), Player.objects.get(name="Bob")
    r1 = services.round_create(tournament=t, pairings=[(ann.pk, bob.pk)])
    game = r1.games.get()
    services.game_result_set(game=game, result=Game.Result.FIRST_WIN, user=arbiter)
    services.penalty_impose(
        tournament=t,
        player=ann,
        kind="reduce_points",
        reason="noise",
        user=arbiter,
        game=game,
        amount=1,
    )
    cross = client.get(f"/t/{t.slug}/crosstable.json").json()
    ann_cell = next(r for r in cross["rows"] if r["name"] == "Ann")["rounds"][0]
    assert ann_cell["penalized"] and ann_cell["points"] == 0
    page = client.get(f"/p/{ann.pk}/").content.decode()
    assert "0* – 0*" in page and "1 – 0" not in page
    pairings = client.get(f"/t/{t.slug}/round/1/").content.decode()
    assert "0* – 0*" in pairings


def test_discarding_a_hand_edited_proposal_asks_first(client, arbiter):
    t = make_event(arbiter)
    services.round_pair(tournament=t, user=arbiter, publish=False)
    rnd = t.rounds.get(number=1)
    ids = list(Player.objects.order_by("name").values_list("pk", flat=True))
    services.round_pairings_edit(
        round=rnd, pairings=[(ids[0], ids[3]), (ids[1], ids[2])], user=arbiter
    )
    client.force_login(arbiter)
    resp = client.post(f"/arbiter/t/{t.slug}/round/1/discard/")
    body = resp.content.decode()
    assert resp.status_code == 200 and 'id="discard-confirm"' in body
    assert "<script>" not in body and "onclick" not in body
    assert Round.objects.filter(pk=rnd.pk).exists()
    resp = client.post(f"/arbiter/t/{t.slug}/round/1/discard/", {"confirm": "1"})
    assert resp.status_code == 302 and not Round.objects.filter(pk=rnd.pk).exists()


def test_discarding_an_untouched_proposal_needs_no_confirmation(client, arbiter):
    t = make_event(arbiter)
    services.round_pair(tournament=t, user=arbiter, publish=False)
    client.force_login(arbiter)
    resp = client.post(f"/arbiter/t/{t.slug}/round/1/discard/")
    assert resp.status_code == 302 and not t.rounds.exists()


def test_a_pending_bye_shows_in_the_entrants_list(client, arbiter):
    t = make_event(arbiter)
    reg = t.registrations.get(player__name="Cid")
    services.bye_request_create(registration=reg, round_number=2, user=arbiter)
    page = manage_page(client, arbiter, t)
    row = next(line for line in page.split("<tr>") if "Cid" in line and "bye" in line)
    assert "bye requested for round 2" in row


def test_the_audit_head_is_explained_in_plain_words(client, arbiter):
    t = make_event(arbiter)
    body = client.get(f"/t/{t.slug}/").content.decode()
    assert "Every change to this event is recorded" in body
    assert f"kz audit verify {t.slug} --head" in body and "SLUG" not in body
