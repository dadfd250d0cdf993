"""The Italian society's time-out through the service and the API: the count decides, a tie
goes to the coin, a final goes to the Bach'san replay; records must be played under the
tournament's ruleset and variants."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from games import selectors as game_selectors
from games import services
from rules.italian import timeout_count
from rules.position import Rules
from rules.validate import validate_text
from tests.games.conftest import done
from tests.rules.test_italian import _record_text, random_game
from tournaments import services as tservices
from tournaments.italian_procedure import bachsan_die
from tournaments.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

KEYS = ("", "Fe", "L", "S", "Fl", "V", "B")


def _open_game_moves(first: int = 0):
    """Moves of a random Italian battle still open after its last ply."""
    for seed in range(200):
        moves = random_game(seed, first)
        verdict = validate_text(_record_text(moves, first))
        pos = verdict.position
        if pos.in_battle and pos.final_outcome() is None:
            return moves, pos
    raise AssertionError("no open battle")


def _event(system: str, ruleset: str = "italian-society"):
    arbiter = get_user_model().objects.create_user(f"arbitro-{system}-{ruleset}", password="x")
    t = tservices.tournament_create(
        name="Coppa",
        slug=f"coppa-{system}-{ruleset}",
        start_date=date(2026, 5, 1),
        pairing_system=system,
        ruleset=ruleset,
        rounds_planned=3,
    )
    t.arbiters.add(arbiter)
    for name in ("Kor", "Kang"):
        tservices.registration_create(tournament=t, player=tservices.player_create(name=name))
    rnd = tservices.round_pair(tournament=t)
    return rnd.games.get(kind=Game.Kind.GAME), arbiter


def _submit(game, arbiter, text: str):
    return done(services.submission_create(game=game, raw=text.encode(), user=arbiter))


def test_count_decides_a_swiss_game(worker):
    game, arbiter = _event("swiss")
    assert not game_selectors.game_is_final(game=game)
    moves, pos = _open_game_moves()
    sub = _submit(game, arbiter, _record_text(moves))
    assert sub.valid, sub.error
    decision = services.game_timeout_decide(game=game, user=arbiter)
    game.refresh_from_db()
    count = timeout_count(pos)
    winner = count.winner if count.winner is not None else decision.winner
    assert decision.how == ("count" if count.winner is not None else "coin")
    won_first = ("green", "gold")[winner] == game.first_colour_recorded
    assert game.result == (Game.Result.FIRST_WIN if won_first else Game.Result.SECOND_WIN)
    assert game.round.tournament.audit.filter(action="game.timeout").exists()
    # A second time-out on a decided game is refused.
    with pytest.raises(ValidationError, match="already has a result"):
        services.game_timeout_decide(game=game, user=arbiter)


def test_final_goes_to_bachsan_then_the_coin(worker):
    game, arbiter = _event("knockout")
    assert game_selectors.game_is_final(game=game)
    ruleset, variants, removed = game_selectors.game_rules_expected(game=game)
    assert ruleset == "italian-society" and variants == {"power-vanguards"} and removed == 0
    # The final is played with power vanguards: a record without them is refused.
    moves, _ = _open_game_moves()
    plain = _submit(game, arbiter, _record_text(moves))
    assert not plain.valid and "power-vanguards" in plain.error["reason"]
    final_text = _record_text(moves, tags={"Variants": "power-vanguards"})
    assert _submit(game, arbiter, final_text).valid
    decision = services.game_timeout_decide(game=game, user=arbiter)
    game.refresh_from_db()
    assert decision.how == "bachsan" and game.result == ""
    assert game.bachsan_removed == decision.removed == bachsan_die(game.spindle_seed + "/v2")
    # The replay's record must name the warrior removed.
    again = _submit(game, arbiter, final_text)
    assert not again.valid and "Removed" in again.error["reason"]
    rules = Rules("italian-society", frozenset({"power-vanguards"}), removed=game.bachsan_removed)
    replay_moves = next(
        m
        for m in (random_game(seed, 0, rules) for seed in range(200))
        if validate_text(_replay_text(m, rules)).position.final_outcome() is None
    )
    replay = _submit(game, arbiter, _replay_text(replay_moves, rules))
    assert replay.valid, replay.error
    coin = services.game_timeout_decide(game=game, user=arbiter)
    game.refresh_from_db()
    assert coin.how == "coin" and "without honour" in coin.explanation
    assert game.result in (Game.Result.FIRST_WIN, Game.Result.SECOND_WIN)


def _replay_text(moves, rules: Rules) -> str:
    tags = {"Variants": "power-vanguards", "Removed": KEYS[rules.removed]}
    return _record_text(moves, tags=tags, rules=rules)


def test_only_under_the_italian_ruleset_and_on_a_valid_open_record(worker):
    game, arbiter = _event("swiss", ruleset="laws")
    with pytest.raises(ValidationError, match="Italian"):
        services.game_timeout_decide(game=game, user=arbiter)
    # A record played under another ruleset than the tournament's is not this game's.
    moves, _ = _open_game_moves()
    sub = _submit(game, arbiter, _record_text(moves))
    assert not sub.valid and "italian-society" in sub.error["reason"]
    assert sub.error["article"] == "9.1"
    game2, arbiter2 = _event("round_robin")
    with pytest.raises(ValidationError, match="valid record"):
        services.game_timeout_decide(game=game2, user=arbiter2)


def test_api_timeout(worker):
    game, arbiter = _event("swiss")
    moves, _ = _open_game_moves()
    _submit(game, arbiter, _record_text(moves))
    client = APIClient()
    url = f"/api/games/{game.pk}/timeout/"
    assert client.post(url, {}, format="json").status_code in (401, 403)
    client.force_authenticate(arbiter)
    resp = client.post(url, {}, format="json")
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert body["how"] in ("count", "coin") and body["winner"] in ("green", "gold")
    assert "count green" in body["explanation"]
    game.refresh_from_db()
    assert game.result
    assert client.post(url, {}, format="json").status_code == 400


def test_tournament_variants_are_checked_and_the_society_gets_its_time_control():
    t = tservices.tournament_create(
        name="Torneo",
        slug="torneo",
        start_date=date(2026, 5, 1),
        ruleset="italian-society",
        variants="Clouded, power-vanguards",
    )
    assert t.time_control == "1200" and t.variants == "clouded,power-vanguards"
    refused = (("warp-drive", "unknown variant"), ("alternating-placement", "its own setup"))
    for bad, match in refused:
        with pytest.raises(ValidationError, match=match):
            tservices.tournament_create(
                name="X",
                slug=f"x-{bad}",
                start_date=date(2026, 5, 1),
                ruleset="italian-society",
                variants=bad,
            )


def test_console_button_decides_the_time_out(worker, client):
    game, arbiter = _event("swiss")
    moves, _ = _open_game_moves()
    _submit(game, arbiter, _record_text(moves))
    client.force_login(arbiter)
    slug, number = game.round.tournament.slug, game.round.number
    page = client.get(f"/arbiter/t/{slug}/round/{number}/")
    assert page.status_code == 200 and "Time-out: count" in page.content.decode()
    resp = client.post(f"/arbiter/t/{slug}/game/{game.pk}/timeout/", follow=True)
    assert resp.status_code == 200
    assert "time-out count green" in resp.content.decode()
    game.refresh_from_db()
    assert game.result
    page = client.get(f"/arbiter/t/{slug}/round/{number}/")
    assert "Time-out: count" not in page.content.decode()
