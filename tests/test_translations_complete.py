"""Every message is translated in Italian, French and German (issue 15 item 7).

The messages are extracted afresh from the source, as `make messages` does, into a copy of
the project: a string marked since the catalogues were last extracted shows up untranslated
there. Each catalogue must then have no empty and no fuzzy entry, keep every placeholder of
its msgid (msgfmt's format checks), and its compiled .mo must be the one its .po gives.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("it", "fr", "de")
SOURCES = ("klinzha_site", "tournaments", "games", "rules", "templates", "static", "locale")
# The options of the Makefile's `messages` target.
EXTRACT = [
    "--ignore=.venv/*",
    "--ignore=tests/*",
    "--ignore=bench/*",
    "--ignore=docs/*",
    "--no-obsolete",
    "--add-location=file",
]


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} (GNU gettext) is needed: apt-get install gettext")
    return path


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project whose catalogues hold every message the source marks now."""
    tool("xgettext")
    copy = tmp_path_factory.mktemp("messages")
    for name in SOURCES:
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "manage.py", copy / "manage.py")
    languages = [arg for code in LANGUAGES for arg in ("-l", code)]
    for domain in ("django", "djangojs"):
        if (
            domain == "djangojs"
            and not (ROOT / "locale" / "it" / "LC_MESSAGES" / "djangojs.po").exists()
        ):
            continue
        done = subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-d", domain, *languages, *EXTRACT],
            cwd=copy,
            capture_output=True,
            text=True,
            env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "klinzha_site.settings.test"},
        )
        assert done.returncode == 0, done.stderr
    return copy


def catalogues(base: Path) -> list[Path]:
    return sorted(base.glob("locale/*/LC_MESSAGES/*.po"))


def entries(po: Path, *options: str) -> list[str]:
    """The msgids msgattrib selects (--untranslated, --only-fuzzy) from one catalogue."""
    done = subprocess.run(
        [tool("msgattrib"), *options, "--no-wrap", str(po)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    found = []
    for block in done.stdout.split("\n\n"):
        lines = [line for line in block.splitlines() if line.startswith("msgid ")]
        if lines and lines[0] != 'msgid ""':
            found.append(lines[0][len("msgid ") :])
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(extracted: Path, language: str) -> None:
    pos = list((extracted / "locale" / language / "LC_MESSAGES").glob("*.po"))
    assert pos, language
    for po in pos:
        missing = entries(po, "--untranslated")
        fuzzy = entries(po, "--only-fuzzy")
        assert not missing, f"{language}/{po.name}: {len(missing)} untranslated: {missing[:15]}"
        assert not fuzzy, f"{language}/{po.name}: {len(fuzzy)} fuzzy: {fuzzy[:15]}"


@pytest.mark.parametrize("po", catalogues(ROOT), ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_placeholders_are_kept_and_the_mo_is_compiled(po: Path, tmp_path: Path) -> None:
    mo = tmp_path / "compiled.mo"
    # -c checks each python-format / python-brace-format msgstr against its msgid.
    done = subprocess.run(
        [tool("msgfmt"), "-c", "-o", str(mo), str(po)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    committed = po.with_suffix(".mo")
    assert committed.exists(), f"{committed} is missing: run compilemessages"

    def text_of(path: Path) -> str:
        return subprocess.run(
            [tool("msgunfmt"), str(path)], capture_output=True, text=True, check=True
        ).stdout

    assert text_of(committed) == text_of(mo), f"{committed} is older than its .po: compile it"
