"""Pairing rounds of a stored tournament (services and `kz pair`)."""

from __future__ import annotations

import json
import random
from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from tournaments import services
from tournaments.models import Game, Registration, Tournament

pytestmark = pytest.mark.django_db


def make(n: int, system: str = "swiss", rounds: int = 5) -> Tournament:
    t = services.tournament_create(
        name=f"T{n}",
        slug=f"t{n}-{system}",
        start_date=date(2026, 1, 1),
        rounds_planned=rounds,
        pairing_system=system,
    )
    for i in range(n):
        p = services.player_create(name=f"P{i:02d}", rating=2000 - i)
        services.registration_create(tournament=t, player=p)
    return t


def play(rnd, rng):
    for g in rnd.games.filter(kind="game"):
        services.game_result_set(
            game=g,
            result=rng.choice([Game.Result.FIRST_WIN, Game.Result.SECOND_WIN, Game.Result.DRAW]),
        )


def test_swiss_rounds_keep_the_hard_rules():
    t = make(9)
    rng = random.Random(3)
    met = set()
    byes = []
    for _ in range(5):
        rnd = services.round_pair(tournament=t)
        for g in rnd.games.all():
            if g.second_id:
                pair = frozenset((g.first_id, g.second_id))
                assert pair not in met
                met.add(pair)
            elif g.kind == "bye":
                byes.append(g.first_id)
        assert rnd.warnings == []
        play(rnd, rng)
    assert len(byes) == len(set(byes)) == 5


def test_requested_bye_and_withdrawal_are_left_out():
    t = make(6)
    regs = list(Registration.objects.filter(tournament=t).order_by("start_rank"))
    services.bye_request_create(registration=regs[0], round_number=1)
    services.registration_withdraw(registration=regs[1])
    rnd = services.round_pair(tournament=t)
    kinds = {g.first_id: g.kind for g in rnd.games.all()}
    assert kinds[regs[0].player_id] == "requested_bye"
    paired = {x for g in rnd.games.all() for x in (g.first_id, g.second_id) if x}
    assert regs[1].player_id not in paired
    # 6 players less one requested bye and one withdrawal: two games, no pairing bye
    assert sum(1 for g in rnd.games.all() if g.kind == "bye") == 0
    assert len([g for g in rnd.games.all() if g.kind == "game"]) == 2


def test_round_robin_follows_berger():
    t = make(4, "round_robin", rounds=3)
    ids = list(
        Registration.objects.filter(tournament=t)
        .order_by("start_rank")
        .values_list("player_id", flat=True)
    )
    rnd = services.round_pair(tournament=t)
    assert [(g.first_id, g.second_id) for g in rnd.games.order_by("board")] == [
        (ids[0], ids[3]),
        (ids[1], ids[2]),
    ]


def test_kz_pair_json_and_wrong_round(capsys):
    t = make(5)
    call_command("kz", "pair", t.slug, "--json")
    rows = json.loads(capsys.readouterr().out)
    assert sum(1 for r in rows if "bye" in r) == 1
    assert sum(1 for r in rows if "first" in r) == 2
    assert set(rows[-1]) == {"bye"}
    with pytest.raises(SystemExit):
        call_command("kz", "pair", t.slug, "--round", "5", "--json")


def test_knockout_runs_to_a_champion_with_a_replay():
    t = make(6, "knockout", rounds=6)
    ids = [r.player_id for r in t.registrations.order_by("start_rank")]
    r1 = services.round_pair(tournament=t)
    ties = [(g.first_id, g.second_id) for g in r1.games.order_by("board")]
    # seeds 1 and 2 have byes; 4 v 5 and 3 v 6 play (1 and 2 can meet only in the final)
    assert ties == [(ids[0], None), (ids[3], ids[4]), (ids[1], None), (ids[2], ids[5])]
    with pytest.raises(ValidationError, match="no result yet"):
        services.round_pair(tournament=t)
    g45 = r1.games.get(first_id=ids[3])
    g36 = r1.games.get(first_id=ids[2])
    services.game_result_set(game=g45, result=Game.Result.SECOND_WIN)  # seed 5 wins
    services.game_result_set(game=g36, result=Game.Result.DRAW)  # undecided: a replay
    r2 = services.round_pair(tournament=t)
    assert [(g.first_id, g.second_id) for g in r2.games.all()] == [(ids[5], ids[2])]
    assert "replays" in r2.explanation[0]
    services.game_result_set(game=r2.games.get(), result=Game.Result.FIRST_WIN)  # seed 6
    r3 = services.round_pair(tournament=t)
    # semi-finals in bracket order: 1 v 5, 2 v 6
    assert [(g.first_id, g.second_id) for g in r3.games.order_by("board")] == [
        (ids[0], ids[4]),
        (ids[1], ids[5]),
    ]
    for g in r3.games.all():
        services.game_result_set(game=g, result=Game.Result.FIRST_WIN)
    r4 = services.round_pair(tournament=t)
    assert [(g.first_id, g.second_id) for g in r4.games.all()] == [(ids[0], ids[1])]
    services.game_result_set(game=r4.games.get(), result=Game.Result.SECOND_WIN)
    with pytest.raises(ValidationError, match="decided"):
        services.round_pair(tournament=t)
