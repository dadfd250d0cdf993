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
