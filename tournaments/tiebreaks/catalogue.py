"""The tie-breaks an arbiter may choose, by FIDE code (Handbook C.07), and today's names."""

from __future__ import annotations

from dataclasses import dataclass

# The regulation's revisions an event may follow: the one in force since 1 March 2026 (the
# default) and the 2024 one (no cap on an unplayed round's dummy score, Art. 16.4).
RULES_2026 = "2026"
RULES_2024 = "2024"
RULES_VERSIONS = (RULES_2026, RULES_2024)


@dataclass(frozen=True, slots=True)
class Spec:
    """One tie-break as chosen: its base code, cut of the lowest and the highest values."""

    base: str
    cut_low: int = 0
    cut_high: int = 0


# Every tie-break on offer, in the order the arbiter's list shows them. `-Cn` cuts the n
# least significant values, `-Mn` the n least and the n most significant (Art. 14); the
# form `BH/C1` (the FIDE checker's) is read as `BH-C1`.
CODES = (
    "BH",
    "BH-C1",
    "BH-C2",
    "BH-M1",
    "BH-M2",
    "FB",
    "FB-C1",
    "FB-M1",
    "SB",
    "SB-C1",
    "SSB",
    "AOB",
    "DE",
    "WIN",
    "WON",
    "BPG",
    "BWG",
    "PS",
    "PS-C1",
    "KS",
    "ARO",
    "ARO-C1",
    "ARO-M1",
    "TPR",
    "PTP",
)

# The names the standings used before the FIDE codes: still accepted wherever a list of
# tie-breaks is read, and still written beside the code in JSON and CSV.
ALIASES = {
    "buchholz": "BH",
    "buchholz_cut1": "BH-C1",
    "median_buchholz": "BH-M1",
    "sonneborn_berger": "SSB",
    "wins": "WON",
    "progressive": "PS",
    "direct_encounter": "DE",
    "koya": "KS",
}
ALIAS_OF = {code: alias for alias, code in ALIASES.items()}

# The English names (the pages translate them): FIDE's, and ours for SSB.
NAMES = {
    "BH": "Buchholz",
    "FB": "Fore Buchholz",
    "SB": "Sonneborn-Berger",
    "SSB": "Shifted Sonneborn-Berger",
    "AOB": "Average of Opponents' Buchholz",
    "DE": "Direct Encounter",
    "WIN": "Number of Wins",
    "WON": "Number of Games Won",
    "BPG": "Number of Games Placed Second",
    "BWG": "Number of Games Won Placed Second",
    "PS": "Progressive Scores",
    "KS": "Koya System",
    "ARO": "Average Rating of Opponents",
    "TPR": "Tournament Performance Rating",
    "PTP": "Perfect Tournament Performance",
}

# Counts and ratings are whole numbers in JSON; the rest are points.
WHOLE = frozenset({"WIN", "WON", "BPG", "BWG", "ARO", "TPR", "PTP"})


def code_of(name: str) -> str:
    """The FIDE code of a tie-break named by code or by today's name (ValueError if none)."""
    code = ALIASES.get(name, name).replace("/", "-")
    if code not in CODES:
        raise ValueError(f"unknown tie-break {name!r}")
    return code


def spec_of(code: str) -> Spec:
    """The base and cuts of a code of CODES: `BH-C1` cuts one low, `BH-M1` one low, one high."""
    base, _, modifier = code.partition("-")
    if not modifier:
        return Spec(base)
    n = int(modifier[1:])
    return Spec(base, n, n if modifier[0] == "M" else 0)


def name_of(code: str) -> str:
    """`Buchholz Cut 1`, `Buchholz Median 1`: the English name with its modifier."""
    spec = spec_of(code)
    name = NAMES[spec.base]
    if spec.cut_high:
        return f"{name} Median {spec.cut_high}"
    if spec.cut_low:
        return f"{name} Cut {spec.cut_low}"
    return name
