"""Where an event's battles are played (`play`): publishing a round of an online event opens
each battle on the site with the players' accounts; taking a round back is refused while a
battle of it is under way; without the site key online play does not start; the record
written at a battle's end carries the site's signature."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from games.live_models import LiveBattle
from games.models import RecordSignature
from games.services.live_battles import live_move_play, live_resign
from games.signing import Signature, verify_record
from games.site_key import site_public_keys
from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db

User = get_user_model()


def _online(play: str = Tournament.Play.ONLINE_LIVE, *, accounts: bool = True):
    officials = officials_make()
    t, players = event_make(officials, time_control="1800", play=play)
    if accounts:
        for p in players:
            p.user = User.objects.create_user(p.name.lower(), password=f"pw-{p.name}-online")
            p.save(update_fields=["user"])
    return officials, t, players


def _publish(officials, t, players) -> Round:
    rnd = round_make(t, [(players[0], players[1]), (players[2], players[3])], draft=True)
    return services.round_publish(round=rnd, user=officials.chief)


def test_publishing_an_online_round_opens_each_battle_with_the_players_accounts():
    officials, t, players = _online()
    rnd = _publish(officials, t, players)
    battles = LiveBattle.objects.filter(game__round=rnd).order_by("game__board")
    assert [(b.game.board, b.status) for b in battles] == [(1, "waiting"), (2, "waiting")]
    first = battles[0]
    assert {first.green, first.gold} == {players[0].user, players[1].user}
    assert first.tags["TimeControl"] == "1800"


def test_an_event_over_the_board_opens_no_battle():
    officials, t, players = _online(Tournament.Play.OVER_THE_BOARD)
    _publish(officials, t, players)
    assert not LiveBattle.objects.exists()


def test_a_player_without_an_account_keeps_the_round_a_proposal():
    officials, t, players = _online(accounts=False)
    rnd = round_make(t, [(players[0], players[1])], draft=True)
    with pytest.raises(Exception, match="board 1 cannot be played online"):
        services.round_publish(round=rnd, user=officials.chief)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.DRAFT
    assert not LiveBattle.objects.exists()


def test_without_the_site_key_online_play_refuses_to_start():
    officials, t, players = _online()
    rnd = round_make(t, [(players[0], players[1])], draft=True)
    with (
        override_settings(KZ_SITE_KEY_FILE=""),
        pytest.raises(Exception, match="online play needs the site key"),
    ):
        services.round_publish(round=rnd, user=officials.chief)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT


def test_a_round_with_a_battle_under_way_cannot_be_unpublished():
    officials, t, players = _online()
    rnd = _publish(officials, t, players)
    battle = LiveBattle.objects.get(game__round=rnd, game__board=1)
    live_move_play(battle_id=battle.pk, user=battle.green, n=1, ply="V→I99")
    api = APIClient()
    api.force_authenticate(officials.chief)
    resp = api.post(f"/api/tournaments/{t.slug}/unpublish/", {"round": 1}, format="json")
    assert resp.status_code == 409
    assert "battle under way on board 1" in resp.json()["round"][0]
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED

    page = Client()
    page.force_login(officials.chief)
    url = reverse("arbiter:round-unpublish", args=[t.slug, 1])
    shown = page.post(url, follow=True)
    assert "battle under way on board 1" in shown.content.decode()
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED


def test_a_round_whose_battles_have_not_started_is_taken_back_and_they_close():
    officials, t, players = _online()
    rnd = _publish(officials, t, players)
    services.round_unpublish(round=rnd, user=officials.chief)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT
    assert not LiveBattle.objects.exists()
    services.round_publish(round=rnd, user=officials.chief)
    assert LiveBattle.objects.filter(game__round=rnd).count() == 2


def test_the_play_setting_is_read_and_changed_through_the_api():
    officials, t, _players = _online(Tournament.Play.OVER_THE_BOARD)
    api = APIClient()
    api.force_authenticate(officials.chief)
    url = f"/api/tournaments/{t.slug}/"
    assert api.get(url).json()["play"] == "over_the_board"
    resp = api.patch(url, {"play": "online_correspondence"}, format="json")
    assert resp.status_code == 200, resp.json()
    assert Tournament.objects.get(pk=t.pk).play == "online_correspondence"
    assert api.patch(url, {"play": "by_pigeon"}, format="json").status_code == 400


def test_the_record_of_an_online_battle_is_signed_by_the_site():
    officials, t, players = _online()
    rnd = _publish(officials, t, players)
    battle = LiveBattle.objects.get(game__round=rnd, game__board=1)
    live_resign(battle_id=battle.pk, user=battle.gold)
    battle.refresh_from_db()
    sig = RecordSignature.objects.get(submission=battle.record, role="site")
    text = bytes(battle.record.raw).decode()
    assert sig.public_key in site_public_keys()
    assert verify_record(text, Signature(sig.public_key, sig.signature))
    assert not verify_record(text.replace("Ann", "Anm"), Signature(sig.public_key, sig.signature))


def test_a_round_paired_and_published_at_once_opens_its_battles():
    officials, t, _players = _online()
    rnd = services.round_pair(tournament=t, user=officials.chief, publish=True)
    assert rnd.status == Round.Status.PUBLISHED
    assert LiveBattle.objects.filter(game__round=rnd).count() == 2


def test_a_site_key_lost_mid_battle_does_not_undo_its_end(caplog):
    officials, t, players = _online()
    rnd = _publish(officials, t, players)
    battle = LiveBattle.objects.get(game__round=rnd, game__board=1)
    with override_settings(KZ_SITE_KEY_FILE=""):
        live_resign(battle_id=battle.pk, user=battle.gold)
    battle.refresh_from_db()
    assert battle.status == "over" and battle.record is not None
    assert not RecordSignature.objects.filter(submission=battle.record).exists()
    assert "not signed by the site" in caplog.text
