"""The house rules of docs/architecture.md that import-linter does not check: no import
hidden in a function, no module of the apps over 600 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("tournaments", "games", "klinzha_site")
MAX_LINES = 600

# Function-level imports that stay, each with the reason written beside it in the code.
ALLOWED_FUNCTION_IMPORTS = {
    ("games/apps.py", "games.receivers"),  # Django app loading: receivers connect in ready()
    ("tournaments/apps.py", "tournaments.receivers"),  # the same
    ("tournaments/pairing/swiss.py", "networkx"),  # slow to import, seldom needed
}


def _modules() -> list[Path]:
    return sorted(
        p for app in APPS for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts
    )


def function_level_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import inside a function of the module at `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Import):
                    found += [(sub.lineno, alias.name) for alias in sub.names]
                elif isinstance(sub, ast.ImportFrom):
                    module = "." * sub.level + (sub.module or "")
                    found += [(sub.lineno, f"{module}.{alias.name}") for alias in sub.names]
    return found


def test_the_scan_finds_a_function_level_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import os\n\ndef f():\n    from a.b import c\n    return c\n")
    assert function_level_imports(module) == [(4, "a.b.c")]


def test_no_import_hides_in_a_function() -> None:
    hidden = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in _modules()
        for line, name in function_level_imports(path)
        if (str(path.relative_to(ROOT)), name) not in ALLOWED_FUNCTION_IMPORTS
    ]
    assert hidden == []


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_of_the_apps_is_over_600_lines(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def test_every_rule_set_of_the_engine_is_offered_by_name() -> None:
    from rules.position import RULESETS
    from tournaments.models import Tournament

    assert list(Tournament.Ruleset.values) == list(RULESETS)
