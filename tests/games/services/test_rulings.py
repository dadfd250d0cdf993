"""The arbiter's confirmation of a result, called directly: the result given, or the one the
latest validated record proposes from its moves or its clocks; refused when no valid record
decides one, and to anyone but an arbiter."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from games import services
from games.models import RecordSubmission
from tests.games.conftest import BAD, CAPTURE
from tests.games.services.conftest import clock_record
from tests.tournaments.services.factories import round_make
from tournaments import selectors
from tournaments.models import AuditEntry, Game


def validated(game: Game, raw: bytes) -> RecordSubmission:
    sub = services.submission_create(game=game, raw=raw, enqueue=False)
    return services.submission_validate(submission_id=sub.pk)


def scores(game: Game) -> dict[str, float]:
    rows = selectors.standings_compute(tournament=game.round.tournament)
    return {r.entrant.name: r.score for r in rows}


@pytest.mark.parametrize(
    ("raw", "result"),
    [
        (CAPTURE, "first_win"),  # green placed first and captured
        (clock_record({30: "0:00:00"}), "first_win"),  # gold, second, flagged
        (clock_record({29: "0:00:00"}), "second_win"),  # green, first, flagged
    ],
)
def test_the_result_the_record_proposes_is_confirmed(officials, game, raw, result):
    validated(game, raw)
    confirmed = services.game_result_confirm(game=game, user=officials.arbiter)
    assert confirmed.result == result
    stored = Game.objects.get(pk=game.pk)
    assert (stored.result, stored.result_entered_by) == (result, officials.arbiter)
    entry = AuditEntry.objects.get(action="result")
    assert entry.after == {"result": result} and entry.actor == "arbiter"
    winner, loser = ("Ann", "Bob") if result == "first_win" else ("Bob", "Ann")
    assert (scores(game)[winner], scores(game)[loser]) == (1, 0)


def test_the_result_given_wins_over_the_record(officials, game):
    validated(game, CAPTURE)
    assert (
        services.game_result_confirm(game=game, user=officials.arbiter, result="draw").result
        == "draw"
    )
    assert scores(game)["Ann"] == -0.5


def test_a_result_given_needs_no_record(officials, game):
    confirmed = services.game_result_confirm(
        game=game, user=officials.arbiter, result="second_forfeit_win"
    )
    assert confirmed.result == "second_forfeit_win"


def test_the_latest_validated_version_is_read(officials, game):
    validated(game, clock_record({29: "0:00:00"}))  # v1 proposes second_win
    services.submission_create(game=game, raw=CAPTURE, enqueue=False)  # v2 not validated yet
    assert services.game_result_confirm(game=game, user=officials.arbiter).result == "second_win"


@pytest.mark.parametrize("raw", [None, BAD, b"\xff not text"])
def test_no_valid_record_no_proposal(officials, game, raw):
    if raw is not None:
        validated(game, raw)
    with pytest.raises(ValidationError) as e:
        services.game_result_confirm(game=game, user=officials.arbiter)
    assert e.value.message_dict == {"result": ["no valid record proposes a result"]}
    assert Game.objects.get(pk=game.pk).result == ""


def test_a_record_still_queued_proposes_nothing(officials, game):
    services.submission_create(game=game, raw=CAPTURE, enqueue=False)
    with pytest.raises(ValidationError, match="no valid record proposes a result"):
        services.game_result_confirm(game=game, user=officials.arbiter)


def test_a_record_that_decides_nothing_is_refused(officials, game):
    validated(game, clock_record({}))
    with pytest.raises(ValidationError) as e:
        services.game_result_confirm(game=game, user=officials.arbiter)
    assert e.value.message_dict == {"result": ["the record decides no result; enter it"]}


def test_only_arbiters_confirm(officials, game):
    validated(game, CAPTURE)
    with pytest.raises(PermissionDenied):
        services.game_result_confirm(game=game, user=officials.stranger)
    assert Game.objects.get(pk=game.pk).result == ""


def test_a_proposed_round_takes_no_result(officials, game):
    t = game.round.tournament
    a, b = game.first, game.second
    draft = round_make(t, [(a, b), (game.round.games.get(board=2).first, None)], draft=True)
    with pytest.raises(ValidationError, match="the round is not published yet"):
        services.game_result_confirm(
            game=draft.games.get(board=1), user=officials.arbiter, result="draw"
        )
