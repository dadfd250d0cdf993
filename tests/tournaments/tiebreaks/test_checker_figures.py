"""Our tie-breaks beside the FIDE tie-break checker's (TieBreakServer, run on these events
written as TRF with `162 W 1.0 D-0.5 L 0.0`): the figures below are the checker's.

Where FIDE's formula reads a draw as a neutral result (an opponent's rounds after leaving,
Fore Buchholz's last round, the 2026 cap on the dummy) we use ½, and Sonneborn-Berger
multiplies by Standard Points (docs/tiebreaks.md); the checker takes Klin Zha's −½ literally
there. With those two adaptations undone, our Buchholz family gives the checker's figures
exactly; with them, every tie-break that does not use them does too."""

from __future__ import annotations

import pytest

import tournaments.tiebreaks.buchholz as buchholz_module
import tournaments.tiebreaks.rounds as rounds_module
from tests.tournaments.tiebreaks.events import EVENT_A, EVENT_B, values
from tournaments.scoring import Outcome

PLAIN = ("PS", "KS", "WIN", "WON", "BPG", "BWG", "ARO", "TPR", "PTP", "DE")
# Rows by start number, columns as PLAIN: the checker's output.
CHECKER_PLAIN = {
    "A": {
        1: (4.5, 2, 2, 2, 0, 0, 1650, 1745, 1746, 0),
        2: (3, 0, 2, 1, 1, 0, 1700, 1575, 1571, 0),
        3: (-3.5, 0, 0, 0, 2, 0, 1733, 1608, 1605, 0),
        4: (1, 0, 1, 1, 1, 0, 1625, 1818, 1822, 0),
        5: (8, 1, 3, 1, 2, 1, 1775, 1775, 1775, 0),
        6: (1, 0, 1, 1, 2, 1, 1725, 1725, 1724, 0),
    },
    "B": {
        1: (0, 0.5, 1, 1, 2, 1, 1767, 1892, 1903, 0),
        2: (-1.5, 0, 0, 0, 3, 0, 1767, 1494, 1441, 0),
        3: (4, 1, 2, 1, 1, 1, 1850, 1850, 1847, 0),
        4: (3, 0, 2, 1, 0, 0, 1850, 1850, 1847, 0),
        5: (4.5, 0, 2, 1, 0, 0, 1950, 2143, 2146, 0),
    },
}

LITERAL = ("BH", "BH-C1", "BH-M1", "FB", "SB", "SB-C1", "AOB")
CHECKER_LITERAL = {
    ("A", "2026"): {
        1: (5, 6, 3, 1.5, 5.5, 5, 1.25),
        2: (4.5, 5.5, 2.5, 2, 0, 1, 1.83),
        3: (1, 3, 1, -1, -0.5, -0.5, 1.83),
        4: (-4, -2, -3, -6, 1.5, 1.5, 0.5),
        5: (-0.5, 1.5, -0.5, -2.5, -2, 0, 4.75),
        6: (0, 2, 0.5, -2, 1.5, 1.5, 0.5),
    },
    ("B", "2026"): {
        1: (3, 3.5, 1.5, 2.5, 1.5, 1.25, 0.67),
        2: (3.5, 3.5, 1.5, 2, 0, 0, 0.33),
        3: (0.5, 2, 0, -1, 0.5, 2, 1.5),
        4: (0, 1.5, -0.5, -0.5, -2, -0.5, 2),
        5: (-2, -0.5, -0.5, -2.5, -2, -0.5, 3.25),
    },
    ("A", "2024"): {
        1: (5, 6, 3, 1.5, 5.5, 5, 5),
        2: (5.5, 6.5, 3.5, 3, 1, 2, 5.5),
        3: (2, 3, 1, -0.5, -0.5, -0.5, 3.83),
        4: (1, 0.5, -0.5, -1, 1.5, 1, 2.5),
        5: (9.5, 8, 5, 7.5, 8, 8, 5.25),
        6: (3, 2, 0.5, -0.5, 1.5, 1.5, 3),
    },
    ("B", "2024"): {
        1: (3, 3.5, 1.5, 2.5, 1.5, 1.25, 2.83),
        2: (3.5, 3.5, 1.5, 2, 0, 0, 2.5),
        3: (4, 4, 2, 2.5, 4, 4, 3.25),
        4: (3.5, 4, 2, 1.5, 1.5, 2, 3.75),
        5: (1, 1.5, 0, 0.5, 1, 1.5, 3.25),
    },
}
EVENTS = {"A": EVENT_A, "B": EVENT_B}


@pytest.mark.parametrize("name", ["A", "B"])
def test_tiebreaks_without_adaptation_equal_the_checkers(name):
    got = values(EVENTS[name], PLAIN)
    assert {pid: tuple(v[c] for c in PLAIN) for pid, v in got.items()} == CHECKER_PLAIN[name]


@pytest.fixture
def literal_draw(monkeypatch):
    """Our code with Klin Zha's adaptations undone: the neutral result is the game's −½
    draw and Sonneborn-Berger multiplies by game points, as the checker reads the file."""
    monkeypatch.setattr(rounds_module, "NEUTRAL", -0.5)
    monkeypatch.setattr(buchholz_module, "NEUTRAL", -0.5)
    monkeypatch.setitem(rounds_module._STANDARD_PLAYED, Outcome.DRAW, -0.5)


@pytest.mark.parametrize(("name", "rules"), sorted(CHECKER_LITERAL))
def test_buchholz_family_read_literally_equals_the_checkers(literal_draw, name, rules):
    got = values(EVENTS[name], LITERAL, rules)
    assert {pid: tuple(v[c] for c in LITERAL) for pid, v in got.items()} == CHECKER_LITERAL[
        (name, rules)
    ]


def test_the_adaptations_change_only_what_they_say():
    """With Klin Zha's neutral ½: player 5 of event B had the pairing-allocated bye in round
    1; the 2026 cap is ½ × 3 rounds = 1½ (his own score), not −½ × 3 = −1½."""
    got = values(EVENT_B, ("BH",))
    assert got[5]["BH"] == -2 + 3  # the checker's literal −2, the dummy raised by 3
