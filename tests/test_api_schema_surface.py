"""The REST API's surface as its OpenAPI schema describes it, held against a committed
snapshot: every path and method keeps its operation id, its response status codes and
whether it takes a body. A removal or a rename fails; so does an addition, until the
snapshot is updated on purpose:

    KZ_UPDATE_SCHEMA_SNAPSHOT=1 .venv/bin/python -m pytest tests/test_api_schema_surface.py

(writes `tests/api_schema_surface.json`; review its diff and commit it with the change)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from drf_spectacular.generators import SchemaGenerator

SNAPSHOT = Path(__file__).with_name("api_schema_surface.json")
UPDATE_ENV = "KZ_UPDATE_SCHEMA_SNAPSHOT"
HOW_TO_UPDATE = (
    f"if the change is deliberate, update the snapshot: {UPDATE_ENV}=1 .venv/bin/python -m "
    "pytest tests/test_api_schema_surface.py, then review and commit tests/api_schema_surface.json"
)
METHODS = ("get", "put", "patch", "post", "delete", "head", "options", "trace")


def schema_live() -> dict[str, Any]:
    """The schema as `/api/schema/` serves it."""
    return SchemaGenerator().get_schema(request=None, public=True)


def surface_of(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """`"METHOD /path"` -> its operation id, sorted response codes and body presence."""
    surface = {}
    for path, item in schema["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            surface[f"{method.upper()} {path}"] = {
                "operation_id": operation["operationId"],
                "responses": sorted(operation.get("responses", {})),
                "request_body": "requestBody" in operation,
            }
    return dict(sorted(surface.items()))


def surface_differences(
    *, stored: dict[str, dict[str, Any]], live: dict[str, dict[str, Any]]
) -> list[str]:
    """What changed, one line each: an operation gone or new, or a field of one changed."""
    lines = [f"removed (or renamed): {key}" for key in stored if key not in live]
    lines += [f"added: {key}" for key in live if key not in stored]
    for key in stored.keys() & live.keys():
        for field in ("operation_id", "responses", "request_body"):
            before, after = stored[key][field], live[key][field]
            if before != after:
                lines.append(f"{key}: {field} was {before!r}, is now {after!r}")
    return sorted(lines)


def test_the_api_surface_matches_the_snapshot() -> None:
    live = surface_of(schema_live())
    if os.environ.get(UPDATE_ENV):
        SNAPSHOT.write_text(json.dumps(live, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        return
    stored = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    differences = surface_differences(stored=stored, live=live)
    assert not differences, (
        "the API's schema no longer matches tests/api_schema_surface.json (clients rely on "
        "its paths, methods, operation ids and status codes):\n  "
        + "\n  ".join(differences)
        + f"\n{HOW_TO_UPDATE}"
    )


def test_the_snapshot_covers_every_router_resource() -> None:
    """The snapshot is of the real API, not an empty or partial file."""
    stored = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    paths = [key.split()[1] for key in stored]
    # Beside the API, the schema lists the site's public key where clients look for it.
    assert "/.well-known/klinzha-site-key" in paths
    prefixes = {path.split("/")[2] for path in paths if path.startswith("/api/")}
    assert prefixes == {
        "check-in",
        "clubs",
        "games",
        "players",
        "ratings",
        "records",
        "series",
        "signing-keys",
        "tournaments",
    }
    assert len(stored) > 50


def test_the_comparison_sees_a_removal_an_addition_and_a_change() -> None:
    stored = {
        "GET /api/a/": {"operation_id": "a_list", "responses": ["200"], "request_body": False},
        "POST /api/b/": {"operation_id": "b_create", "responses": ["201"], "request_body": True},
    }
    live = {
        "POST /api/b/": {
            "operation_id": "b_make",
            "responses": ["201", "400"],
            "request_body": True,
        },
        "GET /api/c/": {"operation_id": "c_list", "responses": ["200"], "request_body": False},
    }
    assert surface_differences(stored=stored, live=live) == [
        "POST /api/b/: operation_id was 'b_create', is now 'b_make'",
        "POST /api/b/: responses was ['201'], is now ['201', '400']",
        "added: GET /api/c/",
        "removed (or renamed): GET /api/a/",
    ]
