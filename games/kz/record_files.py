"""Reading record files for the `kz` commands: folders walked in order, text decoded."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from rules.errors import RecordError

RECORD_SUFFIXES = (".kzr",)


def iter_record_paths(paths: list[str]) -> Iterator[Path]:
    """The record files named, folders walked in sorted order."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for f in sorted(files):
                    if f.endswith(RECORD_SUFFIXES):
                        yield Path(root) / f
        else:
            yield path


def read_text(path: Path) -> str:
    """A record file's text; RecordError when it cannot be read as text."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not UTF-8 text") from None
