"""Where the variants register their positions, boards and pictures for the core to find."""

from __future__ import annotations

from typing import Final

from rules.board import Coordinates
from rules.engines import ENGINES, SUPPLIES, Picture
from rules.position import RULESET_ITALIAN, Position

# Which engine plays a battle that names several (the first named here wins); an engine
# registered under another name comes after these, in the order of registration.
PRECEDENCE: Final = ("tri-level", "reflective", "kinta", RULESET_ITALIAN)


def _rank(name: str) -> int:
    return PRECEDENCE.index(name) if name in PRECEDENCE else len(PRECEDENCE)


def _register_engine(what: str, name: str, cls: type[Position]) -> None:
    # Registering again (a module reloaded) replaces the entry instead of adding one.
    ENGINES[:] = [e for e in ENGINES if e[:2] != (what, name)]
    ENGINES.append((what, name, cls))
    ENGINES.sort(key=lambda e: _rank(e[1]))


def register_variant(
    name: str, cls: type[Position], *, coordinates: Coordinates | None = None
) -> None:
    """Play the battles of variant `name` with `cls`; `coordinates`: how their records name
    squares, when the variant has a board of its own."""
    _register_engine("variant", name, cls)
    if coordinates is not None:
        SUPPLIES[(name, "coordinates")] = coordinates


def register_ruleset(name: str, cls: type[Position]) -> None:
    """Play the battles of ruleset `name` (a Ruleset tag's value) with `cls`."""
    _register_engine("ruleset", name, cls)


def register_pictures(name: str, *, svg: Picture, text: Picture) -> None:
    """Draw the positions of variant `name` with its own `svg` and `text` pictures (called
    as rules.svg.render_svg and rules.diagram's render_text are)."""
    SUPPLIES[(name, "svg")] = svg
    SUPPLIES[(name, "text")] = text


def variant_engine(name: str) -> type[Position] | None:
    """The position class registered for the variant or ruleset `name`, or None."""
    for _what, registered, cls in ENGINES:
        if registered == name:
            return cls
    return None
