"""Migration 0013 gives the stored verdicts of records validated before messages had codes
the code and parameters of each error and warning, read back from their English."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0012_input_bounds")]
AFTER = [("games", "0013_validator_message_codes")]


def _migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


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

    # and back: the keys go again; then forward to the latest state for later tests
    back = _migrate(BEFORE).loader.project_state(BEFORE).apps
    restored = back.get_model("games", "RecordSubmission").objects.get(pk=invalid.pk)
    assert restored.error == {"ply": 30, "text": "L@C17 → E37", "reason": path, "article": "3.5"}
    assert "code" not in restored.warnings[0]
    executor = MigrationExecutor(connection)
    _migrate(executor.loader.graph.leaf_nodes())
