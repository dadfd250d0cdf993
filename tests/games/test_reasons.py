"""A reason an official gives (a clock adjustment and its revocation, an irregularity, a
penalty and its revocation) is kept for good in the audit trail: at most 2000 characters and,
where one is required, something a reader sees, the same through the pages as through the
API. A longer one, or one of invisible characters only (a direction mark, a zero-width
space), is refused naming `reason`, and nothing is stored."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from rest_framework.test import APIClient

from games.models import ClockAdjustment, Irregularity
from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import AuditEntry, Penalty

pytestmark = pytest.mark.django_db

LONG = "x" * 100_000
# What a reader sees of these: nothing (right-to-left mark and override, zero-width space,
# word joiner, no-break space).
INVISIBLE = "\u200f\u202e \u200b\u2060\u00a0"


@pytest.fixture
def event() -> dict[str, Any]:
    officials = officials_make()
    t, (ann, bob, *_) = event_make(officials, slug="reasons-open")
    game = round_make(t, [(ann, bob)]).games.get()
    adj = ClockAdjustment.objects.create(game=game, side="green", seconds=30, article="6.12")
    penalty = services.penalty_impose(
        tournament=t, player=ann, kind="warning", reason="noise", user=None
    )
    page = Client()
    page.force_login(officials.arbiter)
    api = APIClient()
    api.force_authenticate(officials.arbiter)
    return {"t": t, "game": game, "adj": adj, "penalty": penalty, "page": page, "api": api}


def stored(e: dict[str, Any]) -> list[Any]:
    """Everything a reason could have been stored with."""
    return [
        list(ClockAdjustment.objects.values_list("id", "reason", "revoke_reason")),
        list(Irregularity.objects.values_list("id", "reason")),
        list(Penalty.objects.values_list("id", "reason")),
        AuditEntry.objects.count(),
    ]


Send = Callable[[dict[str, Any], str], Any]


def page_clock(e: dict[str, Any], reason: str) -> Any:
    body = {"side": "gold", "seconds": "60", "article": "6.12", "from_ply": "1", "reason": reason}
    return e["page"].post(f"/g/{e['game'].pk}/clock/", body)


def page_clock_revoke(e: dict[str, Any], reason: str) -> Any:
    return e["page"].post(f"/g/{e['game'].pk}/clock/{e['adj'].pk}/revoke/", {"reason": reason})


def page_irregularity(e: dict[str, Any], reason: str) -> Any:
    body = {"game": e["game"].pk, "kind": "draw", "reason": reason}
    return e["page"].post("/arbiter/t/reasons-open/irregularities/", body)


def page_penalty(e: dict[str, Any], reason: str) -> Any:
    body = {"player": e["penalty"].player_id, "kind": "warning", "reason": reason}
    return e["page"].post("/arbiter/t/reasons-open/penalties/", body)


def page_revoke(e: dict[str, Any], reason: str) -> Any:
    body = {"penalty": e["penalty"].pk, "reason": reason}
    return e["page"].post("/arbiter/t/reasons-open/penalties/revoke/", body)


def api_clock_revoke(e: dict[str, Any], reason: str) -> Any:
    url = f"/api/games/{e['game'].pk}/clock-adjustments/{e['adj'].pk}/revoke/"
    return e["api"].post(url, {"reason": reason}, format="json")


def api_irregularity(e: dict[str, Any], reason: str) -> Any:
    url = f"/api/games/{e['game'].pk}/irregularities/"
    return e["api"].post(url, {"kind": "draw", "reason": reason}, format="json")


def api_penalty(e: dict[str, Any], reason: str) -> Any:
    body = {"player": e["penalty"].player_id, "kind": "warning", "reason": reason}
    return e["api"].post("/api/tournaments/reasons-open/penalties/", body, format="json")


def api_revoke(e: dict[str, Any], reason: str) -> Any:
    body = {"penalty": e["penalty"].pk, "reason": reason}
    return e["api"].post("/api/tournaments/reasons-open/revocations/", body, format="json")


PAGES: list[Send] = [page_clock, page_clock_revoke, page_irregularity, page_penalty, page_revoke]
REQUIRED: list[Send] = [
    page_clock_revoke,
    page_irregularity,
    page_penalty,
    page_revoke,
    api_clock_revoke,
    api_irregularity,
    api_penalty,
    api_revoke,
]


def refusal_text(resp: Any) -> str:
    """What the refused request told the arbiter: the page's error, the message it left for
    the next page, or the API's body."""
    if resp.status_code == 302:
        errors = [m.message for m in get_messages(resp.wsgi_request) if m.level_tag == "error"]
        assert errors, "redirected without an error: the write was taken"
        return " ".join(errors)
    assert resp.status_code == 400, (resp.status_code, resp.content[:300])
    return resp.content.decode()


@pytest.mark.parametrize("send", PAGES, ids=[s.__name__ for s in PAGES])
def test_a_page_refuses_a_reason_longer_than_the_api_takes(event, send):
    before = stored(event)
    said = refusal_text(send(event, LONG))
    assert "at most 2000 characters" in said, said[:300]
    assert stored(event) == before


@pytest.mark.parametrize("send", REQUIRED, ids=[s.__name__ for s in REQUIRED])
def test_a_required_reason_of_invisible_characters_only_is_none(event, send):
    before = stored(event)
    said = refusal_text(send(event, INVISIBLE))
    assert "say " in said, said[:300]  # "say why", "say what happened"
    if send.__name__.startswith("api"):
        assert "reason" in send(event, INVISIBLE).json()
    assert stored(event) == before
    taken = send(event, "\u200fthe flag fell\u200f")  # marks around words are fine
    assert taken.status_code in (200, 201, 302), taken.content[:300]
    assert stored(event) != before


@pytest.mark.parametrize("send", [api_penalty, api_revoke], ids=["penalty", "revocation"])
@pytest.mark.parametrize("odd", [10**30, 1.5, True], ids=["10^30", "float", "true"])
def test_a_reason_sent_as_a_number_is_refused_not_stored_as_its_digits(event, send, odd):
    before = stored(event)
    resp = send(event, odd)
    assert resp.status_code == 400 and resp.json()["reason"] == ["a string is expected"]
    assert stored(event) == before
