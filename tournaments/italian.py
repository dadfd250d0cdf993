"""The Italian Klin Zha Society's tournament procedure on plain objects: time-out decisions,
the coin, the final's power vanguards and the Bach'san replay's die."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from rules.italian import BACHSAN_KIND_OF_FACE, timeout_count
from rules.position import COLOR_NAMES, KIND_NAMES, Position

RULESET = "italian-society"
FINAL_VARIANT = "power-vanguards"


def _draw(seed: str, label: str, faces: int) -> int:
    """A fair face 1..faces drawn from SHA-256 of seed/label, so anyone can check it."""
    n = 0
    limit = 65536 - 65536 % faces
    while True:
        digest = hashlib.sha256(f"{seed}/{label}/{n}".encode()).digest()
        for i in range(0, len(digest), 2):
            v = digest[i] << 8 | digest[i + 1]
            if v < limit:
                return v % faces + 1
        n += 1


def coin_toss(seed: str) -> int:
    """The coin for a tied count: 0 green, 1 gold."""
    return _draw(seed, "coin", 2) - 1


def bachsan_die(seed: str) -> int:
    """The warrior kind the Bach'san replay is played without (the die's face is its
    Appendix D.1.1 ID: 1 Blockader, 2 Fencer, 3 Vanguard, 4 Lancer, 5 Flier, 6 Swift)."""
    return BACHSAN_KIND_OF_FACE[_draw(seed, "bachsan", 6)]


def game_variants(tournament_variants: str, ruleset: str, *, final: bool) -> frozenset[str]:
    """The variants a game is played with: the tournament's, and in the society's final
    the power vanguards."""
    variants = {v.strip().lower() for v in tournament_variants.split(",") if v.strip()}
    if ruleset == RULESET and final:
        variants.add(FINAL_VARIANT)
    return frozenset(variants)


@dataclass(frozen=True, slots=True)
class TimeoutDecision:
    """How a battle stopped at time-out is decided: `count` (the winner by the count of killed
    and trapped warriors), `coin` (a tied count or a Bach'san replay: a victory without honour)
    or `bachsan` (a final: replayed without `removed`)."""

    how: str
    winner: int | None
    explanation: str
    removed: int = 0

    @property
    def winner_name(self) -> str | None:
        return None if self.winner is None else COLOR_NAMES[self.winner]


def timeout_decide(pos: Position, *, seed: str, final: bool, bachsan: bool) -> TimeoutDecision:
    """Decide a time-out under the society's rules from the position the battle stopped in."""
    if bachsan:
        side = coin_toss(seed + "/bachsan")
        return TimeoutDecision(
            "coin",
            side,
            f"the Bach'san replay ran out of time too: the coin gives {COLOR_NAMES[side]} a "
            "victory without honour",
        )
    if final:
        removed = bachsan_die(seed)
        return TimeoutDecision(
            "bachsan",
            None,
            f"the final ran out of time: Bach'san, replayed without a {KIND_NAMES[removed]} "
            "each (cast by the die)",
            removed,
        )
    count = timeout_count(pos)
    if count.winner is None:
        side = coin_toss(seed)
        return TimeoutDecision(
            "coin",
            side,
            f"{count.describe()}: a tie, the coin gives {COLOR_NAMES[side]} a victory without "
            "honour",
        )
    return TimeoutDecision("count", count.winner, f"{count.describe()}")
