"""What the pages, forms and `kz` say of each tie-break: its FIDE code, name and one line of
meaning (docs/tiebreaks.md has the rules in full)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.formats import points_shown
from tournaments.tiebreaks import CODES, code_of, spec_of

# FIDE's names (C.07), and ours for the shifted Sonneborn-Berger.
TIEBREAK_NAMES: dict[str, Promise] = {
    "BH": _("Buchholz"),
    "FB": _("Fore Buchholz"),
    "SB": _("Sonneborn-Berger"),
    "SSB": _("Shifted Sonneborn-Berger"),
    "AOB": _("Average of Opponents' Buchholz"),
    "DE": _("Direct Encounter"),
    "WIN": _("Number of Wins"),
    "WON": _("Number of Games Won"),
    "BPG": _("Number of Games Placed Second"),
    "BWG": _("Number of Games Won Placed Second"),
    "PS": _("Progressive Scores"),
    "KS": _("Koya System"),
    "ARO": _("Average Rating of Opponents"),
    "TPR": _("Tournament Performance Rating"),
    "PTP": _("Perfect Tournament Performance"),
}

# One line each: what the value sums or counts.
TIEBREAK_MEANINGS: dict[str, Promise] = {
    "BH": _(
        "the sum of the opponents' scores; an unplayed round counts a dummy opponent (C.07 Art. 16)"
    ),
    "FB": _("Buchholz with every pairing of the last round counted as an even result"),
    "SB": _("the sum of each opponent's score times the Standard Points scored against them"),
    "SSB": _(
        "the scores of the opponents one beat, plus half of those one drew with, each "
        "shifted by ½ per round so that no opponent counts below zero"
    ),
    "AOB": _("the average of the Buchholz of the opponents one played"),
    "DE": _("the points scored among the tied players (C.07 Art. 6)"),
    "WIN": _("rounds won, with or without a game"),
    "WON": _("battles won on the board"),
    "BPG": _("battles played as the second placer"),
    "BWG": _("battles won as the second placer"),
    "PS": _("the sum of the running score after each round"),
    "KS": _("points against the opponents who scored at least half of the rounds"),
    "ARO": _("the average start-list rating of the rated opponents one played"),
    "TPR": _("the average rating of the opponents plus the rating difference the score stands for"),
    "PTP": _("the lowest rating whose expected score against the opponents reaches the score"),
}


def tiebreak_name(name: str) -> str:
    """`Buchholz Cut 1`: the translated name of a code (or of today's name) and its cut."""
    spec = spec_of(code_of(name))
    text = str(TIEBREAK_NAMES[spec.base])
    if spec.cut_high:
        return gettext("%(name)s Median %(n)s") % {"name": text, "n": spec.cut_high}
    if spec.cut_low:
        return gettext("%(name)s Cut %(n)s") % {"name": text, "n": spec.cut_low}
    return text


def tiebreak_choices() -> list[tuple[str, str]]:
    """Every code on offer with its name, for the arbiter's list."""
    return [(code, f"{code} – {tiebreak_name(code)}") for code in CODES]


def tiebreak_legend(tiebreaks: Sequence[str], rounds: int) -> list[tuple[str, str]]:
    """Each column's code with its name and meaning; the shifted Sonneborn-Berger's shift
    as the standings computed it (½ per round)."""
    out = []
    for tb in tiebreaks:
        code = code_of(tb)
        text = f"{tiebreak_name(code)}: {TIEBREAK_MEANINGS[spec_of(code).base]}"
        if code == "SSB":
            shift = points_shown(0.5 * rounds)
            text += " " + gettext("(here +%(shift)s after %(n)s rounds)") % {
                "shift": shift,
                "n": rounds,
            }
        out.append((code, text))
    return out
