"""Battles played online: a ply applied exactly once, refusals with the validator's words,
the server's clock and its flag, resignation, draws, and the end writing the record and the
result."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone

from games.live_models import LiveBattle, LivePly
from games.live_selectors import live_battle_state
from games.models import RecordSubmission
from games.services.live_battles import (
    LiveRefusal,
    live_battle_flag,
    live_battle_open,
    live_draw,
    live_move_play,
    live_resign,
)
from rules.clock import adjudicate
from rules.live import LiveBattle as Battle
from rules.record import read_record
from rules.validate import validate_text
from tests.games.conftest import RECORDS
from tests.tournaments.services.factories import event_make, round_make
from tournaments.models import Game, Round

User = get_user_model()


def _game_with_accounts(officials, **settings):
    """Ann (first) - Bob of round 1, each with an account."""
    t, players = event_make(officials, **settings)
    for p in players:
        p.user = User.objects.create_user(p.name.lower(), password=f"pw-{p.name}-online")
        p.save(update_fields=["user"])
    rnd = round_make(t, [(players[0], players[1]), (players[2], players[3])])
    return rnd.games.get(board=1)


@pytest.fixture
def battle(officials):
    """An online battle of Ann (green, first placer) and Bob, 30 minutes each."""
    game = _game_with_accounts(officials, time_control="1800")
    return live_battle_open(game=game)


def _users(battle):
    return battle.green, battle.gold


def _play(battle, count, start=None):
    """Play `count` listed legal plies, a second apart; the time of the last."""
    now = start or battle.turn_started_at
    for _ in range(count):
        b = LiveBattle.objects.get(pk=battle.pk)
        state = live_battle_state(battle=b, user=None)
        live = Battle.replay(b.tags, state["plies"])
        user = b.green if live.turn == "green" else b.gold
        now += timedelta(seconds=1)
        live_move_play(battle_id=b.pk, user=user, n=live.next_n, ply=live.legal()[0], now=now)
    return now


def test_opening_takes_the_players_by_colour_and_the_events_rules(battle):
    game = battle.game
    assert battle.green == game.first.user and battle.gold == game.second.user
    assert battle.tags["FirstPlacement"] == "green"
    assert battle.tags["TimeControl"] == "1800"
    assert (battle.tags["Green"], battle.tags["Gold"]) == ("Ann", "Bob")
    assert live_battle_open(game=game) == battle  # opened once


def test_a_game_without_accounts_cannot_be_played_online(officials):
    t, players = event_make(officials, slug="no-accounts")
    game = round_make(t, [(players[0], players[1]), (players[2], players[3])]).games.first()
    with pytest.raises(ValidationError):
        live_battle_open(game=game)


def test_a_game_of_a_round_not_published_cannot_be_opened(officials):
    game = _game_with_accounts(officials)
    game.round.status = Round.Status.DRAFT
    game.round.save(update_fields=["status"])
    with pytest.raises(ValidationError):
        live_battle_open(game=Game.objects.get(pk=game.pk))
    assert not LiveBattle.objects.exists()


def test_a_ply_is_applied_once_and_a_repeat_is_stale(battle):
    green, gold = _users(battle)
    start = battle.turn_started_at
    played = live_move_play(
        battle_id=battle.pk, user=green, n=1, ply="V→I99", now=start + timedelta(seconds=3)
    )
    assert (played.n, played.ply, played.played) == (1, "V→I99", True)
    assert played.clocks["green"] == 1_797_000
    assert played.legal and all("→" in p for p in played.legal)
    with pytest.raises(LiveRefusal) as caught:
        live_move_play(battle_id=battle.pk, user=green, n=1, ply="V→I99")
    assert caught.value.code == "stale"
    assert caught.value.error() == {"ply": 1, "article": None, "message": caught.value.message}
    assert list(LivePly.objects.filter(battle=battle).values_list("n", "text")) == [(1, "V→I99")]
    battle.refresh_from_db()
    assert battle.status == LiveBattle.Status.PLAYING


def test_a_ply_out_of_turn_or_by_a_watcher_is_refused(battle):
    green, gold = _users(battle)
    with pytest.raises(LiveRefusal) as caught:
        live_move_play(battle_id=battle.pk, user=gold, n=1, ply="V→I99")
    assert caught.value.code == "turn"
    stranger = User.objects.create_user("eve", password="pw-eve-online")
    with pytest.raises(LiveRefusal) as caught:
        live_move_play(battle_id=battle.pk, user=stranger, n=1, ply="V→I99")
    assert caught.value.code == "not_player"
    assert not LivePly.objects.filter(battle=battle).exists()


def test_an_illegal_ply_is_refused_with_the_validators_ply_article_and_message(battle):
    green, _ = _users(battle)
    live_move_play(battle_id=battle.pk, user=green, n=1, ply="V→I99")
    with pytest.raises(LiveRefusal) as caught:
        live_move_play(battle_id=battle.pk, user=green, n=2, ply="Fl→I99")
    expected = validate_text('[FirstPlacement "green"]\n\nV→I99\nFl→I99\n').error
    assert caught.value.code == "rules"
    assert caught.value.error() == {
        "ply": 2,
        "article": expected.article,
        "message": str(expected.reason),
    }
    assert LivePly.objects.filter(battle=battle).count() == 1


def test_the_flag_falls_when_the_server_says_so_and_the_record_says_it(battle):
    green, _ = _users(battle)
    start = battle.turn_started_at
    assert live_battle_flag(battle_id=battle.pk, now=start + timedelta(seconds=1799)) is None
    ended = live_battle_flag(battle_id=battle.pk, now=start + timedelta(seconds=1801))
    assert (ended.result, ended.termination) == ("gold", "time")
    battle.refresh_from_db()
    assert battle.status == LiveBattle.Status.OVER
    record = read_record(RecordSubmission.objects.get(pk=ended.record_id).text)
    assert record.tags["Flag"] == "green"
    decision = adjudicate(record)
    assert (decision.decision, decision.loser) == ("time", "green")
    game = Game.objects.get(pk=battle.game_id)
    assert game.result == Game.Result.SECOND_WIN
    assert game.result_confirmed_at is not None


def test_a_ply_arriving_after_the_flag_is_not_played_and_ends_the_battle(battle):
    green, _ = _users(battle)
    late = battle.turn_started_at + timedelta(seconds=1900)
    played = live_move_play(battle_id=battle.pk, user=green, n=1, ply="V→I99", now=late)
    assert not played.played and played.ended.termination == "time"
    assert not LivePly.objects.filter(battle=battle).exists()
    with pytest.raises(LiveRefusal) as caught:
        live_move_play(battle_id=battle.pk, user=green, n=1, ply="V→I99", now=late)
    assert caught.value.code == "over"


def test_lag_is_compensated_under_the_quota(battle):
    green, _ = _users(battle)
    start = battle.turn_started_at
    played = live_move_play(
        battle_id=battle.pk, user=green, n=1, ply="V→I99", lag_ms=10_000,
        now=start + timedelta(seconds=5),
    )  # fmt: skip
    # 5 s charged less the quota's 2 s.
    assert played.clocks["green"] == 1_800_000 - 3_000
    ply = LivePly.objects.get(battle=battle)
    assert (ply.lag_ms, ply.spent_ms) == (2000, 3000)


def test_resignation_ends_the_battle_with_a_record_that_validates(battle):
    _play(battle, 3)
    green, gold = _users(battle)
    ended = live_resign(battle_id=battle.pk, user=gold)
    assert (ended.result, ended.termination) == ("green", "resignation")
    sub = RecordSubmission.objects.get(pk=ended.record_id)
    assert sub.source == RecordSubmission.Source.ONLINE
    verdict = validate_text(sub.text)
    assert verdict.valid and verdict.plies == 3
    assert [rp.clock for rp in read_record(sub.text).plies] == [
        1799,
        1798,
        1797,
    ]  # green places nine first (Art. 2.4)
    game = Game.objects.get(pk=battle.game_id)
    assert game.result == Game.Result.FIRST_WIN
    with pytest.raises(LiveRefusal):
        live_resign(battle_id=battle.pk, user=green)


def test_a_draw_is_offered_withdrawn_declined_by_a_move_and_agreed(battle):
    green, gold = _users(battle)
    assert live_draw(battle_id=battle.pk, user=green, offer=True).offered_by == "green"
    assert live_draw(battle_id=battle.pk, user=green, offer=False).offered_by == ""
    assert live_draw(battle_id=battle.pk, user=gold, offer=True).offered_by == "gold"
    played = live_move_play(battle_id=battle.pk, user=green, n=1, ply="V→I99")
    assert played.draw_withdrawn
    assert live_draw(battle_id=battle.pk, user=green, offer=True).offered_by == "green"
    answer = live_draw(battle_id=battle.pk, user=gold, offer=True)
    assert answer.ended and (answer.ended.result, answer.ended.termination) == (
        "draw",
        "agreement",
    )
    assert Game.objects.get(pk=battle.game_id).result == Game.Result.DRAW


def test_no_draw_under_the_italian_society(officials):
    game = _game_with_accounts(officials, ruleset="italian-society")
    battle = live_battle_open(game=game)
    with pytest.raises(LiveRefusal) as caught:
        live_draw(battle_id=battle.pk, user=battle.green, offer=True)
    assert caught.value.code == "draw"


def test_the_state_gives_the_legal_plies_to_the_side_to_act_only(battle):
    green, gold = _users(battle)
    now = battle.turn_started_at + timedelta(seconds=10)
    state = live_battle_state(battle=battle, user=green, now=now)
    assert state["type"] == "state" and state["status"] == "waiting"
    assert (state["turn"], state["phase"], state["result"]) == ("green", "placement", "*")
    assert state["clocks"] == {"green": 1_790_000, "gold": 1_800_000}
    assert state["legal"]
    assert live_battle_state(battle=battle, user=gold, now=now)["legal"] == []


def test_a_battle_decided_by_its_plies_ends_by_itself(officials):
    """The example capture played through the service: it ends by itself, its record
    validates to the same ending and the game has its result."""
    game = _game_with_accounts(officials)
    battle = live_battle_open(game=game)
    example = read_record((RECORDS / "example1-laws-capture.kzr").read_text(encoding="utf-8"))
    now = timezone.now()
    for n, rp in enumerate(example.plies, start=1):
        user = (
            battle.green
            if Battle.replay(battle.tags, [p.text for p in example.plies[: n - 1]]).turn == "green"
            else battle.gold
        )
        played = live_move_play(battle_id=battle.pk, user=user, n=n, ply=rp.text, now=now)
    battle.refresh_from_db()
    assert (battle.status, battle.result, battle.termination) == ("over", "green", "capture")
    verdict = validate_text(RecordSubmission.objects.get(pk=played.ended.record_id).text)
    assert verdict.valid and verdict.plies == len(example.plies)
    assert (verdict.result, verdict.outcome.termination) == ("green", "capture")
    assert Game.objects.get(pk=battle.game_id).result == Game.Result.FIRST_WIN
