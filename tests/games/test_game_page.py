"""The game page: one status (valid, or invalid at ply N with its Article), the sides named by
player, the last move outlined on the board, and a record naming other players than the
game's kept but not taken for the game until an arbiter confirms it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games import selectors, services
from games.selectors import NAMES_CONFIRMED, NAMES_PENDING
from rules.board import NAME
from tests.games.conftest import BAD, CAPTURE, done
from tournaments.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def named(raw: bytes, green: str, gold: str) -> bytes:
    return raw.replace(b'[Green "Kor"]', f'[Green "{green}"]'.encode()).replace(
        b'[Gold "Kang"]', f'[Gold "{gold}"]'.encode()
    )


def own_record(game: Game, raw: bytes = CAPTURE) -> bytes:
    """The record with the game's own players (the first placer green, as it says)."""
    assert game.second is not None
    return named(raw, game.first.name, game.second.name)


def verdict_text(page: str) -> str:
    section = page[page.index('<section id="verdict"') : page.index("</section>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", section))


def test_a_valid_record_has_one_status_and_the_sides_named(client, setup):
    game, arbiter = setup
    done(services.submission_create(game=game, raw=own_record(game), user=arbiter))
    page = client.get(f"/g/{game.pk}/").content.decode()
    text = verdict_text(page)
    assert "Valid: 31 plies." in text
    assert "Validated" not in text and "Invalid" not in text
    assert f"Green: <strong>{game.first.name}</strong>" in page
    assert f"Gold: <strong>{game.second.name}</strong>" in page
    # Who "green" is, in the sentence that says green won.
    assert f"The moves decide: capture, green wins. ({game.first.name})" in text
    assert 'id="names-pending"' not in page


def test_an_invalid_record_has_one_status_naming_the_ply_and_article(client, setup):
    game, arbiter = setup
    done(services.submission_create(game=game, raw=own_record(game, BAD), user=arbiter))
    text = verdict_text(client.get(f"/g/{game.pk}/").content.decode())
    assert "Invalid at ply 21" in text and "(Art. 3.3)" in text
    assert "Validated" not in text and "Valid:" not in text


def test_the_board_outlines_the_last_move(client, setup):
    game, arbiter = setup
    sub = done(services.submission_create(game=game, raw=own_record(game), user=arbiter))
    _, _, moves = selectors.record_replay(submission=sub)
    first = client.get(f"/g/{game.pk}/board.svg?ply=1").content.decode()
    assert re.findall(r'class="last" data-last="([^"]+)"', first) == ["C29"]  # Fe→C29
    start = client.get(f"/g/{game.pk}/board.svg?ply=0").content.decode()
    assert 'class="last"' not in start
    move = moves[24]  # ply 25
    svg = client.get(f"/g/{game.pk}/board.svg?ply=25").content.decode()
    marked = re.findall(r'class="last" data-last="([^"]+)"', svg)
    want = [NAME[sq] for sq in (move.origin, move.dest) if sq is not None]
    assert marked == want and len(want) >= 1


def test_a_record_naming_other_players_awaits_an_arbiters_confirmation(client, setup):
    game, arbiter = setup
    combatant = get_user_model().objects.create_user("combatant", password="pw-combatant-1")
    game.first.user = combatant
    game.first.save(update_fields=["user"])
    other = named(CAPTURE, "Somebody Else", game.second.name)
    sub = done(services.submission_create(game=game, raw=other, user=combatant))
    assert sub.valid is True
    assert sub.match_note.startswith(NAMES_PENDING) and "Somebody Else" in sub.match_note
    assert selectors.record_needs_confirmation(submission=sub)
    # Not taken: the game does not learn its first colour from it.
    assert Game.objects.get(pk=game.pk).first_colour_recorded == ""
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert 'id="names-pending"' in page and "until an arbiter confirms it" in page
    assert client.get(f"/g/{game.pk}/status.json").json()["needs_confirmation"] is True
    # The arbiter takes it for this game: the result it proposes, the note says so.
    services.game_result_confirm(game=game, user=arbiter)
    sub.refresh_from_db()
    assert sub.match_note.startswith(NAMES_CONFIRMED) and "Somebody Else" in sub.match_note
    assert Game.objects.get(pk=game.pk).result == Game.Result.FIRST_WIN
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert 'id="names-pending"' not in page and NAMES_CONFIRMED.strip() in page


def test_a_record_with_the_games_players_needs_no_confirmation(setup):
    game, arbiter = setup
    swapped = named(CAPTURE, game.second.name.upper(), f"  {game.first.name} ")
    sub = done(services.submission_create(game=game, raw=swapped, user=arbiter))
    assert sub.match_note == "" and not selectors.record_needs_confirmation(submission=sub)
    unnamed = named(CAPTURE, "?", "?")
    sub = done(services.submission_create(game=game, raw=unnamed, user=arbiter))
    assert sub.match_note == ""
    # Submitted by an arbiter, other names are taken but noted.
    sub = done(services.submission_create(game=game, raw=named(CAPTURE, "X", "Y"), user=arbiter))
    assert sub.match_note.startswith(NAMES_CONFIRMED)
