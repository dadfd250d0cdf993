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


def random_line(draw, pos, lo: int, hi: int):
    """(positions, moves) of a random line of accepted moves from `pos`, between `lo` and
    `hi` plies unless the battle ends first; Hypothesis's `draw` makes every choice."""
    from hypothesis import strategies as st

    positions, moves = [pos], []
    for _ in range(draw(st.integers(lo, hi))):
        legal = pos.generate_moves()
        if not legal:
            break
        m = legal[draw(st.integers(0, len(legal) - 1))]
        moves.append(m)
        pos = pos.apply(m)
        positions.append(pos)
    return positions, moves
