"""TRF fuzz: random and mutated files make the reader and the import refuse with TrfError or
ValidationError and nothing else; what imports exports, and imports again, unchanged."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.services.trf_import import trf_import
from tournaments.trf import TrfError, read_trf
from tournaments.trf_export import tournament_trf

Block = tuple[int, str, str]


def player_line(rank: int, name: str, points: str, blocks: list[Block], rating: int = 0) -> str:
    head = f"001 {rank:>4} {'':1}{'':>3} {name:<33} {rating or '':>4} {'':>3} {'':>11} {'':>10}"
    head += f"{points:>5} {'':>4}"
    return head + "".join(f"  {opp or '0000':>4} {colour} {code}" for opp, colour, code in blocks)


SEED = "\n".join(
    [
        "012 Fuzz Cup",
        "022 Qo'noS",
        "042 2026/03/01",
        "052 2026/03/02",
        "092 Swiss",
        "XXR 4",
        "XXP 1 4",
        "XXZ 6",
        player_line(1, "Ann", "1.5", [(2, "w", "1"), (3, "b", "+"), (0, "-", "H")], 1800),
        player_line(2, "Bob", "1.0", [(1, "b", "0"), (0, "-", "U"), (4, "w", "=")], 1700),
        player_line(3, "Cid", "0.5", [(4, "w", "="), (1, "w", "-"), (5, "b", "1")], 1600),
        player_line(4, "Dax", "-1.0", [(3, "b", "="), (5, "w", "-"), (2, "b", "=")]),
        player_line(5, "Eve", "1.0", [(0, "-", "Z"), (4, "b", "+"), (3, "w", "0")]),
        player_line(6, "Fay", "1.0", [(0, "-", "F")]),
        player_line(7, "Gus", "", [(0, "-", "-"), (0, "-", "-"), (0, "-", "U")]),
    ]
)
ALPHABET = st.sampled_from(
    list("0123456789 -+=wbWDLHFUZ./\n") + ["²", "١", "\x00", "\x1b", "\t", "\u2028", "é", "X"]
)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """The seed file with a few characters replaced, lines dropped, doubled or cut."""
    lines = SEED.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        what = draw(st.sampled_from(["char", "drop", "double", "cut", "insert"]))
        line = lines[i]
        if what == "char" and line:
            j = draw(st.integers(0, len(line) - 1))
            lines[i] = line[:j] + draw(ALPHABET) + line[j + 1 :]
        elif what == "drop" and len(lines) > 1:
            del lines[i]
        elif what == "double":
            lines.insert(i, line)
        elif what == "cut":
            lines[i] = line[: draw(st.integers(0, len(line)))]
        else:
            j = draw(st.integers(0, len(line)))
            lines[i] = line[:j] + draw(st.text(ALPHABET, max_size=12)) + line[j:]
    return "\n".join(lines) + "\n"


TEXTS = st.one_of(mutated(), st.text(ALPHABET, max_size=300), st.text(max_size=200))


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_the_reader_refuses_only_with_trf_error(text: str) -> None:
    try:
        read_trf(text)
    except TrfError as exc:
        assert str(exc)


@pytest.mark.django_db
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(mutated())
def test_the_import_refuses_only_with_trf_or_validation_error(text: str) -> None:
    try:
        imported = trf_import(text=text)
    except (TrfError, ValidationError):
        return
    exported = tournament_trf(tournament=imported.tournament)
    again = trf_import(text=exported)
    assert again.warnings == []
    assert tournament_trf(tournament=again.tournament) == exported
