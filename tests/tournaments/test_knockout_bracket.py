"""A knockout's rounds from its field (ceil(log2 n), with a warning when the rounds set do
not fit) and its bracket page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments.services.factories import event_make, officials_make
from tournaments import services
from tournaments.audit import Action
from tournaments.event_system_selectors import knockout_bracket_stages, knockout_rounds_check
from tournaments.models import AuditEntry, Game, Tournament
from tournaments.pairing import knockout_rounds, knockout_stages

pytestmark = pytest.mark.django_db

EIGHT = ("Ann", "Bob", "Cid", "Dax", "Eve", "Fay", "Gus", "Hal")


@pytest.mark.parametrize(
    ("n", "rounds"),
    [(0, 0), (1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (64, 6), (65, 7)],
)
def test_knockout_rounds_are_ceil_log2(n, rounds):
    assert knockout_rounds(n) == rounds


def test_stages_fold_a_replay_into_its_stage():
    rounds = [
        [(1, None, ""), (4, 5, "second"), (2, None, ""), (3, 6, "draw")],
        [(6, 3, "first")],  # the replay of 3 v 6
        [(1, 5, "first"), (2, 6, "second")],
        [(1, 6, "")],
    ]
    stages = knockout_stages(rounds)
    assert len(stages) == 3
    assert [t.winner for t in stages[0]] == [1, 5, 2, 6]
    assert stages[0][3].games == ((3, 6, "draw"), (6, 3, "first"))
    assert [t.winner for t in stages[1]] == [1, 6]
    assert stages[2][0].winner is None  # the final has no result yet


def knockout(rounds: int, names=EIGHT, slug="ko"):  # type: ignore[no-untyped-def]
    return event_make(
        officials_make(),
        slug=slug,
        names=names,
        pairing_system=Tournament.PairingSystem.KNOCKOUT,
        rounds_planned=rounds,
    )


def test_the_rounds_come_from_the_field_with_a_warning():
    t, _ = knockout(5)
    warning = knockout_rounds_check(tournament=t)
    assert "8 players takes 3 rounds" in warning and "5" in warning
    r1 = services.round_pair(tournament=t)
    t.refresh_from_db()
    assert t.rounds_planned == 3
    assert any("takes 3 rounds" in w for w in r1.warnings)
    entry = AuditEntry.objects.filter(tournament=t, action=Action.SETTINGS).latest("pk")
    assert entry.before == {"rounds_planned": 5} and entry.after == {"rounds_planned": 3}
    assert knockout_rounds_check(tournament=t) == ""  # round 1 is paired


def test_rounds_that_fit_give_no_warning():
    t, _ = knockout(3)
    assert knockout_rounds_check(tournament=t) == ""
    r1 = services.round_pair(tournament=t)
    assert r1.warnings == []


def test_the_console_warns_before_round_1():
    short, _ = knockout(2, slug="ko-short")
    client = Client()
    client.force_login(short.chief_arbiter)
    body = client.get(f"/arbiter/t/{short.slug}/").content.decode()
    assert 'id="rounds-warning"' in body and "takes 3 rounds" in body


def test_a_replay_goes_past_the_rounds():
    t, _ = knockout(3, names=EIGHT[:4], slug="ko4")
    r1 = services.round_pair(tournament=t)
    t.refresh_from_db()
    assert t.rounds_planned == 2
    for g in r1.games.all():
        services.game_result_set(game=g, result=Game.Result.FIRST_WIN)
    r2 = services.round_pair(tournament=t)
    services.game_result_set(game=r2.games.get(), result=Game.Result.DRAW)
    r3 = services.round_pair(tournament=t)  # the final's replay
    t.refresh_from_db()
    assert t.rounds_planned == 3
    assert any("not decided after 2 rounds" in w for w in r3.warnings)


def test_the_bracket_page_shows_every_stage():
    t, players = knockout(3, names=EIGHT[:6], slug="ko6")
    r1 = services.round_pair(tournament=t)
    for g in r1.games.filter(kind=Game.Kind.GAME):
        services.game_result_set(game=g, result=Game.Result.SECOND_WIN)
    stages = knockout_bracket_stages(tournament=t)
    assert [s.played for s in stages] == [True, False, False]
    assert [len(s.ties) for s in stages] == [4, 2, 1]
    body = Client().get(f"/t/{t.slug}/bracket/").content.decode()
    assert 'id="bracket"' in body
    for heading in ("Quarter-finals", "Semi-finals", "Final"):
        assert heading in body
    # Seeds 1 and 2 have byes; the lower seeds won 4 v 5 and 3 v 6.
    won = re.findall(r'class="side won">.*?<strong>(.*?)</strong>', body)
    assert won == ["Ann", "Eve", "Bob", "Fay"]
    assert body.count(">bye<") == 2
    assert Client().get(f"/t/{t.slug}/").content.decode().count("/bracket/") == 1


def test_no_bracket_for_other_systems():
    t, _ = event_make(officials_make(), slug="open", names=EIGHT)
    assert Client().get(f"/t/{t.slug}/bracket/").status_code == 404
