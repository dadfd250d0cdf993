"""Every model change ships with its migration (`makemigrations --check` finds nothing), and
no migration imports the project's code: what it needs is copied into it, so that it does
tomorrow what it did the day it was written (docs/CONVENTIONS.md, "Migrations")."""

from __future__ import annotations

import ast
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("rules", "tournaments", "games", "klinzha_site")
# The one stable home of the field validators migrations name by dotted path: never renamed
# or moved (a copy frozen in a migration would never equal the model's validator).
STABLE_HOMES = frozenset({"tournaments.validators"})


def _migrations() -> list[Path]:
    return sorted(ROOT.glob("*/migrations/*.py"))


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def project_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import of the project's code in the migration at `path`,
    bar its own app's migrations package and the stable homes; a dynamic import counts."""
    own = f"{path.parent.parent.name}.migrations"
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 1:
                module = f"{own}.{module}".rstrip(".")
            elif node.level > 1:
                module = f"{path.parent.parent.name}.{module}".rstrip(".")
            found += [(node.lineno, module)]
        elif isinstance(node, ast.Call) and _name(node.func) in ("import_module", "__import__"):
            arg = node.args[0] if node.args else None
            # A name computed at run time could be anything: it counts as the project's.
            text = arg.value if isinstance(arg, ast.Constant) else "rules"
            found += [(node.lineno, str(text))]
    return [
        (line, module)
        for line, module in found
        if module.split(".")[0] in PROJECT
        and module != own
        and not module.startswith(own + ".")
        and module not in STABLE_HOMES
    ]


def test_the_scan_finds_a_migration_importing_the_project(tmp_path: Path) -> None:
    migration = tmp_path / "games" / "migrations" / "0099_x.py"
    migration.parent.mkdir(parents=True)
    migration.write_text(
        "import re\nfrom django.db import migrations\nimport tournaments.validators\n"
        "from games.migrations import _frozen\nfrom . import _copied\n"
        "from rules.messages import parse_reason\nimport tournaments.event_rules\n"
        "from .. import models\n"
        "def f(apps, schema_editor):\n    importlib.import_module('rules.clock')\n"
    )
    assert project_imports(migration) == [
        (6, "rules.messages"),
        (7, "tournaments.event_rules"),
        (8, "games"),
        (10, "rules.clock"),
    ]


def test_no_migration_imports_the_projects_code() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in _migrations()
        for line, module in project_imports(path)
    ]
    assert found == []


@pytest.mark.django_db
def test_no_model_change_lacks_a_migration() -> None:
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exc:  # --check exits 1 when a migration is missing
        pytest.fail(f"models and migrations disagree (exit {exc.code}):\n{out.getvalue()}")
