"""Record submission and validation (Celery in-process here; a real worker in integration),
the game page, the viewer's board, the API and signatures with locking."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games import selectors, services
from games.models import RecordSubmission
from games.signing import generate_key, sign_record
from klinzha_site.errors import Conflict
from tests.games.conftest import BAD, CAPTURE, RECORDS, done
from tournaments.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def test_valid_record_is_validated(setup):
    game, arbiter = setup
    sub = done(services.submission_create(game=game, raw=CAPTURE, user=arbiter))
    assert sub.status == "done" and sub.valid is True and sub.plies == 31
    assert sub.termination == "capture" and sub.winner == "green"
    assert selectors.proposed_result(submission=sub, first_colour="green") == "first_win"


def test_unreadable_record_is_kept_as_it_came(setup):
    game, arbiter = setup
    raw = b"\xff\xfe not a record \x00"
    sub = done(services.submission_create(game=game, raw=raw, user=arbiter))
    assert bytes(sub.raw) == raw
    assert sub.readable is False and sub.valid is False and sub.status == "done"


def test_illegal_ply_named(setup):
    game, arbiter = setup
    sub = done(services.submission_create(game=game, raw=BAD, user=arbiter))
    assert sub.valid is False and sub.error["ply"] == 21 and sub.error["article"] == "3.3"


def test_versions_and_permissions(setup):
    game, arbiter = setup
    first = services.submission_create(game=game, raw=CAPTURE, user=arbiter)
    second = services.submission_create(game=game, raw=CAPTURE, user=arbiter)
    assert (first.version, second.version) == (1, 2)
    stranger = get_user_model().objects.create_user("s1", password="pw-s1-stranger")
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.submission_create(game=game, raw=CAPTURE, user=stranger)


def test_game_page_board_and_status(client, setup):
    game, arbiter = setup
    client.force_login(arbiter)
    resp = client.post(f"/g/{game.pk}/submit/", {"text": CAPTURE.decode()})
    assert resp.status_code == 302
    done(game.submissions.get())
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "Valid: 31 plies." in page and "capture" in page
    status = client.get(f"/g/{game.pk}/status.json").json()
    assert status["status"] == "done" and status["winner"] == "green"
    board = client.get(f"/g/{game.pk}/board.svg?ply=20")
    assert board.status_code == 200 and board["X-Plies"] == "31"
    assert board["X-Position"].split()[3] == "20"
    assert b"<svg" in board.content
    assert client.post(f"/g/{game.pk}/submit/", {"text": "  "}).status_code == 400


def test_api_submit_and_read(setup):
    game, arbiter = setup
    api = APIClient()
    assert api.post(f"/api/games/{game.pk}/records/", {"text": "x"}, format="json").status_code in (
        401,
        403,
    )
    api.force_authenticate(arbiter)
    resp = api.post(f"/api/games/{game.pk}/records/", {"text": CAPTURE.decode()}, format="json")
    assert resp.status_code == 201
    rid = resp.json()["id"]
    done(RecordSubmission.objects.get(pk=rid))
    assert api.get(f"/api/records/{rid}/").json()["plies"] == 31
    assert api.post(f"/api/games/{game.pk}/records/", {}, format="json").status_code == 400


def test_signatures_lock_the_record(setup):
    game, arbiter = setup
    User = get_user_model()
    sub = done(services.submission_create(game=game, raw=CAPTURE, user=arbiter))
    users = []
    for player in (game.first, game.second):
        user = User.objects.create_user(f"u{player.pk}", password="pw-player-12345")
        player.user = user
        player.save()
        users.append(user)
    for user in users:
        pem, pub = generate_key()
        services.signing_key_register(user=user, public_key=pub)
        sig = sign_record(sub.text, pem)
        services.signature_add(submission=sub, user=user, public_key=pub, signature=sig.signature)
    sub.refresh_from_db()
    assert sub.locked and sub.signatures.count() == 2
    # a forged signature is refused
    from django.core.exceptions import ValidationError

    pem, pub = generate_key()
    services.signing_key_register(user=arbiter, public_key=pub)
    with pytest.raises(ValidationError):
        services.signature_add(
            submission=sub,
            user=arbiter,
            public_key=pub,
            signature=sign_record(CAPTURE.decode().replace("Kor", "X"), pem).signature,
        )
    # Signed by both, the record is final (Art. 8.2): a plain correction is refused, the
    # arbiter's ruling with its reason (Art. 7) makes the next version.
    with pytest.raises(Conflict):
        services.record_correction_create(submission=sub, raw=CAPTURE, user=arbiter)
    ruling = services.record_correction_rule(
        game=game, raw=CAPTURE, reason="a tag misspelt", user=arbiter
    )
    correction = ruling.new_submission
    assert correction.version == 2 and not correction.locked
    assert RecordSubmission.objects.filter(game=game).count() == 2


def test_bulk_upload_zip(setup):
    import io
    import zipfile

    game, arbiter = setup
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for p in sorted(RECORDS.glob("example*.kzr")):  # the four valid examples
            zf.writestr(p.name, p.read_bytes())
        zf.writestr("junk.kzr", b"\x00\x01")
    upload = services.bulk_upload(
        tournament=game.round.tournament, data=buf.getvalue(), filename="round.zip", user=arbiter
    )
    subs = RecordSubmission.objects.filter(pk__in=[s.pk for s in upload.submissions])
    for sub in subs:
        done(sub)
    assert subs.count() == 5
    assert subs.filter(valid=True).count() == 4 and subs.filter(readable=False).count() == 1


def test_requeue_leaves_done_records_alone(setup):
    from datetime import timedelta

    game, arbiter = setup
    done(services.submission_create(game=game, raw=CAPTURE, user=arbiter))
    assert services.submission_requeue_stale(older_than=timedelta(0)) == 0


def test_arbiter_confirms_the_proposed_result(client, setup):
    game, arbiter = setup
    done(services.submission_create(game=game, raw=CAPTURE, user=arbiter))
    client.force_login(arbiter)
    assert client.post(f"/g/{game.pk}/confirm/").status_code == 302
    game.refresh_from_db()
    assert game.result == "first_win"  # green placed first and captured
    assert client.post(f"/g/{game.pk}/confirm/", {"result": "draw"}).status_code == 302
    game.refresh_from_db()
    assert game.result == "draw"


def test_clock_adjustment_revalidates(client, setup):
    from rules.record import read_record, write_record
    from tests.rules.test_clock import record

    game, arbiter = setup
    text = write_record(record("20/1800:1200", {30: "0:00:00"}))
    sub = done(services.submission_create(game=game, raw=text.encode(), user=arbiter))
    assert sub.clock == {"decision": "time", "loser": "gold", "article": "6.5"}
    client.force_login(arbiter)
    resp = client.post(
        f"/g/{game.pk}/clock/",
        {"side": "gold", "seconds": "60", "article": "12.5", "from_ply": "29"},
    )
    assert resp.status_code == 302
    done(sub)
    assert sub.clock["decision"] is None
    assert read_record(text)


def test_bulk_upload_matches_records_to_games(setup, client):
    import io
    import zipfile

    game, arbiter = setup
    t = game.round.tournament
    other = Game.objects.filter(round=game.round, kind="game").exclude(pk=game.pk).first()

    def rec(green: str, gold: str, rnd: str = "1") -> bytes:
        text = CAPTURE.decode()
        text = text.replace('[Green "Kor"]', f'[Round "{rnd}"]\n[Green "{green}"]')
        return text.replace('[Gold "Kang"]', f'[Gold "{gold}"]').encode()

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("board1.kzr", rec(game.first.name, game.second.name))
        # names in other case and spacing, colours swapped against the pairing
        zf.writestr("board2.kzr", rec(f" {other.second.name.upper()} ", other.first.name))
        zf.writestr("stranger.kzr", rec("Nobody", "Somebody"))
        zf.writestr("noround.kzr", rec(game.first.name, game.second.name, rnd="x"))
    api = APIClient()
    api.force_authenticate(arbiter)
    upload = io.BytesIO(buf.getvalue())
    upload.name = "round1.zip"
    resp = api.post(
        f"/api/tournaments/{t.slug}/record-uploads/", {"file": upload}, format="multipart"
    )
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["stored"] == 4 and body["matched"] == 2
    by_file = {r["file"]: r for r in body["records"]}
    assert by_file["board1.kzr"]["game"] == game.pk
    assert by_file["board1.kzr"]["match"] == f"matched to round 1 board {game.board}"
    assert by_file["board2.kzr"]["game"] == other.pk
    assert (
        "FirstPlacement says green but the pairing has gold first" in by_file["board2.kzr"]["match"]
    )
    assert by_file["stranger.kzr"]["game"] is None
    assert "no game in round 1 between Nobody and Somebody" in by_file["stranger.kzr"]["match"]
    assert "Round, Green and Gold" in by_file["noround.kzr"]["match"]
    for sub in RecordSubmission.objects.filter(pk__in=[r["id"] for r in body["records"]]):
        done(sub)
    assert game.submissions.get().valid is True
    # The arbiter's page does the same and says what was not matched.
    client.force_login(arbiter)
    upload = io.BytesIO(rec("Nobody", "Somebody"))
    upload.name = "x.kzr"
    resp = client.post(f"/arbiter/t/{t.slug}/records/", {"file": upload}, follow=True)
    page = resp.content.decode()
    assert "1 records stored, 0 matched" in page and "x.kzr: not matched" in page


def test_batches_validate_each_record_once(setup):
    game, arbiter = setup
    subs = [
        services.submission_create(game=game, raw=CAPTURE, user=arbiter, enqueue=False)
        for _ in range(3)
    ]
    ids = [s.pk for s in subs]
    assert RecordSubmission.objects.filter(pk__in=ids, status="queued").count() == 3
    assert services.submission_validate_many(submission_ids=ids) == 3
    stamps = list(RecordSubmission.objects.filter(pk__in=ids).values_list("validated_at"))
    # A retried batch (the worker died after its work) does nothing twice.
    assert services.submission_validate_many(submission_ids=[*ids, 10**9]) == 3
    assert list(RecordSubmission.objects.filter(pk__in=ids).values_list("validated_at")) == stamps


def test_a_batch_costs_the_same_statements_whatever_its_size(setup):
    """A batch is claimed, read and written in one go (per-record transactions and reads
    kept two workers at the speed of one): twelve records cost the statements of three, and
    each gets the verdict it gets alone, validated once, the game's first colour taken from
    the first record."""
    game, arbiter = setup
    Game.objects.filter(pk=game.pk).update(first_colour_recorded="")

    def stored(n: int) -> list[int]:
        raws = [CAPTURE, BAD, b"\xff not a record"]
        return [
            services.submission_create(game=game, raw=raws[i % 3], user=arbiter, enqueue=False).pk
            for i in range(n)
        ]

    first, small, large = stored(3), stored(3), stored(12)
    services.submission_validate_many(submission_ids=first)
    game.refresh_from_db()
    assert game.first_colour_recorded == selectors.record_first_colour(
        submission=RecordSubmission.objects.get(pk=first[0])
    )
    counts = []
    for ids in (small, large):
        with CaptureQueriesContext(connection) as queries:
            assert services.submission_validate_many(submission_ids=ids) == len(ids)
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
    alone = services.submission_create(game=game, raw=BAD, user=arbiter, enqueue=False)
    alone = services.submission_validate(submission_id=alone.pk)
    rows = list(RecordSubmission.objects.filter(pk__in=large).order_by("pk"))
    assert [r.attempts for r in rows] == [1] * 12
    assert [(r.readable, r.valid) for r in rows[:3]] == [
        (True, True),
        (True, False),
        (False, False),
    ]
    assert rows[0].plies == 31 and rows[0].winner == "green"
    assert rows[1].error == alone.error == rows[4].error and rows[1].plies == alone.plies
