"""The variants of Art. 13 and other rule sets: their names and which the engine plays."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from rules.board import CORNER, REGION_NAMES, SQUARE_OF
from rules.messages import gettext_noop, message
from rules.position import KIND_KEYS, KIND_NAMES, RULESET_ITALIAN, WARRIOR_KINDS

KNOWN_VARIANTS: Final = frozenset(
    {
        "alternating-placement",
        "power-vanguards",
        "kaggas-crown",
        "clouded",
        "forward-placement",
        "ablative",
        "reflective",
        "honor-in-setup",
        "kinta",
        "tri-level",
    }
)
SUPPORTED_VARIANTS: Final = frozenset(
    {
        "tri-level",
        "power-vanguards",
        "alternating-placement",
        "forward-placement",
        "honor-in-setup",
        "clouded",
        "ablative",
        "kaggas-crown",
        "reflective",
        "kinta",
    }
)


def parse_variants(text: str) -> frozenset[str]:
    """The variant names of a comma-separated list (a Variants tag, a tournament setting)."""
    return frozenset(v.strip().lower() for v in text.split(",") if v.strip())


def parse_square_list(text: str) -> frozenset[int]:
    """Squares named in a comma- or space-separated list of geometric names."""
    out = set()
    for name in text.replace(",", " ").replace("+", " ").split():
        sq = SQUARE_OF.get(name.upper())
        if sq is None:
            raise ValueError(message("no_triangle", name=repr(name)))
        out.add(sq)
    return frozenset(out)


def parse_crown(text: str) -> int:
    """The designated apex: a corner's square name or the name of its region; -1 if blank."""
    key = text.strip().lower()
    if not key:
        return -1
    if key in REGION_NAMES:
        return CORNER[REGION_NAMES.index(key)]
    sq = SQUARE_OF.get(key.upper())
    if sq is None or sq not in CORNER:
        raise ValueError(message("crown_not_corner", text=repr(text)))
    return sq


def parse_ablation_limit(text: str) -> int:
    """The ablation limit; 0 for none (unlimited)."""
    key = text.strip().lower()
    if key in ("", "none", "unlimited", "0"):
        return 0
    if not key.isdigit():
        raise ValueError(message("ablation_limit", text=repr(text)))
    return int(key)


def parse_removed(text: str) -> int:
    """The kind named by a `Removed` tag (an English key or a warrior's name); 0 if blank."""
    key = text.strip().lower()
    if not key:
        return 0
    for kind in WARRIOR_KINDS:
        if key in (KIND_NAMES[kind].lower(), KIND_KEYS[kind].lower()):
            return kind
    raise ValueError(message("removed_not_warrior", text=repr(text)))


# Variants that leave the board alone and so combine with tri-level (docs/variants-tri-level.md).
TRI_LEVEL_COMPANIONS: Final = frozenset({"tri-level", "alternating-placement", "power-vanguards"})


# Variants whose text cannot be read together with 13.7, and why.
REFUSED: Final = {
    "alternating-placement": (
        gettext_noop("13.1 and 13.7 each rewrite Art. 2.5; reflective placement already alternates")
    ),
    "honor-in-setup": (
        gettext_noop(
            "13.8 and 13.7 each rewrite Art. 2.5; 13.8 places two squads in separate regions"
        )
    ),
    "kinta": gettext_noop("13.9 rewrites movement and combat for two squads of live pieces"),
    "tri-level": gettext_noop("the three-level board has its own squads and setup"),
}


def combination_reason(variants: Iterable[str], crown_named: bool = False) -> str | None:
    """Why `variants` cannot be played together with reflective, or None. `crown_named`
    tells whether Kagga's Crown has its designated apex named (a Crown tag)."""
    named = frozenset(variants)
    if "reflective" not in named:
        return None
    refused = sorted(named & REFUSED.keys())
    if refused:
        return message("reflective_refuses", variant=refused[0], why=REFUSED[refused[0]])
    if "kaggas-crown" in named and not crown_named:
        # 13.3's default is "the region empty during placement"; under 13.7 two are empty.
        return message("reflective_crown")
    return None


def variants_problem(variants: Iterable[str], crown_named: bool = False) -> str | None:
    """Why `variants` cannot be played together (the validator's own message), or None:
    what a tournament's settings are checked with as well as a record's tags."""
    named = frozenset(variants)
    if "tri-level" in named and not named <= TRI_LEVEL_COMPANIONS:
        others = ", ".join(sorted(named - TRI_LEVEL_COMPANIONS))
        return message("tri_level_alone", others=others)
    return combination_reason(named, crown_named)


# The record tag giving each parameterised variant's parameter (a position string writes it
# after the variant's name instead, as in `clouded:E37+F36`).
PARAMETER_TAGS: Final = {"clouded": "Clouds", "kaggas-crown": "Crown", "ablative": "AblationLimit"}


def variant_parameters(variants: frozenset[str], texts: Mapping[str, str]) -> dict[str, Any]:
    """Rules keyword arguments for the variants' parameters, `texts` giving each
    parameterised variant's parameter as written, by the variant's name."""
    clouds = texts.get("clouded", "")
    crown = texts.get("kaggas-crown", "")
    ablation_limit = texts.get("ablative", "")
    reason = variants_problem(variants, bool(crown.strip()))
    if reason is not None:
        raise ValueError(reason)
    return {
        "clouds": parse_square_list(clouds) if "clouded" in variants else frozenset(),
        "crown": parse_crown(crown) if "kaggas-crown" in variants else -1,
        "ablation_limit": parse_ablation_limit(ablation_limit) if "ablative" in variants else 0,
    }


# Variants a ruleset cannot be played with: the Italian society places by its own protocol
# (the Laws' placement variants have nothing to change there), and its trapping Blockader,
# declared carrier and count have no meaning on Kinta's, the reflective or the tri-level board.
EXCLUDED_BY_RULESET: Final = {
    RULESET_ITALIAN: frozenset(
        {
            "alternating-placement",
            "forward-placement",
            "honor-in-setup",
            "reflective",
            "kinta",
            "tri-level",
        }
    ),
}


def combination_problem(ruleset: str, variants: frozenset[str]) -> str | None:
    """Why a ruleset and a set of variants cannot be played together, or None."""
    clash = sorted(variants & EXCLUDED_BY_RULESET.get(ruleset, frozenset()))
    if clash:
        return message("ruleset_excludes", ruleset=repr(ruleset), variants=", ".join(clash))
    return None
