"""Penalties (Art. 11, 12.4, 12.5), called directly, for every kind of
tournaments.penalty_kinds.KINDS: its effect once imposed (clock, standings as tournaments.md
scores them, registration) and the opposite once revoked; who may impose it; what it
needs (a game of the tournament, a positive amount); what is recorded."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from games.models import ClockAdjustment
from tests.tournaments.services.factories import event_make, round_make
from tournaments import pairing_selectors, selectors, services
from tournaments.models import AuditEntry, Game, Penalty, Registration, Tournament
from tournaments.penalty_kinds import KINDS, Amount, Effect

pytestmark = pytest.mark.django_db

CLOCK_KINDS = [k.value for k in KINDS if k.on_clock]
RESULT_KINDS = [k.value for k in KINDS if k.on_result]
EXPULSION_KINDS = [k.value for k in KINDS if k.effect == Effect.EXPULSION]
RECORD_ONLY_KINDS = [k.value for k in KINDS if k.effect == Effect.RECORD_ONLY]
CHIEF_KINDS = [k.value for k in KINDS if k.chief_only]
GAME_KINDS = [k.value for k in KINDS if k.needs_game]
AMOUNT_KINDS = [k.value for k in KINDS if k.amount != Amount.NONE]

# The Laws' reading of each kind: (Article, applies to a game, amount, chief arbiter only).
LAWS = {
    "warning": ("12.4a", False, Amount.NONE, False),
    "opponent_time": ("12.4b", True, Amount.SECONDS, False),
    "offender_time": ("12.4c", True, Amount.SECONDS, False),
    "battle_lost": ("12.4d", True, Amount.NONE, False),
    "reduce_points": ("12.4e", True, Amount.POINTS, False),
    "raise_opponent": ("12.4f", True, Amount.NONE, False),
    "expulsion": ("12.4g", False, Amount.NONE, True),
    "extra_time": ("12.5", True, Amount.SECONDS, False),
    "dismissal": ("11.1", False, Amount.NONE, True),
}

# Clock kinds: (kind, offender, first placer's colour, side charged, seconds for 90).
CLOCK_CASES = [
    ("opponent_time", "first", "", "gold", 90),
    ("opponent_time", "second", "", "green", 90),
    ("opponent_time", "first", "gold", "green", 90),
    ("offender_time", "first", "", "green", -90),
    ("offender_time", "second", "", "gold", -90),
    ("offender_time", "first", "gold", "gold", -90),
    ("extra_time", "first", "", "green", 90),
    ("extra_time", "second", "", "gold", 90),
    ("extra_time", "second", "gold", "green", 90),
]

# Result kinds: (kind, result of Ann-Bob, offender, amount, Ann's and Bob's scores after).
RESULT_CASES = [
    ("battle_lost", "draw", "first", None, (0, 1)),
    ("battle_lost", "first_win", "first", None, (0, 1)),
    ("battle_lost", "second_win", "second", None, (1, 0)),
    ("battle_lost", "first_forfeit_win", "first", None, (0, 1)),
    ("reduce_points", "first_win", "first", "0.5", (0.5, 0)),
    ("reduce_points", "draw", "second", "1", (-0.5, -1.5)),
    ("raise_opponent", "draw", "first", None, (-0.5, 1)),
    ("raise_opponent", "first_win", "first", None, (1, 1)),
    ("raise_opponent", "second_win", "second", None, (1, 1)),
]
BASE = {
    "draw": (-0.5, -0.5),
    "first_win": (1, 0),
    "second_win": (0, 1),
    "first_forfeit_win": (1, 0),
}


@pytest.fixture
def ctx(officials, event):  # type: ignore[no-untyped-def]
    """(tournament, [Ann, Bob, Cid, Dax], the game Ann-Bob of the published round 1)."""
    t, players = event
    a, b, c, d = players
    rnd = round_make(t, [(a, b), (c, d)])
    return t, players, rnd.games.get(board=1)


def scores(t: Tournament) -> dict[str, float]:
    return {r.entrant.name: r.score for r in selectors.standings_compute(tournament=t)}


def clock_log(game: Game) -> list[tuple[str, int, str]]:
    return list(
        ClockAdjustment.objects.filter(game=game)
        .order_by("id")
        .values_list("side", "seconds", "article")
    )


def status(t: Tournament, player) -> tuple[str, int | None]:  # type: ignore[no-untyped-def]
    reg = Registration.objects.get(tournament=t, player=player)
    return reg.status, reg.last_round


def impose(t, player, kind, user, game=None, amount=None, reason="Art. 12 ruling"):  # type: ignore[no-untyped-def]
    return services.penalty_impose(
        tournament=t, player=player, kind=kind, reason=reason, user=user, game=game, amount=amount
    )


def valid_amount(kind: str) -> str | None:
    return "30" if kind in AMOUNT_KINDS else None


# The table of kinds


def test_every_kind_is_read_as_the_laws_say():
    assert {k.value: (k.article, k.needs_game, k.amount, k.chief_only) for k in KINDS} == LAWS


def test_every_kind_has_its_effect_tested_here():
    groups = [CLOCK_KINDS, RESULT_KINDS, EXPULSION_KINDS, RECORD_ONLY_KINDS]
    assert sorted(v for g in groups for v in g) == sorted(LAWS)
    assert {case[0] for case in CLOCK_CASES} == set(CLOCK_KINDS)
    assert {case[0] for case in RESULT_CASES} == set(RESULT_KINDS)
    assert set(EXPULSION_KINDS) == {"expulsion", "dismissal"}
    assert RECORD_ONLY_KINDS == ["warning"]


# Effects, and their undoing


@pytest.mark.parametrize(("kind", "offender", "first_color", "side", "seconds"), CLOCK_CASES)
def test_a_clock_penalty_charges_the_right_side_and_revoking_gives_it_back(
    officials, ctx, kind, offender, first_color, side, seconds
):
    t, (a, b, c, d), game = ctx
    Game.objects.filter(pk=game.pk).update(first_colour_recorded=first_color)
    game.refresh_from_db()
    who = a if offender == "first" else b
    before = scores(t)
    p = impose(t, who, kind, officials.arbiter, game=game, amount=90, reason="noise")
    article = LAWS[kind][0]
    assert clock_log(game) == [(side, seconds, article)]
    adj = ClockAdjustment.objects.get(game=game)
    assert (adj.from_ply, adj.reason, adj.created_by) == (1, "noise", officials.arbiter)
    assert scores(t) == before and status(t, who) == ("active", None)
    services.penalty_revoke(penalty=p, reason="mistaken", user=officials.arbiter)
    assert clock_log(game) == [(side, seconds, article), (side, -seconds, article)]
    assert scores(t) == before


@pytest.mark.parametrize(("kind", "result", "offender", "amount", "after"), RESULT_CASES)
def test_a_result_penalty_changes_the_standings_and_revoking_restores_them(
    officials, ctx, kind, result, offender, amount, after
):
    t, (a, b, c, d), game = ctx
    services.game_result_set(game=game, result=result)
    ann, bob = BASE[result]
    assert scores(t) == {"Ann": ann, "Bob": bob, "Cid": 0, "Dax": 0}
    who = a if offender == "first" else b
    p = impose(t, who, kind, officials.arbiter, game=game, amount=amount)
    assert scores(t) == {"Ann": after[0], "Bob": after[1], "Cid": 0, "Dax": 0}
    assert Game.objects.get(pk=game.pk).result == result  # the result on record stays
    assert clock_log(game) == [] and status(t, who) == ("active", None)
    services.penalty_revoke(penalty=p, reason="mistaken", user=officials.arbiter)
    assert scores(t) == {"Ann": ann, "Bob": bob, "Cid": 0, "Dax": 0}


@pytest.mark.parametrize("kind", EXPULSION_KINDS)
def test_expulsion_and_dismissal_withdraw_the_player_and_revoking_reinstates(officials, ctx, kind):
    t, (a, b, c, d), game = ctx
    services.game_result_set(game=game, result="first_win")
    p = impose(t, a, kind, officials.chief)
    assert status(t, a) == ("expelled", 1)
    assert scores(t)["Ann"] == 1  # games already played stand
    players, _ = pairing_selectors.pairing_players(tournament=t, round_number=2)
    assert a.pk not in {pl.id for pl in players}
    withdrawal = AuditEntry.objects.get(tournament=t, action="withdrawal")
    assert withdrawal.after == {"status": "expelled"} and withdrawal.actor == "chief"
    assert clock_log(game) == []
    services.penalty_revoke(penalty=p, reason="appeal upheld", user=officials.chief)
    assert status(t, a) == ("active", None)
    players, _ = pairing_selectors.pairing_players(tournament=t, round_number=2)
    assert a.pk in {pl.id for pl in players}
    assert scores(t)["Ann"] == 1


def test_a_warning_is_recorded_and_changes_nothing(officials, ctx):
    t, (a, b, c, d), game = ctx
    services.game_result_set(game=game, result="draw")
    before = scores(t)
    p = impose(t, a, "warning", officials.arbiter, reason="talking")
    assert (p.kind, p.article, p.game, p.amount, p.round_number) == (
        "warning",
        "12.4a",
        None,
        None,
        None,
    )
    assert scores(t) == before and clock_log(game) == [] and status(t, a) == ("active", None)
    services.penalty_revoke(penalty=p, reason="mistaken", user=officials.arbiter)
    assert scores(t) == before and status(t, a) == ("active", None)


# Who imposes, and what each kind needs


@pytest.mark.parametrize("kind", CHIEF_KINDS)
def test_chief_only_kinds_are_refused_to_a_plain_arbiter(officials, ctx, kind):
    t, (a, *_), game = ctx
    with pytest.raises(PermissionDenied, match="chief arbiter or organizer"):
        impose(t, a, kind, officials.arbiter)
    assert not Penalty.objects.exists() and status(t, a) == ("active", None)
    assert impose(t, a, kind, officials.organizer).kind == kind


@pytest.mark.parametrize("kind", [k.value for k in KINDS if not k.chief_only])
def test_other_kinds_are_any_arbiters(officials, ctx, kind):
    t, (a, *_), game = ctx
    p = impose(t, a, kind, officials.arbiter2, game=game, amount=valid_amount(kind))
    assert (p.kind, p.arbiter) == (kind, officials.arbiter2)
    with pytest.raises(PermissionDenied):
        impose(t, a, kind, officials.stranger, game=game, amount=valid_amount(kind))


@pytest.mark.parametrize("kind", GAME_KINDS)
def test_game_kinds_need_a_game_of_the_tournament_with_the_player_in_it(officials, ctx, kind):
    t, (a, b, c, d), game = ctx
    other, (zed, yul) = event_make(officials, slug="other-open", names=("Zed", "Yul"))
    services.registration_create(tournament=other, player=a)
    foreign = round_make(other, [(a, zed), (yul, None)]).games.get(board=1)
    amount = valid_amount(kind)
    for wrong in (None, foreign):
        with pytest.raises(ValidationError) as e:
            impose(t, a, kind, officials.chief, game=wrong, amount=amount)
        assert e.value.message_dict == {
            "game": ["this penalty applies to a game of the tournament"]
        }
    with pytest.raises(ValidationError) as e:
        impose(t, c, kind, officials.chief, game=game, amount=amount)
    assert e.value.message_dict == {"player": ["not a combatant of that game"]}
    assert not Penalty.objects.exists() and not ClockAdjustment.objects.exists()


@pytest.mark.parametrize("kind", AMOUNT_KINDS)
@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (None, "a number is needed"),
        ("", "a number is needed"),
        ("ten", "a number is needed"),
        (0, "must be positive"),
        ("-30", "must be positive"),
    ],
)
def test_amount_kinds_need_a_positive_amount(officials, ctx, kind, amount, message):
    t, (a, *_), game = ctx
    with pytest.raises(ValidationError) as e:
        impose(t, a, kind, officials.arbiter, game=game, amount=amount)
    assert e.value.message_dict == {"amount": [message]}
    assert not Penalty.objects.exists() and not ClockAdjustment.objects.exists()


@pytest.mark.parametrize("kind", AMOUNT_KINDS)
def test_the_amount_is_stored_as_a_number(officials, ctx, kind):
    t, (a, *_), game = ctx
    p = impose(t, a, kind, officials.arbiter, game=game, amount="1.5")
    assert Penalty.objects.get(pk=p.pk).amount == Decimal("1.5")


def test_a_nan_amount_is_a_validation_error(officials, ctx):
    t, (a, *_), game = ctx
    with pytest.raises(ValidationError) as e:
        impose(t, a, "reduce_points", officials.arbiter, game=game, amount="NaN")
    assert "amount" in e.value.message_dict


def test_an_amount_the_field_cannot_hold_is_a_validation_error(officials, ctx):
    t, (a, *_), game = ctx
    with pytest.raises(ValidationError) as e:
        impose(t, a, "reduce_points", officials.arbiter, game=game, amount="1e12")
    assert "amount" in e.value.message_dict


def test_the_reason_and_the_player_are_checked(officials, ctx):
    t, (a, *_), game = ctx
    with pytest.raises(ValidationError) as e:
        impose(t, a, "warning", officials.arbiter, reason="  ")
    assert e.value.message_dict == {"reason": ["say why"]}
    outsider = services.player_create(name="Outsider")
    with pytest.raises(ValidationError) as e:
        impose(t, outsider, "warning", officials.arbiter)
    assert e.value.message_dict == {"player": ["not a combatant of this tournament"]}
    assert not Penalty.objects.exists()


@pytest.mark.parametrize("kind", ["bogus", "revocation"])
def test_an_unknown_kind_is_refused_after_the_role(officials, ctx, kind):
    t, (a, *_), game = ctx
    with pytest.raises(ValidationError) as e:
        impose(t, a, kind, officials.arbiter)
    assert e.value.message_dict == {"kind": [f"unknown penalty {kind!r}"]}
    with pytest.raises(PermissionDenied):
        impose(t, a, kind, officials.stranger)


# What is recorded


def test_a_penalty_and_its_revocation_are_recorded_and_audited(officials, ctx):
    t, (a, *_), game = ctx
    p = impose(t, a, "reduce_points", officials.arbiter, game=game, amount="0.5", reason="noise")
    p.refresh_from_db()
    assert (p.kind, p.article, p.player, p.game, p.round_number) == (
        "reduce_points",
        "12.4e",
        a,
        game,
        1,
    )
    assert (p.amount, p.reason, p.arbiter, p.revokes) == (
        Decimal("0.5"),
        "noise",
        officials.arbiter,
        None,
    )
    entry = AuditEntry.objects.get(tournament=t, action="penalty")
    assert entry.after == {
        "kind": "reduce_points",
        "player": a.pk,
        "game": game.pk,
        "amount": "0.5",
        "reason": "noise",
    }
    r = services.penalty_revoke(penalty=p, reason="wrong player", user=officials.arbiter2)
    assert (r.kind, r.revokes, r.article, r.player, r.game, r.round_number, r.arbiter) == (
        "revocation",
        p,
        "12.4e",
        a,
        game,
        1,
        officials.arbiter2,
    )
    assert Penalty.objects.filter(tournament=t).count() == 2  # nothing deleted
    entry = AuditEntry.objects.get(tournament=t, action="penalty_revoked")
    assert (entry.object_type, entry.object_id) == ("Penalty", str(r.pk))
    assert entry.before == {"penalty": p.pk} and entry.after == {"reason": "wrong player"}


def test_the_round_number_given_is_kept_when_no_game_is_named(officials, ctx):
    t, (a, *_), game = ctx
    assert impose(t, a, "warning", officials.arbiter, game=None).round_number is None
    p = services.penalty_impose(
        tournament=t, player=a, kind="warning", reason="x", user=officials.arbiter, round_number=2
    )
    assert p.round_number == 2


def test_a_penalty_is_revoked_once_and_a_revocation_never(officials, ctx):
    t, (a, *_), game = ctx
    p = impose(t, a, "warning", officials.arbiter)
    r = services.penalty_revoke(penalty=p, reason="mistaken", user=officials.arbiter)
    with pytest.raises(ValidationError) as e:
        services.penalty_revoke(penalty=p, reason="again", user=officials.arbiter)
    assert e.value.message_dict == {"penalty": ["already revoked"]}
    with pytest.raises(ValidationError) as e:
        services.penalty_revoke(penalty=r, reason="undo", user=officials.arbiter)
    assert e.value.message_dict == {"penalty": ["a revocation cannot be revoked"]}
    assert Penalty.objects.count() == 2


def test_only_arbiters_revoke(officials, ctx):
    t, (a, *_), game = ctx
    p = impose(t, a, "battle_lost", officials.arbiter, game=game)
    with pytest.raises(PermissionDenied):
        services.penalty_revoke(penalty=p, reason="x", user=officials.stranger)
    assert not Penalty.objects.filter(revokes=p).exists()


# Known faults


def test_revoking_one_of_two_expulsions_leaves_the_player_expelled(officials, ctx):
    t, (a, *_), game = ctx
    impose(t, a, "expulsion", officials.chief)
    dismissal = impose(t, a, "dismissal", officials.chief)
    services.penalty_revoke(penalty=dismissal, reason="site rule misread", user=officials.chief)
    assert status(t, a)[0] == "expelled"


@pytest.mark.parametrize("kind", EXPULSION_KINDS)
def test_revoking_the_expulsion_of_a_player_who_had_withdrawn_gives_the_withdrawal_back(
    officials, ctx, kind
):
    t, (a, *_), game = ctx
    services.game_result_set(game=game, result="first_win")
    reg = Registration.objects.get(tournament=t, player=a)
    services.registration_withdraw(registration=reg, user=officials.arbiter)
    assert status(t, a) == ("withdrawn", 1)
    p = impose(t, a, kind, officials.chief)
    assert status(t, a) == ("expelled", 1)
    services.penalty_revoke(penalty=p, reason="appeal upheld", user=officials.chief)
    assert status(t, a) == ("withdrawn", 1)
    players, _ = pairing_selectors.pairing_players(tournament=t, round_number=2)
    assert a.pk not in {pl.id for pl in players}
    # Undoing the withdrawal itself is the arbiter's, as before the expulsion.
    services.registration_withdrawal_undo(registration=reg, user=officials.arbiter)
    assert status(t, a) == ("active", None)


def test_revoking_a_clock_penalty_undoes_it_on_the_side_it_was_charged(officials, ctx):
    t, (a, *_), game = ctx
    p = impose(t, a, "offender_time", officials.arbiter, game=game, amount=120)
    assert clock_log(game) == [("green", -120, "12.4c")]
    # A record then tells the first placer had gold (as submission_validate stores it).
    Game.objects.filter(pk=game.pk).update(first_colour_recorded="gold")
    fresh = Penalty.objects.get(pk=p.pk)  # as the pages and the API load it
    services.penalty_revoke(penalty=fresh, reason="mistaken", user=officials.arbiter)
    assert clock_log(game) == [("green", -120, "12.4c"), ("green", 120, "12.4c")]
