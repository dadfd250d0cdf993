"""A lean production install: requirements.txt holds what manage.py, gunicorn and the
workers import, pinned; requirements-dev.txt adds the test, lint and benchmark tools, pinned;
no runtime module (nor a dotted path the settings name) needs a development-only one."""

from __future__ import annotations

import ast
import re
import sys
from functools import cache
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
RUNTIME_PACKAGES = ("klinzha_site", "tournaments", "games", "rules")
FIRST_PARTY = {*RUNTIME_PACKAGES, "tests", "bench"}
# What production starts (Procfile, deploy/systemd): the commands' own distributions.
PRODUCTION_COMMANDS = {"gunicorn": "gunicorn", "celery": "celery"}
DOTTED = re.compile(r"[a-z_][a-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def requirement_lines(name: str) -> list[str]:
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    return [line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()]


def pinned(name: str) -> dict[str, Requirement]:
    out = {}
    for line in requirement_lines(name):
        if line.startswith("-r "):
            continue
        req = Requirement(line)
        out[canonicalize_name(req.name)] = req
    return out


@cache
def closure(names: frozenset[tuple[str, frozenset[str]]]) -> frozenset[str]:
    """The distributions these (name, extras) install, their dependencies included."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name, extras = todo.pop()
        key = canonicalize_name(name)
        if key in seen and not extras:
            continue
        seen.add(key)
        for line in metadata.requires(name) or ():
            req = Requirement(line)
            env = [{"extra": e} for e in extras or {""}]
            if req.marker is None or any(req.marker.evaluate(e) for e in env):
                todo.append((req.name, frozenset(req.extras)))
    return frozenset(seen)


def runtime_files() -> list[Path]:
    files = [ROOT / "manage.py"]
    for package in RUNTIME_PACKAGES:
        files += sorted((ROOT / package).rglob("*.py"))
    return files


def imported_modules(path: Path) -> set[str]:
    """Top-level modules `path` imports, and those of the dotted paths it names in strings
    (INSTALLED_APPS, MIDDLEWARE, backends)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and DOTTED.fullmatch(node.value)
        ):
            out.add(node.value.split(".")[0])
    return out - set(sys.stdlib_module_names) - FIRST_PARTY - {"__future__"}


def test_both_files_are_pinned_and_the_development_one_includes_the_runtime():
    assert requirement_lines("requirements-dev.txt")[0] == "-r requirements.txt"
    for name in ("requirements.txt", "requirements-dev.txt"):
        for key, req in pinned(name).items():
            specs = list(req.specifier)
            assert len(specs) == 1 and specs[0].operator == "==", f"{name}: {key} not pinned"


def test_production_installs_no_test_lint_or_benchmark_tool():
    runtime, dev = pinned("requirements.txt"), pinned("requirements-dev.txt")
    assert not set(runtime) & set(dev), "named in both files"
    for tool in ("pytest", "hypothesis", "playwright", "schemathesis", "locust", "chess", "ruff"):
        assert canonicalize_name(tool) in dev and canonicalize_name(tool) not in runtime, tool


def test_no_runtime_module_needs_a_development_only_distribution():
    runtime = pinned("requirements.txt")
    installed = closure(frozenset((r.name, frozenset(r.extras)) for r in runtime.values()))
    providers = metadata.packages_distributions()
    missing = {}
    for path in runtime_files():
        for module in imported_modules(path):
            dists = {canonicalize_name(d) for d in providers.get(module, ())}
            if dists and not dists & installed:
                missing.setdefault(module, []).append(str(path.relative_to(ROOT)))
    assert not missing, f"imported at runtime, not installed by requirements.txt: {missing}"
    for command, dist in PRODUCTION_COMMANDS.items():
        assert canonicalize_name(dist) in runtime, command
