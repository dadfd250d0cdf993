"""The API's TRF import (POST /api/tournaments/import/trf/): who may, the check that stores
nothing, a refused file that stores nothing and names its line, the warnings (the file's
scoring among them), an upload and a JSON text alike; every answer held to the schema."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command

from tests.api_schema import SchemaCheckedClient
from tournaments.models import Game, Player, Registration, Round, Tournament

pytestmark = pytest.mark.django_db
User = get_user_model()
URL = "/api/tournaments/import/trf/"
FIXTURES = Path(__file__).parent / "trf_fixtures"
JAVAFO = (FIXTURES / "javafo_xxs.trf").read_text(encoding="utf-8")
SCORING = "this file scores a draw as +½ (XXS, line 6); Klin Zha scores \u2212½ (Art. 10.1)"


def refused_text() -> str:
    """The JaVaFo fixture with line 10's second round against a start rank nobody has."""
    lines = JAVAFO.splitlines()
    lines[9] = lines[9].replace("   3 w +", "  99 w +")
    return "\n".join(lines) + "\n"


def stored() -> tuple[int, int, int, int, int]:
    return (
        Tournament.objects.count(),
        Player.objects.count(),
        Registration.objects.count(),
        Round.objects.count(),
        Game.objects.count(),
    )


def api_as(user) -> SchemaCheckedClient:  # type: ignore[no-untyped-def]
    api = SchemaCheckedClient()
    if user is not None:
        api.force_authenticate(user)
    return api


@pytest.fixture
def organizer():  # type: ignore[no-untyped-def]
    user = User.objects.create_user("org", password="pw-organizer-1")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return User.objects.get(pk=user.pk)  # the permission cache fresh


def upload(text: str, name: str = "event.trf", encoding: str = "utf-8") -> io.BytesIO:
    f = io.BytesIO(text.encode(encoding))
    f.name = name
    return f


def test_an_upload_imports_with_the_caller_as_organizer_and_its_warnings(organizer):
    resp = api_as(organizer).post(URL, {"file": upload(JAVAFO)}, format="multipart")
    assert resp.status_code == 201, resp.content
    body = resp.json()
    t = Tournament.objects.get(slug=body["slug"])
    assert body["check"] is False and body["name"] == t.name == "Club Championship"
    assert t.organizer == organizer
    assert any(w.startswith(SCORING) for w in body["warnings"]), body["warnings"]
    assert t.registrations.count() == 6 and t.rounds.count() == 2
    # The players it made are the organizer's to manage, as for an arbiter's entrant.
    assert {p.managed_by_id for p in Player.objects.filter(registrations__tournament=t)} == {
        organizer.pk
    }


def test_a_json_text_imports_the_same(organizer):
    resp = api_as(organizer).post(URL, {"text": JAVAFO}, format="json")
    assert resp.status_code == 201, resp.content
    assert Tournament.objects.get(slug=resp.json()["slug"]).rounds.count() == 2


@pytest.mark.parametrize("how", ["query", "json", "multipart"])
def test_the_check_answers_the_report_and_stores_nothing(organizer, how):
    before = stored()
    api = api_as(organizer)
    if how == "query":
        resp = api.post(URL + "?check=true", {"text": JAVAFO}, format="json")
    elif how == "json":
        resp = api.post(URL, {"text": JAVAFO, "check": True}, format="json")
    else:
        resp = api.post(URL, {"file": upload(JAVAFO), "check": "true"}, format="multipart")
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert body["check"] is True
    assert (body["players"], body["rounds"], body["rounds_planned"]) == (6, 2, 4)
    assert (body["games"], body["forbidden_pairs"], body["dialect"]) == (6, 1, "TRF16")
    assert body["slug"] == "club-championship"
    assert any(w.startswith(SCORING) for w in body["warnings"]), body["warnings"]
    assert stored() == before


def test_the_check_reports_what_kz_trf_import_check_prints(organizer, tmp_path):
    """The same report as `kz trf import FILE --check --json`."""
    path = tmp_path / "event.trf"
    path.write_text(JAVAFO, encoding="utf-8")
    out = io.StringIO()
    call_command("kz", "trf", "import", str(path), "--check", "--json", stdout=out)
    resp = api_as(organizer).post(URL, {"text": JAVAFO, "check": True}, format="json")
    assert resp.json() == json.loads(out.getvalue())


@pytest.mark.parametrize("check", [False, True])
def test_a_refused_file_stores_nothing_and_names_its_line(organizer, check):
    before = stored()
    resp = api_as(organizer).post(
        URL, {"file": upload(refused_text()), "check": check}, format="multipart"
    )
    assert resp.status_code == 400, resp.content
    body = resp.json()
    assert body["lines"] == [10] and body["file"][0].startswith("line 10: "), body
    assert stored() == before


def test_a_refused_text_names_its_field_and_line(organizer):
    before = stored()
    resp = api_as(organizer).post(URL, {"text": refused_text()}, format="json")
    assert resp.status_code == 400, resp.content
    assert resp.json()["lines"] == [10] and resp.json()["text"][0].startswith("line 10: ")
    assert stored() == before


def test_a_latin1_file_with_crlf_line_breaks_is_read(organizer):
    text = JAVAFO.replace("Club Championship", "Championnat du Clüb").replace("\n", "\r\n")
    resp = api_as(organizer).post(
        URL, {"file": upload(text, encoding="latin-1")}, format="multipart"
    )
    assert resp.status_code == 201, resp.content
    assert resp.json()["name"] == "Championnat du Clüb"


def test_a_body_without_a_file_or_text_names_the_field(organizer):
    resp = api_as(organizer).post(URL, {"check": True}, format="json")
    assert resp.status_code == 400 and "text" in resp.json()
    resp = api_as(organizer).post(URL, {"check": "true"}, format="multipart")
    assert resp.status_code == 400 and "file" in resp.json()


@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 401), ("plain", 403), ("arbiter", 403), ("organizer", 201), ("staff", 201)],
)
def test_who_may_import(organizer, who, expected):
    """Whoever may create an event: staff and organizers (the add-tournament permission);
    a plain user, and an arbiter of some event who may not create one, are refused."""
    users = {
        "anonymous": None,
        "plain": User.objects.create_user("plain", password="pw-plain-123"),
        "arbiter": User.objects.create_user("arb", password="pw-arbiter-1"),
        "organizer": organizer,
        "staff": User.objects.create_user("staff", password="pw-staff-123", is_staff=True),
    }
    if who == "arbiter":
        resp = api_as(organizer).post(URL, {"text": JAVAFO}, format="json")
        Tournament.objects.get(slug=resp.json()["slug"]).arbiters.add(users["arbiter"])
    before = stored()
    resp = api_as(users[who]).post(URL, {"text": JAVAFO}, format="json")
    assert resp.status_code == expected, resp.content
    if expected >= 400:
        assert stored() == before
        resp = api_as(users[who]).post(URL + "?check=1", {"text": JAVAFO}, format="json")
        assert resp.status_code == expected
    else:
        assert Tournament.objects.get(slug=resp.json()["slug"]).organizer == users[who]
