"""Bad input through HTTP (issue 14): digits that are not ASCII, numbers past their column,
NUL and control characters, impossible dates, JSON nested too deep, records that are not text:
each a 400 that says what is wrong, and nothing stored."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from rest_framework.test import APIClient

from games.models import ClockAdjustment, Irregularity, RecordSubmission
from tournaments import services
from tournaments.models import ByeRequest, Game, Penalty, Player, Round, Tournament

pytestmark = pytest.mark.django_db
User = get_user_model()
T = "/api/tournaments/bounds"
A = "/arbiter/t/bounds"
DEEP = "[" * 100_000 + "]" * 100_000
NESTED = '{"a":' * 5000 + "1" + "}" * 5000


@dataclass
class World:
    t: Tournament
    game: Game
    players: list[Player]
    sub: RecordSubmission
    penalty: Penalty
    arbiter: Any
    page: Client
    api: APIClient


@pytest.fixture
def w() -> World:
    organizer = User.objects.create_user("org", password="pw-org-12345")
    organizer.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    arbiter = User.objects.create_user("arb", password="pw-arb-12345")
    t = services.tournament_create(
        name="Bounds Open",
        slug="bounds",
        start_date=date(2026, 11, 1),
        end_date=date(2026, 11, 3),
        organizer=organizer,
        rounds_planned=5,
    )
    t.chief_arbiter = arbiter
    t.save()
    players = [services.player_create(name=f"P{i}", rating=2000 - i) for i in range(4)]
    for p in players:
        services.registration_create(tournament=t, player=p)
    services.round_create(
        tournament=t, pairings=[(players[0].pk, players[1].pk), (players[2].pk, players[3].pk)]
    )
    game = Game.objects.get(round__tournament=t, round__number=1, board=1)
    sub = RecordSubmission.objects.create(
        game=game, raw=b'[Event "x"]\n\n', status=RecordSubmission.Status.DONE, valid=True
    )
    penalty = services.penalty_impose(
        tournament=t, player=players[1], kind="warning", reason="noise", user=None
    )
    page = Client()
    page.force_login(arbiter)
    api = APIClient()
    api.force_authenticate(arbiter)
    return World(t, game, players, sub, penalty, arbiter, page, api)


def stored(w: World) -> list[Any]:
    """Everything a refused request must leave as it was."""
    w.t.refresh_from_db()
    return [
        Penalty.objects.count(),
        ByeRequest.objects.count(),
        RecordSubmission.objects.count(),
        Irregularity.objects.count(),
        ClockAdjustment.objects.count(),
        sorted(Game.objects.values_list("id", "first_id", "second_id", "result")),
        sorted(Round.objects.values_list("id", "status", "starts_at")),
        Tournament.objects.count(),
        (w.t.rounds_planned, w.t.end_date, w.t.venue),
        w.t.audit.count(),
        Player.objects.count(),
    ]


def refused(w: World, before: list[Any], resp: Any, *words: str) -> None:
    """A 400 naming what is wrong (or, for pages, a redirect with the message), nothing stored."""
    text = resp.content.decode("utf-8", "replace")
    if resp.status_code == 302:  # an arbiter page: the message is shown on the next page
        from django.contrib.messages import get_messages

        text = " ".join(str(m) for m in get_messages(resp.wsgi_request))
        assert "error" in " ".join(m.tags for m in get_messages(resp.wsgi_request)) or text
    else:
        assert resp.status_code == 400, f"{resp.status_code}: {text[:300]}"
    for word in words:
        assert word in text, f"{word!r} not in {text[:300]!r}"
    assert stored(w) == before, "a refused request changed something"


# Unicode digits: str.isdigit() takes them, int() does not (or reads "١" as 1).
DIGITS = ["²", "١", "٣", "𝟙", "1²", "₁", "½", " 1", "1 ", "+1", "-1", "0x1", "1e3", "", "1.0"]


@pytest.mark.parametrize("value", ["²", "١", "1²", "-1", "99999999999999999999999"])
def test_audit_filters_take_ascii_player_ids_only(w: World, value: str) -> None:
    before = stored(w)
    resp = w.page.get(A + "/audit/", {"player": value})
    refused(w, before, resp, "player")
    resp = w.api.get(T + "/audit/", {"player": value})
    refused(w, before, resp, "player")


@pytest.mark.parametrize("value", ["²", "١", "1²", "99999999999999999999999"])
def test_console_forms_refuse_unicode_digits(w: World, value: str) -> None:
    before = stored(w)
    resp = w.page.post(A + "/irregularities/", {"game": value, "kind": "draw", "reason": "x"})
    refused(w, before, resp, "game")
    services.round_create(
        tournament=w.t,
        pairings=[(w.players[0].pk, w.players[2].pk), (w.players[1].pk, w.players[3].pk)],
        status="draft",
    )
    before = stored(w)
    resp = w.page.post(A + "/round/2/edit/", {"board-1-first": value, "board-1-second": "1"})
    refused(w, before, resp, "board 1")
    data = {"player": w.players[0].pk, "kind": "warning", "reason": "x", "round_number": value}
    resp = w.page.post(A + "/penalties/", data)
    refused(w, before, resp, "round")


@pytest.mark.parametrize("value", ["²", "١", "abc", "1²", "99999999999999999999999"])
def test_sign_refuses_a_submission_id_that_is_not_ascii_digits(w: World, value: str) -> None:
    before = stored(w)
    body = {"submission": value, "public_key": "k", "signature": "s"}
    resp = w.page.post(f"/g/{w.game.pk}/sign/", body, content_type="application/json")
    refused(w, before, resp, "submission")


@pytest.mark.parametrize("value", ["abc", "²", "1²", "-1", "99999999999999999999999"])
def test_board_and_canonical_text_refuse_a_submission_that_is_no_id(w: World, value: str) -> None:
    for path in ("board.svg", "canonical.txt"):
        resp = Client().get(f"/g/{w.game.pk}/{path}", {"submission": value})
        assert resp.status_code == 400, (path, resp.status_code)
        assert b"submission" in resp.content


def test_bulk_upload_with_a_round_tag_in_unicode_digits_is_stored_unmatched(w: World) -> None:
    bad = b'[Round "\xc2\xb2"]\n[Green "P0"]\n[Gold "P1"]\n\n'
    f = io.BytesIO(bad)
    f.name = "r.kzr"
    resp = w.api.post(T + "/record-uploads/", {"file": f}, format="multipart")
    assert resp.status_code == 201, resp.content
    sub = RecordSubmission.objects.latest("pk")
    assert sub.game_id is None and "Round" in sub.match_note


@pytest.mark.parametrize("body", [DEEP, NESTED, "[" * 40 + "]" * 40])
def test_json_nested_too_deep_is_a_400_on_the_api(w: World, body: str) -> None:
    before = stored(w)
    for url in (T + "/penalties/", T + "/pair/", f"/api/games/{w.game.pk}/records/", T + "/"):
        call = w.api.patch if url == T + "/" else w.api.post
        resp = call(url, body, content_type="application/json")
        refused(w, before, resp, "deep")


@pytest.mark.parametrize("body", [DEEP, NESTED, '{"public_key": ' + "[" * 40 + "]" * 40 + "}"])
def test_json_nested_too_deep_is_a_400_on_the_json_views(w: World, body: str) -> None:
    before = stored(w)
    for url in ("/keys/", f"/g/{w.game.pk}/sign/"):
        resp = w.page.post(url, body, content_type="application/json")
        refused(w, before, resp)


def test_numbers_past_their_column_are_refused_at_the_edge(w: World) -> None:
    before = stored(w)
    p = w.players[0].pk
    resp = w.api.post(T + "/bye-requests/", {"player": p, "round": 40000}, format="json")
    refused(w, before, resp, "round")
    resp = w.page.post(A + "/byes/", {"player": p, "round_number": "40000"})
    refused(w, before, resp, "round")
    for data in (
        {"player": p, "kind": "warning", "reason": "x", "round_number": 99999999},
        {"player": p, "kind": "offender_time", "reason": "x", "amount": "1e12"},
        {"player": p, "kind": "offender_time", "reason": "x", "amount": 1e12},
    ):
        if data["kind"] == "offender_time":
            data["game"] = w.game.pk
        resp = w.api.post(T + "/penalties/", data, format="json")
        refused(w, before, resp)
        resp = w.page.post(A + "/penalties/", {k: str(v) for k, v in data.items()})
        refused(w, before, resp)
    resp = w.page.post(
        f"/g/{w.game.pk}/clock/", {"side": "green", "seconds": "9" * 30, "reason": "x"}
    )
    refused(w, before, resp, "seconds")
    resp = w.page.post(f"/g/{w.game.pk}/clock/", {"side": "green", "seconds": "²", "reason": "x"})
    refused(w, before, resp, "seconds")
    resp = w.api.patch(T + "/", {"rounds_planned": 10**12}, format="json")
    refused(w, before, resp, "rounds_planned")
    # A rating has four digits (TRF columns 49-52): a fifth would break the export's line.
    for rating in (10000, 10**12, -1):
        resp = w.api.post("/api/players/", {"name": "Zed", "rating": rating}, format="json")
        refused(w, before, resp, "rating")
        resp = w.page.post(A + "/entrants/", {"name": "Zed", "rating": str(rating)})
        refused(w, before, resp, "rating")


@pytest.mark.parametrize("bad", ["\x00", "a\x00b", "\x1b[31m", "x\x07"])
def test_nul_and_control_characters_are_refused_in_reasons_and_names(w: World, bad: str) -> None:
    before = stored(w)
    p = w.players[0].pk
    resp = w.api.post(
        T + "/penalties/", {"player": p, "kind": "warning", "reason": bad}, format="json"
    )
    refused(w, before, resp, "reason")
    resp = w.page.post(A + "/penalties/", {"player": p, "kind": "warning", "reason": bad})
    refused(w, before, resp, "reason")
    resp = w.api.post(T + "/revocations/", {"penalty": w.penalty.pk, "reason": bad}, format="json")
    refused(w, before, resp, "reason")
    resp = w.api.post(
        f"/api/games/{w.game.pk}/irregularities/", {"kind": "draw", "reason": bad}, format="json"
    )
    refused(w, before, resp, "reason")
    resp = w.page.post(A + "/irregularities/", {"game": w.game.pk, "kind": "draw", "reason": bad})
    refused(w, before, resp, "reason")
    resp = w.page.post(f"/g/{w.game.pk}/clock/", {"side": "green", "seconds": "60", "reason": bad})
    refused(w, before, resp, "reason")
    resp = w.api.post("/api/players/", {"name": "Z" + bad}, format="json")
    refused(w, before, resp, "name")
    resp = w.api.patch(T + "/", {"venue": "Hall" + bad}, format="json")
    refused(w, before, resp, "venue")
    for kind in ("application/x-www-form-urlencoded", "multipart/form-data"):
        if kind.startswith("multipart"):
            resp = w.api.patch(T + "/", {"venue": "Hall" + bad}, format="multipart")
        else:
            body = "venue=" + quote("Hall" + bad)
            resp = w.api.patch(T + "/", body, content_type=kind)
        refused(w, before, resp, "venue")


@pytest.mark.parametrize("slug", ["a%00b", "bounds%00", "%00", "bo%1bunds"])
def test_nul_in_slugs_is_a_404_or_400_never_a_500(w: World, slug: str) -> None:
    for url in (f"/api/tournaments/{slug}/", f"/arbiter/t/{slug}/", f"/t/{slug}/"):
        assert w.page.get(url).status_code in (400, 404), url
    before = stored(w)
    org = User.objects.get(username="org")
    org.is_staff = True
    org.save()
    api = APIClient()
    api.force_authenticate(org)
    body = {"name": "N", "slug": slug.replace("%00", "\x00"), "start_date": "2026-12-01"}
    resp = api.post("/api/tournaments/", body, format="json")
    refused(w, before, resp, "slug")


@pytest.mark.parametrize("when", ["2026-02-30T10:00", "2026-13-01T10:00", "2026-11-22T25:00"])
def test_an_impossible_date_on_latecomers_is_a_400(w: World, when: str) -> None:
    before = stored(w)
    for data in (
        {"scheduled": when, "green_arrival": "2026-11-22T10:05"},
        {"scheduled": "2026-11-22T10:00", "green_arrival": when},
    ):
        resp = w.page.post(f"/g/{w.game.pk}/latecomers/", data)
        refused(w, before, resp, "date")


def test_rounds_planned_cannot_go_below_the_rounds_paired(w: World) -> None:
    services.round_create(
        tournament=w.t,
        pairings=[(w.players[0].pk, w.players[2].pk), (w.players[1].pk, w.players[3].pk)],
        status="draft",
    )
    before = stored(w)
    for n in (1, 0, -3):
        resp = w.api.patch(T + "/", {"rounds_planned": n}, format="json")
        refused(w, before, resp, "rounds_planned")
    resp = w.page.post(A + "/settings/", _settings_form(w, rounds_planned="1"))
    refused(w, before, resp, "rounds_planned")
    resp = w.api.patch(T + "/", {"rounds_planned": 2}, format="json")
    assert resp.status_code == 200 and resp.json()["rounds_planned"] == 2


def _settings_form(w: World, **changes: str) -> dict[str, str]:
    from tournaments.forms import TournamentForm

    form = TournamentForm(instance=w.t)
    data = {}
    for name, f in form.fields.items():
        value = form.initial.get(name, f.initial)
        if value is None:
            continue
        data[name] = value.isoformat() if hasattr(value, "isoformat") else value
    data.update(changes)
    return data


def test_an_end_date_before_the_start_is_refused(w: World) -> None:
    before = stored(w)
    resp = w.api.patch(T + "/", {"end_date": "2026-10-01"}, format="json")
    refused(w, before, resp, "end_date")
    resp = w.api.patch(T + "/", {"start_date": "2026-12-01"}, format="json")
    refused(w, before, resp, "end_date")
    resp = w.page.post(A + "/settings/", _settings_form(w, end_date="2026-10-01"))
    refused(w, before, resp, "end_date")
    org = User.objects.get(username="org")
    org.is_staff = True
    org.save()
    api = APIClient()
    api.force_authenticate(org)
    body = {"name": "N", "slug": "n", "start_date": "2026-12-01", "end_date": "2026-11-01"}
    resp = api.post("/api/tournaments/", body, format="json")
    refused(w, before, resp, "end_date")


@pytest.mark.parametrize("text", ["   ", "\n\n\t", 123, ["x"], {"a": 1}, None, True, "a\x00b"])
def test_the_api_stores_no_record_that_is_blank_or_not_text(w: World, text: Any) -> None:
    before = stored(w)
    resp = w.api.post(f"/api/games/{w.game.pk}/records/", {"text": text}, format="json")
    refused(w, before, resp, "text")


@pytest.mark.parametrize("value", DIGITS)
def test_the_ascii_integer_parser(value: str) -> None:
    from django.core.exceptions import ValidationError

    from klinzha_site.parsing import ascii_int

    with pytest.raises(ValidationError):
        ascii_int(value, field="n", lo=0, hi=10**6)
    assert ascii_int("042", field="n", lo=0, hi=100) == 42
    with pytest.raises(ValidationError, match="at most 100"):
        ascii_int("101", field="n", lo=0, hi=100)


def test_deep_json_helper_for_plain_views() -> None:
    from django.core.exceptions import ValidationError

    from klinzha_site.parsing import MAX_JSON_DEPTH, json_loads_bounded

    ok = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert json_loads_bounded(ok.encode()) is not None
    for body in (DEEP, "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)):
        with pytest.raises(ValidationError, match="deep"):
            json_loads_bounded(body.encode())
    assert json.loads('{"a": [1, {"b": 2}]}') == json_loads_bounded(b'{"a": [1, {"b": 2}]}')
