"""Migration 0013 gives the stored verdicts of records validated before messages had codes
the code and parameters of each error and warning, read back from their English."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.exceptions import IrreversibleError
from django.db.migrations.executor import MigrationExecutor

from tests.migrating import migrate as _migrate
from tests.migrating import migrate_latest

BEFORE = [("games", "0012_input_bounds")]
AFTER = [("games", "0013_validator_message_codes")]


@pytest.mark.django_db(transaction=True)
def test_stored_verdicts_get_the_codes_their_english_reads_back_to() -> None:
    old = _migrate(BEFORE).loader.project_state(BEFORE).apps
    Submission = old.get_model("games", "RecordSubmission")
    path = "the Lancer's path to E37 crosses the enemy Blockader's zone of control"
    invalid = Submission.objects.create(
        raw=b"x",
        error={"ply": 30, "text": "L@C17 → E37", "reason": path, "article": "3.5"},
        warnings=[
            {
                "ply": None,
                "reason": "no FirstPlacement tag: green is taken to place first",
                "article": "2.4",
            },
            {"ply": 12, "reason": "destination key V should be none", "article": "Appendix C"},
        ],
    )
    unknown = Submission.objects.create(
        raw=b"y",
        error={"ply": None, "text": None, "reason": "words no template says", "article": None},
    )
    valid = Submission.objects.create(raw=b"z", error=None, warnings=[])

    new = _migrate(AFTER).loader.project_state(AFTER).apps
    Submission = new.get_model("games", "RecordSubmission")
    got = Submission.objects.get(pk=invalid.pk)
    assert got.error == {
        "ply": 30,
        "text": "L@C17 → E37",
        "reason": path,
        "article": "3.5",
        "code": "path_crosses_zone",
        "params": {"kind": "Lancer", "dest": "E37", "owner": "the enemy Blockader's"},
    }
    assert [(w["code"], w["params"]) for w in got.warnings] == [
        ("no_first_placement", {}),
        ("destination_key", {"written": "V", "key": "none"}),
    ]
    assert got.warnings[1]["reason"] == "destination key V should be none"
    left = Submission.objects.get(pk=unknown.pk).error
    assert (left["code"], left["params"], left["reason"]) == (None, {}, "words no template says")
    untouched = Submission.objects.get(pk=valid.pk)
    assert (untouched.error, untouched.warnings) == (None, [])

    # and not back: the reverse would strip the codes of verdicts stored with them since, so
    # migrating back refuses and every code stays; then the latest state for later tests
    with pytest.raises(IrreversibleError):
        MigrationExecutor(connection).migrate(BEFORE)
    kept = Submission.objects.get(pk=invalid.pk)
    assert (kept.error["code"], kept.warnings[0]["code"]) == (
        "path_crosses_zone",
        "no_first_placement",
    )
    migrate_latest()
