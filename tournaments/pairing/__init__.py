"""Pairing engines on plain objects: Swiss (Dutch-style), round robin (Berger), knockout, and
the recorded spindle casts. No ORM here: services hand in players and store the result."""

from tournaments.pairing.base import Pairing, PairingPlayer, RoundPairing
from tournaments.pairing.berger import berger_round, berger_table
from tournaments.pairing.check import pairing_check
from tournaments.pairing.knockout import (
    BracketTie,
    knockout_bracket,
    knockout_next_round,
    knockout_rounds,
    knockout_stages,
    seeding_order,
)
from tournaments.pairing.spindle import (
    PLACEMENT_CAST,
    SpindleCast,
    SpindleChoice,
    spindle_cast,
    spindle_choice_check,
    spindle_choice_default,
    spindle_seed_new,
    spindle_summary,
)
from tournaments.pairing.swiss import pair_swiss

__all__ = [
    "BracketTie",
    "PLACEMENT_CAST",
    "Pairing",
    "PairingPlayer",
    "RoundPairing",
    "SpindleCast",
    "SpindleChoice",
    "berger_round",
    "berger_table",
    "knockout_bracket",
    "knockout_next_round",
    "knockout_rounds",
    "knockout_stages",
    "pair_swiss",
    "pairing_check",
    "seeding_order",
    "spindle_cast",
    "spindle_choice_check",
    "spindle_choice_default",
    "spindle_seed_new",
    "spindle_summary",
]
