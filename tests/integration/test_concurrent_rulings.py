"""Two arbiters of one event at once on PostgreSQL: ruling on the same disagreement between
an entered result and the signed record, a ruling against the other's result change, queueing
the same failed record again, and a re-queue against a worker's late verdict. One consistent
state every time, one audit entry per change that took effect, and the loser a 409 (never a
500, never a second entry)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from rest_framework.test import APIClient

from games.models import RecordSubmission
from games.services import validation
from tests.games.conftest import done
from tests.games.test_signed_final import battle_make, signed_by_both
from tests.workers import wait_for
from tournaments.audit import Action
from tournaments.demo import demo_load
from tournaments.models import AuditEntry, Game
from tournaments.services.common import tournament_lock

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

RULED = Action.RESULT_DISAGREEMENT_RULED
RESULT_SET = Action.RESULT
REQUEUED = Action.RECORD_REQUEUED


def together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Each call in its own thread (its own connection), released at once by a barrier."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            answers[i] = calls[i]()
        except Exception as exc:  # noqa: BLE001 - the test reports what the thread raised
            answers[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return answers


@pytest.fixture
def contested(worker) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """The demo's board 1 of round 1 entered as a draw while its record, signed by both
    combatants, says green captured the Goal; two arbiters of the event."""
    tournament, login, _, _ = demo_load(rounds_played=1)
    User = get_user_model()
    first = User.objects.get(username=login)
    second = User.objects.create_user("arbiter2", password="pw-second-arbiter")
    tournament.arbiters.add(second)
    game = Game.objects.filter(round__tournament=tournament, kind=Game.Kind.GAME).first()
    assert game is not None and game.result == Game.Result.DRAW
    rid = signed_by_both(battle_make(game, first))
    assert done(RecordSubmission.objects.get(pk=rid)).winner == "green"
    apis = []
    for user in (first, second):
        api = APIClient()
        api.force_authenticate(user)
        apis.append(api)
    return {"game": game, "apis": apis, "record": rid}


def post(api: APIClient, url: str, body: dict[str, Any]) -> Callable[[], Any]:
    return lambda: api.post(url, body, format="json")


def entries(action: str, game: Game) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action, object_id=str(game.pk)).order_by("seq"))


def disagreement(api: APIClient, game: Game) -> Any:
    return api.get(f"/api/games/{game.pk}/").json()["record_disagreement"]


@pytest.mark.parametrize(
    "decisions",
    [("record", "record"), ("entered", "entered"), ("record", "entered")],
    ids=["both take the record", "both uphold the entry", "one each"],
)
def test_two_arbiters_ruling_on_one_disagreement_at_once(contested, decisions):
    game, apis = contested["game"], contested["apis"]
    url = f"/api/games/{game.pk}/record-disagreement/"
    bodies = [
        {"decision": d, "reason": f"Art. 12.4, ruled by arbiter {i}", "entered": "draw"}
        for i, d in enumerate(decisions)
    ]
    results_before = len(entries(RESULT_SET, game))
    answers = together([post(api, url, body) for api, body in zip(apis, bodies, strict=True)])
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 409], [(a.status_code, a.content[:200]) for a in answers]
    winner = next(i for i, a in enumerate(answers) if a.status_code == 200)
    ruled = entries(RULED, game)
    assert len(ruled) == 1
    assert ruled[0].after["decision"] == decisions[winner]
    assert ruled[0].after["reason"] == bodies[winner]["reason"]
    game.refresh_from_db()
    expected = Game.Result.FIRST_WIN if decisions[winner] == "record" else Game.Result.DRAW
    assert game.result == expected
    # taking the record's result is one result change, upholding the entry none
    assert len(entries(RESULT_SET, game)) - results_before == (decisions[winner] == "record")
    assert disagreement(apis[0], game) is None


def test_a_ruling_racing_the_other_arbiters_result_change(contested):
    """One upholds the draw both saw while the other enters a loss for green: whichever
    takes the game first, the draw is upheld only if it still stood, and the other's entry is
    kept; a later entry that contradicts the record is a disagreement again."""
    game, apis = contested["game"], contested["apis"]
    rule = post(
        apis[0],
        f"/api/games/{game.pk}/record-disagreement/",
        {"decision": "entered", "reason": "Art. 12.4: the Goal moved late", "entered": "draw"},
    )
    change = post(apis[1], f"/api/games/{game.pk}/result/", {"result": "second_win"})
    ruled_answer, changed_answer = together([rule, change])
    assert changed_answer.status_code == 200, changed_answer.content
    assert ruled_answer.status_code in (200, 409), ruled_answer.content
    game.refresh_from_db()
    assert game.result == Game.Result.SECOND_WIN
    ruled = entries(RULED, game)
    assert len(ruled) == (ruled_answer.status_code == 200)
    for entry in ruled:  # what was upheld is what the arbiter saw
        assert entry.before["result"] == "draw" and entry.after["result"] == "draw"
    assert disagreement(apis[0], game)["entered"] == "second_win"


def test_a_ruling_made_on_a_result_changed_meanwhile_is_refused(contested):
    """The order forced: the other arbiter's change takes the game first (both wait on the
    tournament's row, the change asked first), then the ruling on the draw the arbiter saw.
    The ruling is refused (409) and upholds nothing; without the result it was made on it
    would uphold a result nobody ruled on."""
    game, apis = contested["game"], contested["apis"]
    tournament_id = game.round.tournament_id
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                tournament_lock(tournament_id)
                held.set()
                release.wait(20)
        finally:
            connection.close()

    answers: dict[str, Any] = {}

    def send(name: str, call: Callable[[], Any]) -> threading.Thread:
        def run() -> None:
            try:
                answers[name] = call()
            finally:
                connection.close()

        thread = threading.Thread(target=run)
        thread.start()
        return thread

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    changer = send(
        "change", post(apis[1], f"/api/games/{game.pk}/result/", {"result": "second_win"})
    )
    assert wait_for(lambda: waiting_on_locks() >= 1, 10)
    ruler = send(
        "rule",
        post(
            apis[0],
            f"/api/games/{game.pk}/record-disagreement/",
            {"decision": "entered", "reason": "Art. 12.4", "entered": "draw"},
        ),
    )
    assert wait_for(lambda: waiting_on_locks() >= 2, 10)
    release.set()
    for thread in (holder, changer, ruler):
        thread.join(30)
    assert answers["change"].status_code == 200, answers["change"].content
    assert answers["rule"].status_code == 409, answers["rule"].content
    assert "entered" in answers["rule"].json()
    assert entries(RULED, game) == []
    game.refresh_from_db()
    assert game.result == Game.Result.SECOND_WIN


def waiting_on_locks() -> int:
    """How many other connections wait for a lock (the requests queued behind the holder)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND datname = current_database() AND pid <> pg_backend_pid()"
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def failed_record(game: Game) -> RecordSubmission:
    """A record of the game whose validation failed for good."""
    sub = RecordSubmission.objects.create(
        game=game,
        tournament=game.round.tournament,
        raw=b'[Event "x"]\n\n',
        status=RecordSubmission.Status.FAILED,
        failure_reason="worker lost",
        attempts=3,
    )
    return sub


def test_two_arbiters_queueing_one_failed_record_again_at_once(contested):
    game, apis = contested["game"], contested["apis"]
    sub = failed_record(game)
    url = f"/api/records/{sub.pk}/requeue/"
    answers = together([post(api, url, {}) for api in apis])
    assert sorted(a.status_code for a in answers) == [200, 409], [a.content for a in answers]
    requeued = list(AuditEntry.objects.filter(action=REQUEUED, object_id=str(sub.pk)))
    assert len(requeued) == 1
    assert wait_for(
        lambda: RecordSubmission.objects.get(pk=sub.pk).status == RecordSubmission.Status.DONE, 60
    )


def test_a_requeue_racing_a_late_verdict_keeps_the_new_validation(contested):
    """A worker stopped on its last attempt: the sweep failed the record, the arbiter queues
    it again while the stopped worker comes back with its verdict. The late verdict is
    dropped (the record left the claim it came from), whichever of the two goes first; the
    re-queued validation stores the record's verdict; one re-queue in the trail."""
    game, apis = contested["game"], contested["apis"]
    sub = RecordSubmission.objects.create(
        game=game, tournament=game.round.tournament, raw=b'[Event "late"]\n\n'
    )
    subs, claims = validation.submissions_claim(submission_ids=[sub.pk])
    assert claims, "the record could not be claimed"
    RecordSubmission.objects.filter(pk=sub.pk).update(attempts=3)
    time.sleep(0.05)
    validation.submission_requeue_stale(older_than=timedelta(0))
    assert RecordSubmission.objects.get(pk=sub.pk).status == RecordSubmission.Status.FAILED
    late = {sub.pk: {**verdict_stub(), "error": "the late verdict"}}
    url = f"/api/records/{sub.pk}/requeue/"
    answers = together(
        [
            post(apis[0], url, {}),
            lambda: validation.claims_store(submissions=subs, claims=claims, outcomes=late),
        ]
    )
    assert answers[0].status_code == 200, answers[0].content
    assert not isinstance(answers[1], Exception), answers[1]
    assert wait_for(
        lambda: RecordSubmission.objects.get(pk=sub.pk).status == RecordSubmission.Status.DONE, 60
    )
    sub.refresh_from_db()
    assert sub.error != "the late verdict"
    assert AuditEntry.objects.filter(action=REQUEUED, object_id=str(sub.pk)).count() == 1


def verdict_stub() -> dict[str, Any]:
    """A verdict as claims_judge makes one (what the late worker would store)."""
    return {
        "readable": True,
        "valid": True,
        "plies": 0,
        "error": "",
        "warnings": [],
        "termination": "",
        "winner": "",
        "result": "",
        "clock": None,
        "first_colour": "",
    }
