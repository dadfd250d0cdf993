"""The Italian Klin Zha Society's tournament procedure on plain objects: time-out decisions,
the coin, the final's power vanguards and the Bach'san replay's die."""

from __future__ import annotations

from dataclasses import dataclass

from rules.italian import BACHSAN_KIND_OF_FACE, timeout_count
from rules.position import COLOR_NAMES, KIND_NAMES, RULESET_ITALIAN, Position
from rules.variants import parse_variants
from tournaments.pairing.spindle import dice

RULESET = RULESET_ITALIAN
# "Durante i tornei, dove le partite durano 20 minuti": the battle lasts twenty minutes, both
# clocks together (rules.clock: the count follows once the two have run 1200 s), not each.
TIME_CONTROL = "1200"
FINAL_VARIANT = "power-vanguards"


def coin_toss(seed: str) -> int:
    """The coin for a tied count: 0 green, 1 gold."""
    # An even or odd face of a fair die is a fair coin.
    return dice(seed, "coin")[0] % 2


def bachsan_die(seed: str) -> int:
    """The warrior kind the Bach'san replay is played without (the die's face is its
    Appendix D.1.1 ID: 1 Blockader, 2 Fencer, 3 Vanguard, 4 Lancer, 5 Flier, 6 Swift)."""
    return BACHSAN_KIND_OF_FACE[dice(seed, "bachsan")[0]]


def game_variants(tournament_variants: str, ruleset: str, *, final: bool) -> frozenset[str]:
    """The variants a game is played with: the tournament's, and in the society's final
    the power vanguards."""
    variants = parse_variants(tournament_variants)
    if ruleset == RULESET and final:
        return variants | {FINAL_VARIANT}
    return variants


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
