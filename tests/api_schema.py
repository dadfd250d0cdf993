"""The API's answers held to its OpenAPI schema: a status the operation does not describe,
or a JSON body its schema for that status refuses, fails the test that made the request
(`SchemaCheckedClient`, or `answer_check` on one response)."""

from __future__ import annotations

import functools
import re
from typing import Any

from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator
from rest_framework.test import APIClient


@functools.cache
def api_schema() -> dict[str, Any]:
    """The schema as /api/schema/ serves it (generated once per test process)."""
    return SchemaGenerator().get_schema(request=None, public=True)


def json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: `nullable: true` becomes a null allowed."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: json_schema(value) for key, value in node.items() if key != "nullable"}
    if not node.get("nullable"):
        return out
    if "type" in out and not any(k in out for k in ("allOf", "oneOf", "anyOf", "$ref")):
        out["type"] = [out["type"], "null"]
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        return out
    return {"anyOf": [out, {"type": "null"}]}


@functools.cache
def _components() -> dict[str, Any]:
    return json_schema(api_schema().get("components", {}))


@functools.cache
def _templates() -> list[tuple[re.Pattern[str], str]]:
    paths = api_schema()["paths"]
    return [(re.compile(re.sub(r"\{[^}/]+\}", "[^/]+", p) + "$"), p) for p in paths]


def operation_of(method: str, path: str) -> tuple[str, dict[str, Any]]:
    """(the schema's path template, its operation) for a request's method and path."""
    found = [template for pattern, template in _templates() if pattern.match(path)]
    assert found, f"{path} is not a path of the API's schema"
    # A literal segment wins over a parameter: the longest template without braces first.
    template = max(found, key=lambda t: len(re.sub(r"\{[^}]+\}", "", t)))
    operation = api_schema()["paths"][template].get(method.lower())
    assert operation is not None, f"{method} {template} is not in the API's schema"
    return template, operation


def answer_check(response: Any) -> None:
    """Fail unless the schema describes `response`'s status for its request, and its JSON
    body fits the schema of that status."""
    request = response.wsgi_request
    method, path = request.method, request.path
    if method in ("HEAD", "OPTIONS") or not path.startswith("/api/"):
        return
    template, operation = operation_of(method, path)
    code = str(response.status_code)
    described = operation["responses"]
    assert code in described, (
        f"{method} {template} answered {code}, which its schema does not describe "
        f"({sorted(described)}): {response.content[:300]!r}"
    )
    content = described[code].get("content", {})
    if not content:
        assert not response.content, f"{method} {template} {code}: a body the schema has not"
        return
    if "application/json" not in content or "json" not in response.get("Content-Type", ""):
        return
    schema = {**json_schema(content["application/json"]["schema"]), "components": _components()}
    problems = sorted(Draft202012Validator(schema).iter_errors(response.json()), key=str)
    assert not problems, (
        f"{method} {template} {code}: the body does not fit its schema: "
        + "; ".join(f"{list(p.absolute_path)}: {p.message}" for p in problems[:5])
    )


class SchemaCheckedClient(APIClient):
    """An API client that checks every answer against the schema (answer_check)."""

    def request(self, **kwargs: Any) -> Any:
        response = super().request(**kwargs)
        answer_check(response)
        return response
