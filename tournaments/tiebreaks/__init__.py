"""FIDE's tie-breaks (Handbook C.07, 2026 and 2024) on plain objects, adapted to Klin Zha's
−½ draw as docs/tiebreaks.md says; tournaments.standings orders the players with them."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.tiebreaks.buchholz import aob_values, buchholz_values, fore_field
from tournaments.tiebreaks.catalogue import (
    ALIAS_OF,
    ALIASES,
    CODES,
    NAMES,
    RULES_2024,
    RULES_2026,
    RULES_VERSIONS,
    WHOLE,
    code_of,
    name_of,
    spec_of,
)
from tournaments.tiebreaks.counts import (
    count_values,
    koya_values,
    progressive_values,
    rating_values,
    shifted_sb_values,
)
from tournaments.tiebreaks.encounter import direct_encounter_values
from tournaments.tiebreaks.rounds import NEUTRAL, Field, field_make, standard_points

__all__ = [
    "ALIASES",
    "ALIAS_OF",
    "CODES",
    "NAMES",
    "NEUTRAL",
    "RULES_2024",
    "RULES_2026",
    "RULES_VERSIONS",
    "WHOLE",
    "Field",
    "code_of",
    "direct_encounter_values",
    "field_make",
    "name_of",
    "spec_of",
    "standard_points",
    "tiebreak_values",
]


def tiebreak_values(
    field: Field, codes: Sequence[str], *, rules: str = RULES_2026
) -> dict[str, dict[int, float]]:
    """Every player's value of each code but DE (which needs the order before it)."""
    out: dict[str, dict[int, float]] = {}
    for code in codes:
        if code == "DE" or code in out:
            continue
        spec = spec_of(code)
        base = spec.base
        if base in ("BH", "SB"):
            out[code] = buchholz_values(field, spec, rules)
        elif base == "FB":
            out[code] = buchholz_values(fore_field(field), spec, rules)
        elif base == "AOB":
            out[code] = aob_values(field, rules)
        elif base in ("WIN", "WON", "BPG", "BWG"):
            out[code] = count_values(field, base)
        elif base == "PS":
            out[code] = progressive_values(field, spec)
        elif base == "KS":
            out[code] = koya_values(field)
        elif base in ("ARO", "TPR", "PTP"):
            out[code] = rating_values(field, spec)
        elif base == "SSB":
            out[code] = shifted_sb_values(field)
        else:
            raise ValueError(f"unknown tie-break {code!r}")
    return out
