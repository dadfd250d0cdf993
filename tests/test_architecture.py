"""The house rules of docs/architecture.md that import-linter does not check: no import
hidden in a function, no module of the apps over 600 lines, no function of the apps or of the
rules engine more complex than radon's grade C (docs/CONVENTIONS.md), no module name that two
apps share, the `kz` subcommands in each app's kz package."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("tournaments", "games", "klinzha_site")
MAX_LINES = 600
# The top of radon's grade C: a cyclomatic complexity above it is graded D, E or F.
MAX_COMPLEXITY = 20

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


# The core of the rules engine (pyproject.toml, "The core of the rules engine imports no
# variant"): it finds the variants in rules.engines' table, which they fill themselves.
RULES_CORE = (
    "board", "position", "notation", "record", "svg", "diagram", "posstring", "clock",
    "errors", "engines", "pieces", "state", "placement", "movement", "safety", "deadlock",
)  # fmt: skip
DYNAMIC_IMPORTS = frozenset({"import_module", "__import__", "importlib"})


def dynamic_imports(path: Path) -> list[tuple[int, str]]:
    """(line, name) of every use of import_module, __import__ or importlib at `path`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name) and node.id in DYNAMIC_IMPORTS:
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute) and node.attr in DYNAMIC_IMPORTS:
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
            found += [(node.lineno, n) for n in names if n.split(".")[0] in DYNAMIC_IMPORTS]
    return found


def test_the_scan_finds_a_dynamic_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from importlib import import_module\nx = __import__('os')\n")
    assert [line for line, _ in dynamic_imports(module)] == [1, 1, 2]


@pytest.mark.parametrize("name", RULES_CORE)
def test_the_core_of_the_rules_engine_imports_nothing_by_name(name: str) -> None:
    assert dynamic_imports(ROOT / "rules" / f"{name}.py") == []


def test_a_core_module_alone_finds_the_variants() -> None:
    # A fresh interpreter that imports one core module: the package's import registers them.
    code = (
        "from rules.posstring import parse_position\n"
        "from rules.engines import ENGINES\n"
        "pos = parse_position('laws kinta green 20 apex/BA19/A19 east/BI99/I99')\n"
        "print(type(pos).__name__, sorted(name for _, name, _ in ENGINES))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "KintaPosition ['italian-society', 'kinta', 'reflective', 'tri-level']"


def test_importing_the_engine_builds_no_variant_table() -> None:
    # A fresh interpreter imports the engine and validates a laws record: the variants'
    # tables wait for a position of theirs, and the slow standard modules stay out.
    code = (
        "import sys\n"
        "from rules import italian, kinta_combat, messages, trilevel_paths\n"
        "from rules.validate import validate_text\n"
        "def built():\n"
        "    builders = (italian.flier_tables_build, trilevel_paths.fly_tables_build,\n"
        "                kinta_combat._base_table, kinta_combat._round_texts, messages._patterns)\n"
        "    return [f.__name__ for f in builders if f.cache_info().currsize]\n"
        "text = open('tests/rules/records/example1-laws-capture.kzr').read()\n"
        "assert validate_text(text).valid\n"
        "print(built(), len(italian.FLIER_NEAR), len(trilevel_paths.FLY_ANY),\n"
        "      'urllib.request' in sys.modules)\n"
        "from rules.posstring import parse_position\n"
        "parse_position('italian-society - green 0 -/-/- -/-/-')\n"
        "parse_position('laws tri-level green 0 -/-/- -/-/-')\n"
        "print(built(), len(italian.FLIER_NEAR) > 0, len(trilevel_paths.FLY_ANY) > 0)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == [
        "[] 0 0 False",
        "['flier_tables_build', 'fly_tables_build'] True True",
    ]


@pytest.mark.parametrize(
    "path", sorted((ROOT / "rules").glob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_no_module_of_the_rules_engine_is_over_600_lines(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def _decisions(node: ast.AST) -> int:
    """The decision points `node` adds, counted as radon counts them: each if, elif and
    conditional expression, loop (and its else), except handler (and a try's else),
    comprehension `for` and its ifs, match case but a wildcard, and each further operand of
    `and` / `or`."""
    if isinstance(node, ast.If | ast.IfExp):
        return 1
    if isinstance(node, ast.For | ast.AsyncFor | ast.While):
        return 1 + bool(node.orelse)
    if isinstance(node, ast.BoolOp):
        return len(node.values) - 1
    if isinstance(node, ast.comprehension):
        return 1 + len(node.ifs)
    if isinstance(node, ast.Try):
        return len(node.handlers) + bool(node.orelse)
    if isinstance(node, ast.Match):
        wildcard = any(getattr(case.pattern, "pattern", False) is None for case in node.cases)
        return max(0, len(node.cases) - wildcard)
    return 0


def cyclomatic_complexity(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The function's cyclomatic complexity as radon computes it: 1 plus its decision points,
    those of the functions and classes defined inside it left to them."""
    count = 1
    todo: list[ast.AST] = list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if isinstance(node, ast.Assert):
            count += 1  # radon counts an assert once, whatever its condition holds
            continue
        count += _decisions(node)
        todo.extend(ast.iter_child_nodes(node))
    return count


def complexities(path: Path) -> list[tuple[int, str, int]]:
    """(line, name, complexity) of every function and method of the module at `path`,
    nested ones too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, node.name, cyclomatic_complexity(node))
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def test_the_count_follows_radon(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "def f(xs, y):\n"
        "    def inner(z):\n"  # counted on its own, not in f
        "        return z if z else 0\n"
        "    for x in xs:\n"  # 1
        "        if x and y or not x:\n"  # 1 + 2
        "            continue\n"
        "        elif x:\n"  # 1
        "            assert y and x\n"  # 1, its condition not looked into
        "    else:\n"  # 1
        "        pass\n"
        "    try:\n"
        "        y = [a for a in xs if a if y]\n"  # 1 + 2
        "    except ValueError:\n"  # 1
        "        pass\n"
        "    except KeyError:\n"  # 1
        "        pass\n"
        "    else:\n"  # 1
        "        pass\n"
        "    with open(y):\n"  # nothing
        "        pass\n"
        "    match y:\n"
        "        case 1: pass\n"  # 1
        "        case 2: pass\n"  # 1
        "        case _: pass\n"  # nothing: the wildcard
        "    return lambda: 1 if y else 2\n"  # 1
    )
    assert sorted(complexities(module)) == [(1, "f", 17), (2, "inner", 2)]


# The packages whose every function (public or private, nested, in migrations too) is held
# to radon's grade C: the apps and the rules engine.
GRADED = (*APPS, "rules")


def _all_modules() -> list[Path]:
    return sorted(p for package in GRADED for p in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", _all_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_function_is_graded_below_c(path: Path) -> None:
    """Functions short enough to hold in mind: cyclomatic complexity at most 20 (radon C);
    a longer one becomes named steps."""
    too_complex = [
        f"{path.relative_to(ROOT)}:{line}: {name} has complexity {count}"
        for line, name, count in complexities(path)
        if count > MAX_COMPLEXITY
    ]
    assert too_complex == []


# Module names each app (or layer) has by Django's layout or the house's, one role each: the
# package says whose it is. Any other name belongs to one app, so that a name such as
# `italian.py` or `event_rules.py` says which app's module is meant. (Inside one app a topic
# may have a module in each layer, `services/clocks.py` and `api/clocks.py`: the layer's
# folder says which.) `errors`: each layer's own exception types (the engine's, the site's
# HTTP-mapped ones).
SHARED_ROLES = frozenset(
    {
        "__init__",
        "admin",
        "apps",
        "arbiter_views",
        "errors",
        "models",
        "receivers",
        "selectors",
        "serializers",
        "tasks",
        "urls",
        "views",
    }
)
# The packages whose module names are compared: the apps and the rules engine.
NAMED = ("rules", *APPS)


def names_shared(root: Path, packages: tuple[str, ...]) -> dict[str, list[str]]:
    """Each module name outside SHARED_ROLES that modules of more than one of `packages`
    have, with their paths. Migrations (numbered) and settings (one module per environment)
    keep Django's names and are left out."""
    seen: dict[str, list[str]] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root)
            if "migrations" in relative.parts or "settings" in relative.parts:
                continue
            if path.stem not in SHARED_ROLES:
                seen.setdefault(path.stem, []).append(str(relative))
    return {
        name: paths for name, paths in seen.items() if len({Path(p).parts[0] for p in paths}) > 1
    }


def test_the_scan_finds_a_name_two_packages_share(tmp_path: Path) -> None:
    for name in (
        "a/italian.py",
        "b/sub/italian.py",
        "a/models.py",
        "b/models.py",
        "b/api/x.py",
        "b/services/x.py",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text('"""A module."""\n')
    assert names_shared(tmp_path, ("a", "b")) == {"italian": ["a/italian.py", "b/sub/italian.py"]}


def test_no_two_modules_of_the_apps_and_the_engine_share_a_name() -> None:
    assert names_shared(ROOT, NAMED) == {}


def kz_strays(root: Path, apps: tuple[str, ...]) -> list[str]:
    """Modules of `apps` that belong in a kz package but are outside it: one named `kz_*`,
    or one adding `kz` subcommands (`add_parser`); the dispatcher (a management command)
    only makes the subparsers."""
    found = []
    for app in apps:
        for path in sorted((root / app).rglob("*.py")):
            relative = path.relative_to(root)
            if relative.parts[1:2] == ("kz",):
                continue
            text = path.read_text(encoding="utf-8")
            if path.stem.startswith("kz_") or ".add_parser(" in text:
                found.append(str(relative))
    return found


def test_the_scan_finds_a_kz_module_outside_its_package(tmp_path: Path) -> None:
    for name, text in (
        ("a/kz_tools.py", ""),
        ("a/helpers.py", "def register(subparsers):\n    subparsers.add_parser('x')\n"),
        ("a/kz/tools.py", "def register(subparsers):\n    subparsers.add_parser('y')\n"),
        ("a/kz/__init__.py", ""),
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert kz_strays(tmp_path, ("a",)) == ["a/helpers.py", "a/kz_tools.py"]


def test_kz_subcommands_live_in_each_apps_kz_package() -> None:
    assert kz_strays(ROOT, APPS) == []
