"""The event's own rules apply to every record, through the REST API: its time control
(Art. 6.4, 9.1; the clock adjudicated under the event's), resignation where forbidden (9.2),
a required notation (8.3) and its variants' parameters (13.3, 13.4, 13.6); a record that
keeps them stays valid."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import RecordSubmission
from rules.record import write_record
from tests.games.conftest import CAPTURE, done
from tests.rules.test_clock import record
from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

EVENT_TC = "20/1800:1200"
# Gold's flag falls at ply 30 (a reading of 0:00:00), having completed 6 moves: the event's
# first period requires 20, so gold loses on time; under `2/1800` nothing more was required.
FLAG_AT_30 = {30: "0:00:00"}


def clocked(tc: str | None, clocks: dict[int, str] | None = None, **tags: str) -> str:
    """A 30-ply record (no ending by the moves) with these tags."""
    return write_record(record(tc, clocks or {}, **tags))


def tagged(**tags: str) -> str:
    """The capture game won by green, with these tags added or replaced."""
    head, _, moves = CAPTURE.decode().partition("\n\n")
    lines = [line for line in head.splitlines() if line.split(" ")[0][1:] not in tags]
    lines += [f'[{k} "{v}"]' for k, v in tags.items()]
    return "\n".join(lines) + "\n\n" + moves


def event(slug: str = "rules-open", **settings: Any) -> tuple[Game, Any]:
    """Board 1 of a published round 1 of an event with these settings, and its arbiter."""
    officials = officials_make()
    t, (a, b, c, d) = event_make(officials, slug=slug, **settings)
    return round_make(t, [(a, b), (c, d)]).games.get(board=1), officials.arbiter


def submit(game: Game, user: Any, text: str) -> dict[str, Any]:
    """Submit a record through the API and read its verdict back through the API."""
    api = APIClient()
    api.force_authenticate(user)
    resp = api.post(f"/api/games/{game.pk}/records/", {"text": text}, format="json")
    assert resp.status_code == 201, resp.content
    done(RecordSubmission.objects.get(pk=resp.json()["id"]))
    body = api.get(f"/api/records/{resp.json()['id']}/").json()
    assert body["status"] == "done"
    return body


# Art. 6.4, 9.1: the time control


def test_a_record_under_another_time_control_is_not_valid_and_names_both(worker):
    game, arbiter = event(time_control=EVENT_TC)
    body = submit(game, arbiter, clocked("2/1800", FLAG_AT_30))
    assert body["valid"] is False
    error = body["error"]
    assert error["article"] == "9.1" and error["ply"] is None
    assert "2/1800" in error["reason"] and EVENT_TC in error["reason"]
    assert "2 moves in 30 minutes" in error["reason"]
    assert "20 moves in 30 minutes, then all moves in 20 minutes" in error["reason"]
    # The clock is adjudicated under the event's control, not the record's tag: gold's flag
    # fell before the 20 moves of the first period.
    assert body["clock"] == {"decision": "time", "loser": "gold", "article": "6.5"}


def test_the_clock_is_adjudicated_under_the_events_control(worker):
    # A record naming no time control is played under the event's.
    game, arbiter = event(time_control=EVENT_TC)
    body = submit(game, arbiter, clocked(None, FLAG_AT_30))
    assert body["valid"] is True
    assert body["clock"] == {"decision": "time", "loser": "gold", "article": "6.5"}


def test_under_the_events_shorter_control_the_same_flag_decides_nothing(worker):
    # An event under 2/1800 requires only 2 moves: the same flag decides nothing.
    game, arbiter = event(time_control="2/1800")
    body = submit(game, arbiter, clocked("2/1800", FLAG_AT_30))
    assert body["valid"] is True
    assert body["clock"] == {"decision": None, "loser": None, "article": None}


def test_the_same_time_control_written_otherwise_is_the_same(worker):
    game, arbiter = event(time_control=EVENT_TC)
    body = submit(game, arbiter, clocked(" 20/1800 : 1200 ", FLAG_AT_30))
    assert body["valid"] is True and body["clock"]["loser"] == "gold"


def test_an_unreadable_time_control_tag_is_not_valid(worker):
    game, arbiter = event(time_control=EVENT_TC)
    body = submit(game, arbiter, clocked("90 min"))
    assert body["valid"] is False and body["error"]["article"] == "9.1"
    assert "'90 min'" in body["error"]["reason"] and EVENT_TC in body["error"]["reason"]


def test_an_event_with_no_time_control_takes_the_records(worker):
    game, arbiter = event()
    body = submit(game, arbiter, clocked("2/1800", FLAG_AT_30))
    assert body["valid"] is True
    assert body["clock"]["decision"] is None


# Art. 9.2: resignation


def test_resignation_is_refused_where_the_event_forbids_it(worker):
    game, arbiter = event(resignation_allowed=False)
    body = submit(game, arbiter, clocked(None, Result="gold", Termination="resignation"))
    assert body["valid"] is False
    assert body["error"]["article"] == "9.2"
    assert "resignation" in body["error"]["reason"] and "forbids" in body["error"]["reason"]


def test_resignation_stands_where_the_event_allows_it(worker):
    game, arbiter = event(resignation_allowed=True)
    body = submit(game, arbiter, clocked(None, Result="gold", Termination="resignation"))
    assert body["valid"] is True and body["result_tag"] == "gold"


def test_resignation_before_the_moves_the_event_requires_is_refused(worker):
    # 9.2 "or require a certain number of moves be made before resigning": green (the
    # loser) has made its setup (move 1) and five battle moves.
    game, arbiter = event(resignation_allowed=True, resignation_after_moves=10)
    body = submit(game, arbiter, clocked(None, Result="gold", Termination="resignation"))
    assert body["valid"] is False and body["error"]["article"] == "9.2"
    reason = body["error"]["reason"]
    assert "green resigned having made 6 moves" in reason and "after 10 moves" in reason


def test_resignation_after_the_moves_the_event_requires_stands(worker):
    game, arbiter = event(resignation_allowed=True, resignation_after_moves=6)
    body = submit(game, arbiter, clocked(None, Result="gold", Termination="resignation"))
    assert body["valid"] is True


def test_allowing_resignation_through_the_api_lets_the_next_record_stand(worker):
    game, arbiter = event(resignation_allowed=False)
    text = clocked(None, Result="gold", Termination="resignation")
    assert submit(game, arbiter, text)["valid"] is False
    api = APIClient()
    api.force_authenticate(game.round.tournament.chief_arbiter)
    slug = game.round.tournament.slug
    resp = api.patch(f"/api/tournaments/{slug}/", {"resignation_allowed": True}, format="json")
    assert resp.status_code == 200, resp.content
    assert submit(game, arbiter, text)["valid"] is True


# Art. 8.3: the notation


def test_a_required_notation_is_enforced(worker):
    game, arbiter = event(notation="descriptive")
    body = submit(game, arbiter, CAPTURE.decode())
    assert body["valid"] is False and body["error"]["article"] == "8.3"
    reason = body["error"]["reason"]
    assert "geometric" in reason and "descriptive" in reason


def test_a_record_with_no_notation_tag_is_geometric(worker):
    game, arbiter = event(notation="geometric")
    text = "\n".join(
        line for line in CAPTURE.decode().splitlines() if not line.startswith("[Notation")
    )
    assert submit(game, arbiter, text)["valid"] is True
    assert submit(game, arbiter, tagged(Notation="geometric"))["valid"] is True


def test_no_notation_required_accepts_either(worker):
    game, arbiter = event()
    assert submit(game, arbiter, CAPTURE.decode())["valid"] is True


# Art. 13.3, 13.4, 13.6: the variants' parameters are the event's


@pytest.mark.parametrize(
    ("settings", "tags", "named"),
    [
        (
            {"variants": "clouded", "clouds": "B18,B19"},
            {"Variants": "clouded", "Clouds": "B18,D16"},
            ("B18, D16", "B18, B19"),
        ),
        (
            {"variants": "clouded", "clouds": "B18"},
            {"Variants": "clouded"},
            ("none", "B18"),
        ),
        (
            {"variants": "kaggas-crown", "crown": "I99"},
            {"Variants": "kaggas-crown", "Crown": "A19"},
            ("A19", "I99"),
        ),
        (
            {"variants": "kaggas-crown"},
            {"Variants": "kaggas-crown", "Crown": "east"},
            ("I99", "the corner of the region left empty"),
        ),
        (
            {"variants": "ablative", "ablation_limit": 3},
            {"Variants": "ablative", "AblationLimit": "2"},
            ("is 2", "fixes 3"),
        ),
        (
            {"variants": "ablative"},
            {"Variants": "ablative", "AblationLimit": "2"},
            ("is 2", "fixes none"),
        ),
    ],
)
def test_variant_parameters_other_than_the_events_are_not_valid(worker, settings, tags, named):
    game, arbiter = event(**settings)
    body = submit(game, arbiter, tagged(**tags))
    assert body["valid"] is False and body["error"]["article"] == "9.1"
    for text in named:
        assert text in body["error"]["reason"]


@pytest.mark.parametrize(
    ("settings", "tags"),
    [
        (
            {"variants": "clouded", "clouds": "B19, b18"},
            {"Variants": "clouded", "Clouds": "B18 B19"},
        ),
        (
            {"variants": "kaggas-crown", "crown": "east"},
            {"Variants": "kaggas-crown", "Crown": "I99"},
        ),
        (
            {"variants": "ablative", "ablation_limit": 3},
            {"Variants": "ablative", "AblationLimit": "3"},
        ),
    ],
)
def test_the_events_variant_parameters_keep_a_record_valid(worker, settings, tags):
    game, arbiter = event(**settings)
    assert submit(game, arbiter, tagged(**tags))["valid"] is True


# A record keeping every rule of the event


def test_a_record_keeping_every_rule_stays_valid(worker):
    game, arbiter = event(
        time_control=EVENT_TC,
        notation="geometric",
        resignation_allowed=False,
        variants="kaggas-crown",
        crown="I99",
    )
    body = submit(game, arbiter, tagged(TimeControl=EVENT_TC, Variants="kaggas-crown", Crown="I99"))
    assert body["valid"] is True and body["error"] is None and body["winner"] == "green"
