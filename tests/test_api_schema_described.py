"""Every API action's answers are described by the schema: each operation has a success
with its body's schema (a 204 or a file says its content type instead), every refusal has
the error body's schema, no response is declared `None` in the code, the schema is valid
OpenAPI generated without warnings; and refusals of each kind fit what the schema says."""

from __future__ import annotations

import ast
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

from tests.api_schema import SchemaCheckedClient, api_schema
from tournaments import services
from tournaments.models import Game, Player, Tournament

ROOT = Path(__file__).resolve().parents[1]
APPS = ("tournaments", "games", "klinzha_site")
METHODS = ("get", "put", "patch", "post", "delete")


def operations() -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{method.upper()} {path}", item[method])
        for path, item in api_schema()["paths"].items()
        for method in METHODS
        if method in item
    ]


def undescribed(operation: dict[str, Any]) -> list[str]:
    """What `operation` leaves undescribed: no success, a success or refusal without a body
    schema (204 excepted; a file names its content type), a body with no schema."""
    responses = operation.get("responses", {})
    problems = []
    successes = [code for code in responses if code.startswith("2")]
    if not successes:
        problems.append("no 2xx response")
    for code, response in responses.items():
        content = response.get("content")
        if code == "204":
            continue
        if not content:
            problems.append(f"{code} without a body (declared None?)")
            continue
        for media, body in content.items():
            if media.endswith("json") and "schema" not in body:
                problems.append(f"{code} {media} without a schema")
    return problems


def test_every_operation_describes_its_answers() -> None:
    problems = [f"{name}: {p}" for name, op in operations() for p in undescribed(op)]
    assert not problems, "undescribed API answers:\n  " + "\n  ".join(problems)


def test_the_walk_finds_an_undescribed_answer() -> None:
    none = {"responses": {"200": {"description": "No response body"}}}
    assert undescribed(none) == ["200 without a body (declared None?)"]
    assert undescribed({"responses": {"400": {"content": {"application/json": {}}}}}) == [
        "no 2xx response",
        "400 application/json without a schema",
    ]
    assert undescribed({"responses": {"204": {"description": "gone"}}}) == []


def test_every_refusal_is_the_error_shape() -> None:
    shapes = {
        "400": "FieldErrors",
        "401": "ErrorDetail",
        "403": "ErrorDetail",
        "404": "ErrorDetail",
        "409": "Conflict",
    }
    for name, op in operations():
        for code, response in op["responses"].items():
            if code.startswith("4"):
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref == f"#/components/schemas/{shapes[code]}", (name, code, ref)


def none_responses(source: str) -> list[int]:
    """Lines of `source` where a `responses={...}` mapping declares a status as None."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            value = keyword.value
            if keyword.arg == "responses" and isinstance(value, ast.Dict):
                for item in value.values:
                    if isinstance(item, ast.Constant) and item.value is None:
                        lines.append(item.lineno)
    return lines


def test_no_response_is_declared_none_in_the_code() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        for line in none_responses(path.read_text(encoding="utf-8"))
    ]
    assert not found, "responses declared None (describe the body): " + ", ".join(found)


def test_the_scan_finds_a_none_response() -> None:
    source = "@extend_schema(request=X, responses={201: None, 200: Out})\ndef f(): pass\n"
    assert none_responses(source) == [1]
    assert none_responses("@extend_schema(responses={200: Out})\ndef f(): pass\n") == []


def test_the_schema_is_valid_and_generated_without_warnings() -> None:
    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert not GENERATOR_STATS, "drf-spectacular warned while generating the schema"
    validate_schema(schema)


User = get_user_model()


@pytest.fixture
def event(db):  # type: ignore[no-untyped-def]
    """An event of four with round 1 published and one result in."""
    t = services.tournament_create(
        name="Refusals", slug="refusals", start_date=date(2026, 5, 1), rounds_planned=3
    )
    for i in range(4):
        services.registration_create(
            tournament=t, player=services.player_create(name=f"R{i + 1}", rating=1900 - i)
        )
    services.round_pair(tournament=t, publish=True)
    game = Game.objects.filter(round__tournament=t, kind=Game.Kind.GAME).first()
    services.game_result_set(game=game, result="draw")
    return t


def client_as(user: Any = None) -> SchemaCheckedClient:
    client = SchemaCheckedClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_refusals_fit_the_schema(event: Tournament) -> None:
    """A refusal of each kind, each checked against its operation's schema by the client."""
    base = f"/api/tournaments/{event.slug}"
    arbiter = client_as(User.objects.create_user("arb", password="pw-arb-12345", is_staff=True))
    outsider = client_as(User.objects.create_user("out", password="pw-out-12345"))
    anonymous = client_as()
    r1 = Player.objects.get(name="R1")
    answers = [
        arbiter.post(base + "/withdrawals/", {"player": 10**6}, format="json"),
        arbiter.post(base + "/edit-pairings/", {"round": 1, "pairings": [["x", 1]]}, format="json"),
        arbiter.post(base + "/publish/", "{not json", content_type="application/json"),
        anonymous.post(base + "/publish/", {"round": 1}, format="json"),
        outsider.post(base + "/publish/", {"round": 1}, format="json"),
        anonymous.get(base + "/audit/"),
        anonymous.get("/api/tournaments/no-such-event/standings/"),
        arbiter.get(base + "/pairing-jobs/999/"),
        arbiter.post(base + "/bye-requests/cancel/", {"player": r1.pk, "round": 1}, format="json"),
        arbiter.post(base + "/unpublish/", {"round": 1}, format="json"),
    ]
    codes = [a.status_code for a in answers]
    assert codes == [400, 400, 400, 401, 403, 403, 404, 404, 409, 409]
    assert answers[1].json() == {"pairings": {"0": {"0": ["A valid integer is required."]}}}
    assert "detail" in answers[2].json() and isinstance(answers[2].json()["detail"], str)
    assert answers[6].json() == {"detail": "No Tournament matches the given query."}
