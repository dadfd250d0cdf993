"""Shared helpers for the rules engine's tests: example records and position builders."""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "examples"
LOCAL_EXAMPLES = Path(__file__).resolve().parent / "records"


def example_path(name: str) -> Path:
    """An example record: the shared one when present, else the copy kept with the tests."""
    for folder in (EXAMPLES, LOCAL_EXAMPLES):
        path = folder / name
        if path.exists():
            return path
    raise FileNotFoundError(name)


@pytest.fixture
def example_text():
    def load(name: str) -> str:
        return example_path(name).read_text(encoding="utf-8")

    return load
