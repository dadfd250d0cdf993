"""Spindle casts (Art. 2.3) made by the product with a recorded seed, so anyone can check
them: the casts are drawn from SHA-256 of "seed/game/n", one six-sided cast per byte
pair kept below 65,532 (an unbiased die), recast on ties."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SpindleCast:
    """Every cast made (first combatant, second combatant), and who has the option."""

    seed: str
    game: str
    casts: tuple[tuple[int, int], ...]

    @property
    def option(self) -> int:
        """0 when the first named combatant cast higher, 1 for the second."""
        a, b = self.casts[-1]
        return 0 if a > b else 1


def dice(seed: str, game: str) -> list[int]:
    """64 fair six-sided casts drawn from the seed, the same for anyone who checks."""
    out = []
    n = 0
    while len(out) < 64:
        digest = hashlib.sha256(f"{seed}/{game}/{n}".encode()).digest()
        n += 1
        for i in range(0, len(digest), 2):
            v = digest[i] << 8 | digest[i + 1]
            if v < 65532:  # 65532 = 6 x 10922: keeps every face equally likely
                out.append(v % 6 + 1)
    return out


def spindle_cast(seed: str, game: str) -> SpindleCast:
    """The casts of one game: both combatants cast, recasting while tied."""
    faces = dice(seed, game)
    casts = []
    for i in range(0, len(faces) - 1, 2):
        casts.append((faces[i], faces[i + 1]))
        if faces[i] != faces[i + 1]:
            break
    return SpindleCast(seed, game, tuple(casts))


def spindle_seed_new(*, slug: str, round_number: int, board: int) -> str:
    """A fresh seed for a game's casts: where it was played, and a secret part nobody could
    choose in advance."""
    return f"{slug}/{round_number}/{board}/{secrets.token_hex(8)}"


# The cast of a battle's placement (Art. 2.3) is drawn under this name from the game's seed.
PLACEMENT_CAST = "2.3"
FIRST, LAST = "first", "last"


@dataclass(frozen=True, slots=True)
class SpindleChoice:
    """What followed a cast (combatants as 0, the first caster, and 1): `option` has the
    option; `chooser` chose `placement` ("first" or "last") for themselves, having been
    granted the option when they are not `option`; None when no choice is made (the
    Italian society: the higher cast places first)."""

    option: int
    chooser: int | None
    placement: str

    @property
    def granted(self) -> bool:
        return self.chooser is not None and self.chooser != self.option

    @property
    def first_placer(self) -> int:
        """0 or 1: who places first."""
        if self.chooser is None:
            return self.option
        return self.chooser if self.placement == FIRST else 1 - self.chooser


def spindle_choice_default(cast: SpindleCast, *, booklet: bool = False) -> SpindleChoice:
    """The choice the product assumes until the arbiter records the one declared. Art. 2.3's
    note on honour: the honourable winner of the cast grants the option, and the one granted
    it takes first placement. The Italian society's booklet leaves no choice: the higher
    cast places first ("disporrà per primo")."""
    if booklet:
        return SpindleChoice(cast.option, None, FIRST)
    return SpindleChoice(cast.option, 1 - cast.option, FIRST)


def spindle_choice_check(cast: SpindleCast, *, chooser: int, placement: str) -> SpindleChoice:
    """A declared choice: either combatant may have chosen (the option holder, or the other
    when granted the option), for first or last placement. The grant is one step only: the
    one granted cannot grant it back (Art. 2.3)."""
    if chooser not in (0, 1):
        raise ValueError("the chooser must be one of the two combatants")
    if placement not in (FIRST, LAST):
        raise ValueError(f"a combatant chooses to place first or last, not {placement!r}")
    return SpindleChoice(cast.option, chooser, placement)


def spindle_summary(
    *,
    seed: str,
    casters: tuple[int, int],
    chooser: int | None,
    placement: str,
) -> dict[str, object]:
    """The cast and the choice as pages and the API show them, the combatants by their ids:
    each cast pair in `casters` order (ties recast), who had the option, whether it was
    granted, who chose which placement, and who places first by it."""
    cast = spindle_cast(seed, PLACEMENT_CAST)
    index = None if chooser is None else casters.index(chooser)
    choice = SpindleChoice(cast.option, index, placement or FIRST)
    return {
        "seed": seed,
        "casters": list(casters),
        "casts": [list(pair) for pair in cast.casts],
        "option": casters[cast.option],
        "granted": choice.granted,
        "chooser": chooser,
        "choice": placement or FIRST,
        "first_placer": casters[choice.first_placer],
    }
