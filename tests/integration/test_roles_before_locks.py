"""Issue 22, item 5, on PostgreSQL: a caller without the role is refused before any row lock
(while another transaction holds the tournament's row, the refusal comes at once instead of
after waiting for it), and what a lock protects is read again once it is held."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection, transaction
from rest_framework.test import APIClient

from games.models import RecordSubmission
from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import Game, Penalty, Round
from tournaments.services.common import tournament_lock

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# Longer than a refusal takes, far shorter than a test's patience.
LOCK_TIMEOUT = "3s"


@pytest.fixture
def event() -> dict[str, Any]:
    """Ann – Bob and Cid – Dax in round 1 (pending, a record on board 1), round 2 proposed;
    Ann's account is a player's."""
    officials = officials_make()
    t, (a, b, c, d) = event_make(officials, slug="locks-open")
    a.user = get_user_model().objects.create_user("ann", password="pw-ann-12345")
    a.save(update_fields=["user"])
    r1 = round_make(t, [(a, b), (c, d)])
    round_make(t, [(a, c), (b, d)], draft=True)
    game = r1.games.get(board=1)
    sub = RecordSubmission.objects.create(game=game, raw=b'[Event "x"]\n\n', status="done")
    return {"t": t, "game": game, "sub": sub, "officials": officials, "ann": a.user}


def holding_the_tournament(tournament_id: int, then: Callable[[], Any] | None = None) -> Any:
    """Start a thread that locks the tournament's row in its own transaction and keeps it
    until released (doing `then` before it commits); returns (locked, release, thread)."""
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                tournament_lock(tournament_id)
                locked.set()
                release.wait(20)
                if then is not None:
                    then()
        finally:
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    assert locked.wait(10), "the holder never got the lock"
    return locked, release, thread


def post_timed(user: Any, path: str, body: dict[str, Any]) -> tuple[int | str, float]:
    api = APIClient()
    api.force_authenticate(user)
    with connection.cursor() as cursor:
        cursor.execute(f"SET lock_timeout = '{LOCK_TIMEOUT}'")
    start = time.monotonic()
    try:
        status: int | str = api.post(path, body, format="json").status_code
    except OperationalError as exc:  # the lock_timeout: it waited for the row
        status = f"waited for a row lock: {exc}"
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")
    return status, time.monotonic() - start


CALLS = {
    "result": ("/api/games/{game}/result/", {"result": "draw"}),
    "countersign": ("/api/games/{game}/countersign/", {}),
    "timeout": ("/api/games/{game}/timeout/", {}),
    "sign": ("/api/records/{sub}/signatures/", {"public_key": "k", "signature": "s"}),
}


# A combatant may sign her own game's record, so "ann" is refused every call but "sign"
# (and CI fails on any skipped integration test).
REFUSED = [(call, who) for call in sorted(CALLS) for who in ("stranger", "ann")]
REFUSED.remove(("sign", "ann"))


@pytest.mark.parametrize(("call", "who"), REFUSED)
def test_a_caller_without_the_role_is_refused_without_waiting_for_the_lock(event, call, who):
    user = event["ann"] if who == "ann" else event["officials"].stranger
    path, body = CALLS[call]
    path = path.format(game=event["game"].pk, sub=event["sub"].pk)
    _, release, thread = holding_the_tournament(event["t"].pk)
    try:
        status, seconds = post_timed(user, path, body)
    finally:
        release.set()
        thread.join(20)
    assert status == 403, status
    assert seconds < 2, f"refused after {seconds:.1f} s: it waited for the lock first"


def test_an_expulsion_by_a_plain_arbiter_is_refused_without_waiting(event):
    t, ann = event["t"], event["game"].first
    _, release, thread = holding_the_tournament(t.pk)
    try:
        body = {"player": ann.pk, "kind": "expulsion", "reason": "x"}
        status, seconds = post_timed(
            event["officials"].arbiter, f"/api/tournaments/{t.slug}/penalties/", body
        )
    finally:
        release.set()
        thread.join(20)
    assert (status, seconds < 2) == (403, True)


def test_a_penalty_reads_its_game_again_once_the_lock_is_held(event):
    """The arbiter asks for a penalty on a proposed round's game while another arbiter, who
    holds the tournament, pairs that round again: the game is gone once the lock is had,
    and the penalty is refused (400), not stored against a game that no longer exists."""
    t = event["t"]
    draft = Round.objects.get(tournament=t, status=Round.Status.DRAFT)
    game = draft.games.get(board=1)
    ann, cid = game.first_id, game.second_id
    others = [g for g in draft.games.all() if g.pk != game.pk][0]
    repaired = [(ann, others.second_id), (others.first_id, cid)]

    def pair_again() -> None:
        services.round_pairings_edit(round=draft, pairings=repaired)

    _, release, thread = holding_the_tournament(t.pk, then=pair_again)
    got: dict[str, Any] = {}

    def impose() -> None:
        api = APIClient()
        api.force_authenticate(event["officials"].arbiter)
        body = {"player": ann, "game": game.pk, "kind": "battle_lost", "reason": "phone"}
        try:
            got["status"] = api.post(f"/api/tournaments/{t.slug}/penalties/", body, format="json")
        except Exception as exc:  # noqa: BLE001 - reported to the test as the outcome
            got["status"] = exc
        finally:
            connection.close()

    asking = threading.Thread(target=impose)
    asking.start()
    time.sleep(1)  # the request is past its checks and waits for the tournament
    release.set()
    thread.join(20)
    asking.join(20)
    resp = got["status"]
    assert not isinstance(resp, Exception), resp
    assert resp.status_code == 400, resp.content
    assert "pairings were edited" in str(resp.json())
    assert not Penalty.objects.filter(kind="battle_lost").exists()
    assert not Game.objects.filter(pk=game.pk).exists()
