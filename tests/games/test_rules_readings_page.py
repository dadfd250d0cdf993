"""The rules readings of issue 22 (items 18-20) on the game page: a record of each, under
its event's rules, shows the verdict `kz validate` gives (the ply and Article refused, or
the ending the moves decide)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games import services
from tests.games.conftest import done
from tests.games.test_game_page import named, verdict_text
from tests.rules.test_italian import _record_text, setup_before_last_placement
from tests.rules.test_readings import crown_record
from tournaments import services as tournament_services
from tournaments.models import Game

pytestmark = pytest.mark.django_db(transaction=True)
RECORDS = Path(__file__).resolve().parents[1] / "rules" / "records"


def game_of(slug: str, **settings: str) -> tuple[Game, object]:
    """The first game of round 1 of a fresh event under `settings`, and its arbiter."""
    arbiter = get_user_model().objects.create_user(f"arb-{slug}", password="pw-arbiter-1")
    t = tournament_services.tournament_create(
        name=slug.title(), slug=slug, start_date=date(2026, 5, 1), rounds_planned=3, **settings
    )
    t.arbiters.add(arbiter)
    for name in ("Kor", "Kang"):
        player = tournament_services.player_create(name=name)
        tournament_services.registration_create(tournament=t, player=player)
    tournament_services.round_create(
        tournament=t, pairings=[tuple(t.registrations.values_list("player_id", flat=True))]
    )
    return Game.objects.get(round__tournament=t), arbiter


def shown(client, game: Game, arbiter, text: str) -> str:  # type: ignore[no-untyped-def]
    assert game.second is not None
    raw = named(text.encode(), game.first.name, game.second.name)
    done(services.submission_create(game=game, raw=raw, user=arbiter))
    return verdict_text(client.get(f"/g/{game.pk}/").content.decode())


def test_a_threat_that_opens_the_blockaders_field_is_refused_on_the_page(client):
    """Item 18: the threat endangers the threatener's own Goal (reminders 5 and 6)."""
    game, arbiter = game_of("coppa-campo", ruleset="italian-society")
    text = (RECORDS / "italian-threat-opens-the-field.kzr").read_text(encoding="utf-8")
    verdict = shown(client, game, arbiter, text)
    assert "Invalid at ply 22" in verdict and "(Art. 3.9)" in verdict


def test_the_reply_to_a_crowning_ends_the_battle_by_the_crown_on_the_page(client):
    """Item 19: every reply exposes gold's Goal, yet the battle ends by the crown after it."""
    game, arbiter = game_of("crown-cup", variants="kaggas-crown", crown="A19")
    gold = "FeH34,LF14,SI45,FlI44,FlI22,VI34,VH24,BG25,VH35"
    verdict = shown(client, game, arbiter, crown_record("laws", gold, "H34", "V@I34 → I33"))
    assert "Valid: 22 plies." in verdict
    assert "The moves decide: crown, green wins." in verdict


def test_a_last_placer_with_no_safe_placement_loses_by_deadlock_on_the_page(client):
    """Item 20: the side that cannot place correctly has lost (reminder 8)."""
    for seed in range(60):
        pos, moves = setup_before_last_placement(seed)
        legal = pos.generate_legal_moves()
        if legal and not any(pos.is_safe(m) for m in legal):
            break
    else:
        pytest.fail("no seed left the last placer without a safe placement")
    game, arbiter = game_of("coppa-stallo", ruleset="italian-society")
    record = _record_text(moves, tags={"Result": "gold", "Green": "Kor", "Gold": "Kang"})
    verdict = shown(client, game, arbiter, record)
    assert "The moves decide: deadlock, gold wins." in verdict
