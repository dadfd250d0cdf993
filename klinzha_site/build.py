"""The build's identity: KZ_BUILD_ID, else a hash of the code, templates and translations."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.conf import settings

# The project's own packages and pinned requirements: what a release changes. Templates and
# translations are found through the settings (TEMPLATES' DIRS, LOCALE_PATHS) as well.
PROJECT_PARTS = ("klinzha_site", "tournaments", "games", "rules", "requirements.txt")
# Files that never change what a process serves: byte code, translation sources (their
# compiled .mo is what is read), editor and tool leftovers.
SKIPPED_SUFFIXES = frozenset((".pyc", ".pyo", ".po", ".swp", ".orig", ".rej"))
SKIPPED_DIRS = frozenset(("__pycache__", "node_modules"))


def _named_folders() -> tuple[object, ...]:
    """The template and translation folders the settings name, as they name them."""
    dirs = tuple(d for engine in settings.TEMPLATES for d in engine.get("DIRS", ()))
    return (settings.BASE_DIR, dirs, tuple(settings.LOCALE_PATHS))


def build_roots() -> tuple[Path, ...]:
    """Where the served bytes come from: the project's packages, every template folder and
    every translation folder the settings name."""
    return _roots(_named_folders())


def _roots(named: tuple[Any, ...]) -> tuple[Path, ...]:
    base, dirs, locales = named
    roots = [Path(base) / part for part in PROJECT_PARTS]
    roots.extend(Path(d) for d in (*dirs, *locales))
    return tuple(dict.fromkeys(roots))


def _files(roots: Iterable[Path]) -> list[tuple[str, Path]]:
    found: list[tuple[str, Path]] = []
    for number, root in enumerate(roots):
        if root.is_file():
            found.append((f"{number}", root))
            continue
        for path in root.rglob("*"):
            relative = path.relative_to(root)
            if any(part in SKIPPED_DIRS or part.startswith(".") for part in relative.parts):
                continue
            if path.suffix in SKIPPED_SUFFIXES or not path.is_file():
                continue
            found.append((f"{number}/{relative.as_posix()}", path))
    return sorted(found)


def build_hash(*, roots: Iterable[Path]) -> str:
    """A short hash of every file under `roots`, names and contents (about 15 ms for the
    whole project: docs/performance.md)."""
    digest = hashlib.blake2b(digest_size=8)
    for name, path in _files(roots):
        digest.update(name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


@functools.lru_cache(maxsize=4)
def _build_hash_cached(named: tuple[object, ...]) -> str:
    return build_hash(roots=_roots(named))


def build_id() -> str:
    """This process's build: KZ_BUILD_ID when the deployment names it (a release tag, a
    commit), else the hash of its sources, computed once per process. Cached pages and their
    ETags carry it, so that no release serves a page another one rendered."""
    named = getattr(settings, "KZ_BUILD_ID", "")
    if named:
        return str(named)
    # Keyed by the folders as the settings name them (a few microseconds: this runs for
    # every request of the fast path), so that other settings hash their own tree.
    return _build_hash_cached(_named_folders())
