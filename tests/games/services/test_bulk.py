"""Bulk upload, called directly: the size limit, a single record or a zip stored and matched
to its game by its tags, queued as one batch once committed; only arbiters upload."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from games import services
from games.models import RecordSubmission
from games.services import bulk
from tests.games.conftest import CAPTURE
from tournaments.models import Game


def tagged(game: Game, rnd: str = "1") -> bytes:
    """CAPTURE with the Round, Green and Gold tags of `game` (its first placer green)."""
    text = CAPTURE.decode()
    text = text.replace('[Green "Kor"]', f'[Round "{rnd}"]\n[Green "{game.first.name}"]')
    return text.replace('[Gold "Kang"]', f'[Gold "{game.second.name}"]').encode()


def test_upload_size_check():
    services.upload_size_check(services.MAX_UPLOAD_BYTES)
    with pytest.raises(ValidationError) as e:
        services.upload_size_check(services.MAX_UPLOAD_BYTES + 1)
    assert e.value.message_dict == {"file": ["at most 200 MiB"]}


def test_one_record_is_stored_matched_and_queued_as_a_batch(
    officials, game, monkeypatch, django_capture_on_commit_callbacks
):
    sent: list[list[int]] = []
    monkeypatch.setattr(
        bulk, "submission_enqueue_many", lambda *, submission_ids: sent.append(submission_ids)
    )
    t = game.round.tournament
    with django_capture_on_commit_callbacks(execute=True):
        upload = services.bulk_upload(
            tournament=t, data=tagged(game), filename="b1.kzr", user=officials.arbiter
        )
    (sub,) = upload.submissions
    assert (sub.game, sub.tournament, sub.source, sub.filename) == (game, t, "bulk", "b1.kzr")
    assert sub.match_note == "matched to round 1 board 1" and sub.status == "queued"
    assert upload.matched == 1
    assert upload.as_dict() == {
        "stored": 1,
        "matched": 1,
        "records": [
            {"id": sub.pk, "file": "b1.kzr", "game": game.pk, "match": "matched to round 1 board 1"}
        ],
    }
    assert sent == [[sub.pk]]


def test_a_zip_stores_each_record_and_skips_folders_and_oversized_files(officials, game):
    other = Game.objects.get(round=game.round, board=2)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("round1/", b"")
        zf.writestr("round1/board1.kzr", tagged(game))
        zf.writestr("round1/board2.kzr", tagged(other))
        zf.writestr("round1/round9.kzr", tagged(other, rnd="9"))
        zf.writestr("huge.kzr", b"x" * (services.MAX_RECORD_BYTES + 1))
    upload = services.bulk_upload(
        tournament=game.round.tournament, data=buf.getvalue(), filename="r1.zip"
    )
    by_file = {s.filename: s for s in upload.submissions}
    assert sorted(by_file) == ["round1/board1.kzr", "round1/board2.kzr", "round1/round9.kzr"]
    assert by_file["round1/board1.kzr"].game == game
    assert by_file["round1/board2.kzr"].game == other
    assert by_file["round1/round9.kzr"].game is None
    assert (
        by_file["round1/round9.kzr"].match_note
        == "not matched: no game in round 9 between Cid and Dax"
    )
    assert upload.matched == 2
    assert RecordSubmission.objects.count() == 3


def test_only_arbiters_upload(officials, game):
    with pytest.raises(PermissionDenied):
        services.bulk_upload(
            tournament=game.round.tournament,
            data=tagged(game),
            filename="b1.kzr",
            user=officials.stranger,
        )
    assert not RecordSubmission.objects.exists()


def test_an_upload_over_the_limit_is_refused(officials, game, monkeypatch):
    monkeypatch.setattr(bulk, "MAX_UPLOAD_BYTES", 100)
    with pytest.raises(ValidationError, match="file"):
        services.bulk_upload(tournament=game.round.tournament, data=b"x" * 101, filename="big.kzr")
    assert not RecordSubmission.objects.exists()
