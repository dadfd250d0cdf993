"""The plain objects the pairing engines read and write."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class PairingPlayer:
    """A player as the pairing sees them. `score` may be negative (a draw is -1/2);
    `placements` holds 'F' (placed first) / 'S' (second) for each game played, in order;
    `rank` is the initial ranking (1 = strongest); `forfeit_win`: won a round by forfeit
    (like an earlier bye, it bars the pairing-allocated bye, FIDE C.04.3 C2); `floats` holds
    each past round's float, 'D' down (a higher score than the opponent's, or no game), 'U'
    up, '' none (FIDE C.04.3 A.4), in order."""

    id: int
    rank: int
    score: float = 0.0
    rating: int = 0
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False
    placements: tuple[str, ...] = ()
    club: str = ""
    forbidden: frozenset[int] = frozenset()
    name: str = ""
    forfeit_win: bool = False
    floats: tuple[str, ...] = ()

    @property
    def bye_allowed(self) -> bool:
        """Whether the player may get the pairing-allocated bye (FIDE C.04.3 C2)."""
        return not (self.had_bye or self.forfeit_win)

    @property
    def label(self) -> str:
        """How explanations and warnings name the player: name and start rank."""
        return f"{self.name} (#{self.rank})" if self.name else f"player #{self.rank}"

    @property
    def balance(self) -> int:
        """Times placed first minus times placed second."""
        return self.placements.count("F") - self.placements.count("S")


@dataclass(frozen=True, slots=True)
class Pairing:
    first: int
    second: int


@dataclass(slots=True)
class RoundPairing:
    """The pairings of a round (`first` places first), the pairing-allocated bye, and the
    explanation an arbiter reads before publishing."""

    pairings: list[Pairing] = field(default_factory=list)
    bye: int | None = None
    explanation: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # Why no pairing exists within the hard rules (then there are no pairings), or "".
    blocked: str = ""
