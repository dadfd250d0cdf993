"""`kz bundle export --pool POOL --out DIR` writes a pool's whole history and `kz ratings verify
DIR` rates it again: the published ratings follow from an untouched bundle; a result, a day, a
published rating or a period changed in the bundle is reported. An event's bundle carries its
results and rounds' dates."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import Game, Round
from tournaments.ratings.verify import RATING_HISTORY
from tournaments.services.ratings import rating_period_close

SEP = dt.datetime(2025, 9, 10, 18, tzinfo=dt.UTC)
OCT = dt.datetime(2025, 10, 10, 18, tzinfo=dt.UTC)
NOV = dt.datetime(2025, 11, 10, 18, tzinfo=dt.UTC)


def played(t, pairs, when, results):  # type: ignore[no-untyped-def]
    rnd = round_make(t, pairs)
    Round.objects.filter(pk=rnd.pk).update(starts_at=when)
    for game, result in zip(rnd.games.order_by("board"), results, strict=True):
        services.game_result_set(game=game, result=result)


@pytest.fixture
def history(db, tmp_path):  # type: ignore[no-untyped-def]
    """Two closed months of the laws pool (a forfeit among them, not rated), one idle month
    closed, and a battle in a month still open; exported to tmp_path/pool."""
    t, (ann, bob, cid, dax) = event_make(officials_make())
    win, draw, loss = Game.Result.FIRST_WIN, Game.Result.DRAW, Game.Result.SECOND_WIN
    played(t, [(ann, bob), (cid, dax)], SEP, [win, draw])
    played(t, [(ann, cid), (bob, dax)], OCT, [loss, Game.Result.FIRST_FORFEIT_WIN])
    played(t, [(ann, dax), (bob, cid)], dt.datetime(2026, 1, 5, tzinfo=dt.UTC), [draw, win])
    rating_period_close(pool="laws", label="2025-12", user=None)
    out = tmp_path / "pool"
    call_command(
        "kz", "bundle", "export", "--pool", "laws", "--out", str(out), stdout=io.StringIO()
    )
    return t, out


def verify(folder: Path) -> tuple[int, dict[str, Any]]:
    out = io.StringIO()
    try:
        call_command("kz", "ratings", "verify", str(folder), "--json", stdout=out)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, json.loads(out.getvalue())


def tamper(folder: Path, change) -> None:  # type: ignore[no-untyped-def]
    path = folder / RATING_HISTORY
    body = json.loads(path.read_text(encoding="utf-8"))
    change(body)
    path.write_text(json.dumps(body), encoding="utf-8")


def test_an_untouched_bundle_verifies(history) -> None:  # type: ignore[no-untyped-def]
    t, out = history
    code, report = verify(out)
    assert (code, report["ok"], report["differences"]) == (0, True, [])
    # September to December closed; the forfeit and January's battles are not rated.
    assert (report["periods"], report["battles"], report["players"]) == (4, 3, 4)
    body = json.loads((out / RATING_HISTORY).read_text(encoding="utf-8"))
    event = body["events"][0]
    assert event["slug"] == t.slug and [r["date"] for r in event["rounds"]] == [
        "2025-09-10",
        "2025-10-10",
        "2026-01-05",
    ]
    forfeit = [r for r in event["results"] if r["result"] == "first_forfeit_win"]
    assert forfeit and forfeit[0]["rated_score"] is None
    text = io.StringIO()
    call_command("kz", "ratings", "verify", str(out), stdout=text)
    assert "the published ratings follow from the results" in text.getvalue()


def _first_rated(body: dict[str, Any]) -> dict[str, Any]:
    return next(r for r in body["events"][0]["results"] if r["rated_score"] is not None)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda b: _first_rated(b).update(rated_score=0.5), id="a-result"),
        pytest.param(lambda b: _first_rated(b).update(day="2025-11-02"), id="a-day"),
        pytest.param(
            lambda b: b["published"][0].update(rating=b["published"][0]["rating"] + 1e-9),
            id="a-published-rating",
        ),
        pytest.param(lambda b: b["published"].pop(), id="a-player-dropped"),
        pytest.param(lambda b: b["periods"].pop(1), id="a-period-dropped"),
        pytest.param(lambda b: b["events"][0]["results"].pop(0), id="a-result-dropped"),
    ],
)
def test_a_tampered_bundle_is_reported(history, change) -> None:  # type: ignore[no-untyped-def]
    _, out = history
    tamper(out, change)
    code, report = verify(out)
    assert code == 1 and report["ok"] is False and report["differences"]


@pytest.mark.parametrize(
    "text", ["not json", '{"format": "kz-bundle/1"}', "[]", '{"format": "kz-rating-history/1"}']
)
def test_a_bundle_that_cannot_be_read_is_refused(history, text) -> None:  # type: ignore[no-untyped-def]
    _, out = history
    (out / RATING_HISTORY).write_text(text, encoding="utf-8")
    code, report = verify(out)
    assert code == 2 and report["ok"] is False and report["error"]


def test_a_missing_folder_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    code, report = verify(tmp_path / "nothing")
    assert code == 2 and "cannot read" in report["error"]


def test_an_events_bundle_carries_its_results_and_round_dates(history, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t, _ = history
    out = tmp_path / "event"
    call_command("kz", "bundle", "export", t.slug, "--out", str(out), stdout=io.StringIO())
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["format"] == "kz-bundle/1" and manifest["pool"] == "laws"
    assert [r["number"] for r in manifest["rounds"]] == [1, 2, 3]
    assert len(manifest["results"]) == 6
    assert {r["rated_score"] for r in manifest["results"]} == {1.0, 0.5, 0.0, None}


def test_export_needs_an_event_or_a_pool_not_both(history, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t, _ = history
    for args in ([], [t.slug, "--pool", "laws"]):
        with pytest.raises(SystemExit) as exc:
            call_command(
                "kz", "bundle", "export", *args, "--out", str(tmp_path / "x"),
                stdout=io.StringIO(), stderr=io.StringIO(),
            )  # fmt: skip
        assert exc.value.code == 2
