"""Penalties (Art. 12.4 a-g, 12.5): each effect on standings, clocks and pairings, revocation;
the audit trail's hash chain and a tampered entry."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command

from games import selectors as gselectors
from games.models import ClockAdjustment
from tournaments import selectors, services
from tournaments.audit import audit_verify
from tournaments.demo import demo_load
from tournaments.models import AuditEntry, Game, Penalty, Registration

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ctx():
    tournament, login, _, _ = demo_load(rounds_played=1)
    arbiter = get_user_model().objects.get(username=login)
    game = Game.objects.filter(round__tournament=tournament, result="first_win").first()
    if game is None:
        game = Game.objects.filter(round__tournament=tournament).first()
        services.game_result_set(game=game, result="first_win", user=arbiter)
    return tournament, arbiter, game


def score(t, player_id):
    return {r.entrant.id: r.score for r in selectors.standings_compute(tournament=t)}[player_id]


def test_d_battle_declared_lost_and_revoked(ctx):
    t, arbiter, game = ctx
    assert score(t, game.first_id) == 1 and score(t, game.second_id) == 0
    p = services.penalty_impose(
        tournament=t,
        player=game.first,
        kind="battle_lost",
        reason="illegal device",
        game=game,
        user=arbiter,
    )
    assert score(t, game.first_id) == 0 and score(t, game.second_id) == 1
    crosstable = selectors.crosstable_json(tournament=t)
    row = next(r for r in crosstable["rows"] if r["name"] == game.first.name)
    assert row["rounds"][0]["result"] == "0"
    services.penalty_revoke(penalty=p, reason="mistaken identity", user=arbiter)
    assert score(t, game.first_id) == 1 and score(t, game.second_id) == 0
    assert Penalty.objects.filter(tournament=t).count() == 2  # nothing deleted


def test_e_and_f(ctx):
    t, arbiter, game = ctx
    services.penalty_impose(
        tournament=t,
        player=game.first,
        kind="reduce_points",
        amount="0.5",
        reason="disturbing",
        game=game,
        user=arbiter,
    )
    assert score(t, game.first_id) == 0.5
    services.penalty_impose(
        tournament=t,
        player=game.first,
        kind="raise_opponent",
        reason="disturbing",
        game=game,
        user=arbiter,
    )
    assert score(t, game.second_id) == 1


def test_b_c_and_12_5_adjust_the_clock_log(ctx):
    t, arbiter, game = ctx
    services.penalty_impose(
        tournament=t,
        player=game.first,
        kind="offender_time",
        amount=120,
        reason="late",
        game=game,
        user=arbiter,
    )
    services.penalty_impose(
        tournament=t,
        player=game.first,
        kind="opponent_time",
        amount=60,
        reason="noise",
        game=game,
        user=arbiter,
    )
    services.penalty_impose(
        tournament=t,
        player=game.second,
        kind="extra_time",
        amount=30,
        reason="lights went out",
        game=game,
        user=arbiter,
    )
    adj = list(ClockAdjustment.objects.filter(game=game).values_list("side", "seconds", "article"))
    assert adj == [("green", -120, "12.4c"), ("gold", 60, "12.4b"), ("gold", 30, "12.5")]
    assert gselectors.clock_adjustments(game=game)[0].seconds == -120


def test_g_expulsion_leaves_later_rounds(ctx):
    t, arbiter, game = ctx
    services.penalty_impose(
        tournament=t, player=game.first, kind="expulsion", reason="Art. 11", user=arbiter
    )
    reg = Registration.objects.get(tournament=t, player=game.first)
    assert reg.status == "expelled"
    rnd = services.round_pair(tournament=t, user=arbiter)
    assert not rnd.games.filter(first=game.first).exists()
    assert not rnd.games.filter(second=game.first).exists()
    assert score(t, game.first_id) == 1  # games already played stand


def test_a_warning_changes_nothing_but_is_recorded(ctx):
    t, arbiter, game = ctx
    before = selectors.crosstable_json(tournament=t)
    services.penalty_impose(
        tournament=t, player=game.first, kind="warning", reason="talking", user=arbiter
    )
    after = selectors.crosstable_json(tournament=t)
    # Only the published head of the audit chain moves on: the warning is recorded.
    assert after.pop("audit_head")["seq"] == before.pop("audit_head")["seq"] + 1
    assert after == before
    assert Penalty.objects.get(kind="warning").article == "12.4a"


def test_penalty_input_errors_and_permissions(ctx):
    t, arbiter, game = ctx
    with pytest.raises(ValidationError):
        services.penalty_impose(
            tournament=t,
            player=game.first,
            kind="reduce_points",
            reason="x",
            game=game,
            user=arbiter,
        )  # no amount
    with pytest.raises(ValidationError):
        services.penalty_impose(
            tournament=t, player=game.first, kind="battle_lost", reason="x", user=arbiter
        )  # no game
    stranger = get_user_model().objects.create_user("nobody", password="pw-nobody-123")
    with pytest.raises(PermissionDenied):
        services.penalty_impose(
            tournament=t, player=game.first, kind="warning", reason="x", user=stranger
        )
    with pytest.raises(PermissionError):
        Penalty.objects.create(
            tournament=t, player=game.first, kind="warning", article="12.4a", reason="x"
        ).delete()


def test_audit_chain_and_tampering(ctx, capsys):
    t, arbiter, game = ctx
    services.game_result_set(game=game, result="draw", user=arbiter)
    services.penalty_impose(
        tournament=t, player=game.first, kind="warning", reason="x", user=arbiter
    )
    ok, count, _ = audit_verify(tournament=t)
    assert ok and count >= 5
    call_command("kz", "audit", "verify", t.slug, "--json")
    assert json.loads(capsys.readouterr().out)["valid"] is True
    entry = AuditEntry.objects.filter(tournament=t, action="result").last()
    assert entry.actor == arbiter.username and entry.after == {"result": "draw"}
    with pytest.raises(PermissionError):
        entry.save()
    AuditEntry.objects.filter(pk=entry.pk).update(after={"result": "first_win"})  # tamper
    ok, _, problem = audit_verify(tournament=t)
    assert not ok and f"entry {entry.seq} was changed" in problem
    with pytest.raises(SystemExit) as e:
        call_command("kz", "audit", "verify", t.slug, "--json")
    assert e.value.code == 1
