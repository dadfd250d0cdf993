"""One lock order (tournament, then game, then records) on PostgreSQL: the writes that once
took them in opposite orders run at once without a deadlock or a 500. Each pair of writes
that touch the same rows is fired from parallel threads, each on its own connection: a
deadlock would show as a thread's DeadlockDetected (or a 500), a wait past the test's limit
as a thread that never finished."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from games import services as game_services
from games.models import ClockAdjustment, RecordSubmission
from tests.workers import worker_quiet
from tournaments import services
from tournaments.audit import audit_verify
from tournaments.demo import demo_load
from tournaments.models import Game, Penalty, Player, Registration, Tournament

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _worker_idle_before_flush(transactional_db: None) -> Any:
    """Records these tests queue reach the run's worker, if one is up: let it finish before
    the tables are flushed (a TRUNCATE against a validation in flight can deadlock)."""
    yield
    if os.environ.get("REDIS_URL"):
        worker_quiet()


# A short record: whether it is valid does not matter here, only that it is stored.
RECORD = '[Round "1"]\n\n1. Fl@E49 2. Fl@E33\n'


def _fire(calls: list[tuple[str, dict[str, str]]], user: object) -> list[int]:
    """POST every (path, body) at the same moment from its own thread and connection."""
    barrier = threading.Barrier(len(calls))
    codes = [0] * len(calls)

    def worker(i: int) -> None:
        api = APIClient()
        api.force_authenticate(user)
        barrier.wait()
        try:
            path, body = calls[i]
            codes[i] = api.post(path, body, format="json").status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return codes


def test_irregularities_results_and_records_on_one_game_at_once():
    tournament, login, _, _ = demo_load(rounds_played=0)
    ids = list(tournament.registrations.values_list("player_id", flat=True))
    rnd = services.round_create(tournament=tournament, pairings=[(ids[0], ids[1])])
    game = rnd.games.get()
    user = get_user_model().objects.get(username=login)
    g = f"/api/games/{game.pk}"
    calls = [
        (f"{g}/irregularities/", {"kind": "new_battle", "reason": "illegal placement"}),
        (f"{g}/result/", {"result": "first_win"}),
        (f"{g}/records/", {"text": RECORD}),
        (f"{g}/result/", {"result": "draw"}),
    ]
    for _ in range(6):
        codes = _fire(calls, user)
        # 0: the thread died (a deadlock raises); a 400 is a fair refusal, a 500 is not
        assert set(codes) <= {200, 201, 400}, codes
        assert codes[0] == 201 and codes[2] == 201
    game.refresh_from_db()
    assert game.result in ("", Game.Result.FIRST_WIN, Game.Result.DRAW)
    assert game.irregularities.count() == 6
    assert game.submissions.count() == 6
    ok, _count, problem = audit_verify(tournament=tournament)
    assert ok, problem


class HttpStatus(int):
    """An API call's HTTP status, told apart from the ids the services return."""


def _race_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls at the same moment, each in its own thread and connection; what each
    returned, or the exception it raised (a deadlock is psycopg's DeadlockDetected)."""
    barrier = threading.Barrier(len(calls))
    got: list[Any] = [TimeoutError("never finished")] * len(calls)

    def worker(i: int) -> None:
        barrier.wait()
        try:
            got[i] = calls[i]()
        except Exception as exc:  # noqa: BLE001 - reported to the test as the outcome
            got[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return got


def _race(calls: list[Callable[[], Any]], rounds: int = 1) -> list[list[Any]]:
    return [_race_once(calls) for _ in range(rounds)]


def _no_failure(outcomes: list[list[Any]]) -> None:
    failures = [o for row in outcomes for o in row if isinstance(o, Exception)]
    assert not failures, failures
    # Services return ids and statuses; only the API calls' answers are HTTP statuses.
    codes = [int(o) for row in outcomes for o in row if isinstance(o, HttpStatus)]
    assert all(c < 500 for c in codes), codes


def _one_game() -> tuple[Tournament, Game, Any]:
    tournament, login, _, _ = demo_load(rounds_played=0)
    ids = list(tournament.registrations.values_list("player_id", flat=True))
    rnd = services.round_create(tournament=tournament, pairings=[(ids[0], ids[1])])
    return tournament, rnd.games.get(), get_user_model().objects.get(username=login)


def _api(user: Any, path: str, body: dict[str, Any]) -> Callable[[], int]:
    def call() -> int:
        api = APIClient()
        api.force_authenticate(user)
        return HttpStatus(api.post(path, body, format="json").status_code)

    return call


def test_clock_penalties_adjustments_results_records_and_validation_at_once():
    """A time penalty (its clock effect queues the record again), an arbiter's clock
    adjustment, a result, a new record and a worker validating the game's record: the
    worker holds the record, the others the tournament and the game."""
    tournament, game, user = _one_game()
    sub = game_services.submission_create(game=game, raw=RECORD.encode(), user=user)

    def validate() -> str:
        RecordSubmission.objects.filter(pk=sub.pk).update(status="queued")
        return game_services.submission_validate(submission_id=sub.pk).status

    def adjust() -> int:
        g = Game.objects.get(pk=game.pk)
        return game_services.clock_adjustment_add(
            game=g, side="green", seconds=30, article="6.10", reason="clock fault", user=user
        ).pk

    calls = [
        _api(
            user,
            f"/api/tournaments/{tournament.slug}/penalties/",
            {
                "player": game.first_id,
                "game": game.pk,
                "kind": "opponent_time",
                "reason": "noise",
                "amount": 60,
            },
        ),
        adjust,
        validate,
        _api(user, f"/api/games/{game.pk}/result/", {"result": "first_win"}),
        _api(user, f"/api/games/{game.pk}/records/", {"text": RECORD}),
        _api(user, f"/api/games/{game.pk}/result/", {"result": "draw"}),
    ]
    outcomes = _race(calls, rounds=5)
    _no_failure(outcomes)
    assert all(row[0] == 201 and row[4] == 201 for row in outcomes), outcomes
    assert Penalty.objects.filter(game=game).count() == 5
    # each penalty charged the clock once, each arbiter's adjustment once
    assert ClockAdjustment.objects.filter(game=game).count() == 10
    assert game.submissions.count() == 6
    ok, _count, problem = audit_verify(tournament=tournament)
    assert ok, problem


def test_account_links_registrations_and_withdrawals_of_one_player_at_once():
    """Linking a player's account writes the trail of each of their events (tournament
    first, then the player), while another event registers the player and the first
    penalizes them (each its tournament, then a reference to the player), and withdraws and
    reinstates another."""
    tournament, _game, user = _one_game()
    regs = list(tournament.registrations.select_related("player").order_by("start_rank"))
    player, other = regs[0].player, regs[2]
    accounts = [get_user_model().objects.create_user(f"acct{i}") for i in range(4)]
    events = [
        services.tournament_create(
            name=f"Second {i}", slug=f"second-{i}", start_date=date(2026, 12, 1)
        )
        for i in range(4)
    ]

    def link(account: Any) -> Callable[[], int]:
        return lambda: (
            services.player_link_user(
                player=Player.objects.get(pk=player.pk), account=account, user=None
            ).pk
        )

    def register(event: Tournament) -> Callable[[], int]:
        return lambda: (
            services.registration_create(
                tournament=event, player=Player.objects.get(pk=player.pk), user=None
            ).pk
        )

    def withdraw_and_back() -> str:
        reg = Registration.objects.get(pk=other.pk)
        services.registration_withdraw(registration=reg, user=user)
        return services.registration_reinstate(registration=reg).status

    def warn() -> int:
        # the event holds its row, then refers to the player (a key-share lock on it)
        return services.penalty_impose(
            tournament=tournament,
            player=Player.objects.get(pk=player.pk),
            kind="warning",
            reason="noise",
            user=None,
        ).pk

    for i in range(4):
        calls = [link(accounts[i]), register(events[i]), withdraw_and_back, warn, link(None)]
        _no_failure(_race(calls))
    assert Registration.objects.filter(player=player).count() == 5
    for event in [tournament, *events]:
        ok, _count, problem = audit_verify(tournament=event)
        assert ok, problem


def test_an_expulsion_revoked_while_results_and_penalties_are_entered():
    """Revoking an expulsion reinstates the player (tournament, then registration) while a
    result, a warning and another withdrawal go on in the same event."""
    tournament, game, user = _one_game()
    regs = list(tournament.registrations.order_by("start_rank"))
    for n in range(4):
        expulsion = services.penalty_impose(
            tournament=tournament,
            player=Player.objects.get(pk=regs[2].player_id),
            kind="expulsion",
            reason="fighting",
            user=None,
        )
        calls = [
            lambda e=expulsion: services.penalty_revoke(penalty=e, reason="appeal", user=None).pk,
            _api(user, f"/api/games/{game.pk}/result/", {"result": ("first_win", "draw")[n % 2]}),
            _api(
                user,
                f"/api/tournaments/{tournament.slug}/penalties/",
                {"player": game.second_id, "game": game.pk, "kind": "warning", "reason": "x"},
            ),
            lambda: (
                services.registration_withdraw(
                    registration=Registration.objects.get(pk=regs[3].pk), user=None
                ).status
            ),
        ]
        _no_failure(_race(calls))
        services.registration_withdrawal_undo(
            registration=Registration.objects.get(pk=regs[3].pk), user=None
        )
    assert Registration.objects.get(pk=regs[2].pk).status == Registration.Status.ACTIVE
    ok, _count, problem = audit_verify(tournament=tournament)
    assert ok, problem


def test_a_rounds_results_and_a_batch_of_entrants_beside_single_writes():
    """A round's results at once (the tournament, then every game of the round in id order)
    beside a single result, a record and a time penalty on its games; a batch of entrants
    (the tournament, then new players and registrations) beside a single late entry."""
    tournament, game, user = _one_game()
    rnd = game.round  # round 1, its one game
    base = f"/api/tournaments/{tournament.slug}"
    late = [services.player_create(name=f"Late racer {i}") for i in range(4)]
    results = ["first_win", "draw", "second_win", "first_forfeit_win"]
    for i in range(4):
        calls = [
            _api(user, f"{base}/rounds/1/results/", {"rows": [{"board": 1, "result": results[i]}]}),
            _api(user, f"/api/games/{game.pk}/result/", {"result": results[(i + 1) % 4]}),
            _api(user, f"/api/games/{game.pk}/records/", {"text": RECORD}),
            _api(
                user,
                f"{base}/penalties/",
                {
                    "player": game.first_id,
                    "game": game.pk,
                    "kind": "opponent_time",
                    "reason": "noise",
                    "amount": 60,
                },
            ),
            _api(
                user,
                f"{base}/registrations/bulk/",
                {"rows": [{"name": f"Batch {i} {k}", "rating": 1500 + k} for k in range(20)]},
            ),
            _api(user, f"{base}/registrations/", {"player": late[i].pk}),
        ]
        outcomes = _race(calls)
        _no_failure(outcomes)
        assert all(code in (200, 201) for code in outcomes[0]), outcomes
    assert rnd.games.get().result in results
    assert Registration.objects.filter(tournament=tournament, first_round=2).count() == 84
    ok, _count, problem = audit_verify(tournament=tournament)
    assert ok, problem
