"""Simulated Swiss events on plain objects, shared by the pairing tests and benchmarks."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from tournaments.pairing.base import PairingPlayer, RoundPairing
from tournaments.pairing.swiss import placement_preference

# Klin Zha's points for each TRF code a simulated round records.
_POINTS = {"1": 1.0, "0": 0.0, "=": -0.5, "+": 1.0, "-": 0.0, "U": 1.0, "Z": 0.0}


@dataclass(frozen=True, slots=True)
class Played:
    """One player's round: opponent (None for a bye or absence), 'F'/'S'/'-', and the TRF
    result code ('1', '0', '=' played; 'U' pairing-allocated bye; 'Z' absent)."""

    opponent: int | None
    placement: str
    code: str


@dataclass(slots=True)
class Event:
    """A Swiss event of `n` players ranked 1..n. Each round, `present()` says who plays (after
    round 1 each player misses a round with probability `absent`), the caller pairs them with
    any engine, and `play()` records random results: a draw (probability `draws`) costs each
    side 1/2, as in Klin Zha; the rest are wins and losses in equal parts."""

    n: int
    seed: int = 1
    draws: float = 0.10
    absent: float = 0.05
    rng: random.Random = field(init=False)
    players: dict[int, PairingPlayer] = field(init=False)
    history: dict[int, list[Played]] = field(init=False)
    rounds_played: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.players = {i: PairingPlayer(i, i) for i in range(1, self.n + 1)}
        self.history = {i: [] for i in self.players}

    def present(self) -> list[PairingPlayer]:
        if self.rounds_played == 0:
            return list(self.players.values())
        return [p for p in self.players.values() if self.rng.random() >= self.absent]

    def play(self, result: RoundPairing) -> None:
        """Record the round as paired in `result` with random results; everyone not in it was
        absent (0 points)."""
        before = {pid: p.score for pid, p in self.players.items()}
        seen: set[int] = set()
        for pr in result.pairings:
            roll = self.rng.random()
            if roll < self.draws:
                first, second, codes = -0.5, -0.5, ("=", "=")
            elif roll < self.draws + (1 - self.draws) / 2:
                first, second, codes = 1.0, 0.0, ("1", "0")
            else:
                first, second, codes = 0.0, 1.0, ("0", "1")
            self._record(pr.first, pr.second, "F", first, codes[0], False)
            self._record(pr.second, pr.first, "S", second, codes[1], False)
            seen |= {pr.first, pr.second}
        if result.bye is not None:
            self._record(result.bye, None, "-", 1.0, "U", True)
            seen.add(result.bye)
        for pid in self.players:
            if pid not in seen:
                self.history[pid].append(Played(None, "-", "Z"))
        self._floats_record(before)
        self.rounds_played += 1

    def record(self, games: list[tuple[int, int | None, str]]) -> None:
        """Record a round as given: (first, second, first's TRF code: '1', '0', '=', '+',
        '-'), or (player, None, 'U' bye / 'Z' absent); players not named were absent."""
        other = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}
        before = {pid: p.score for pid, p in self.players.items()}
        seen: set[int] = set()
        for a, b, code in games:
            seen.add(a)
            if b is None:
                self._record(a, None, "-", _POINTS[code], code, code == "U")
                continue
            seen.add(b)
            # A forfeit's placement is written but counts for nobody (FIDE C.04.3 A.6
            # counts the colours of games played).
            played = code not in "+-"
            back = other[code]
            self._record(a, b, "F", _POINTS[code], code, False, back == "-", played)
            self._record(b, a, "S", _POINTS[back], back, False, code == "-", played)
        for pid in self.players:
            if pid not in seen:
                self.history[pid].append(Played(None, "-", "Z"))
        self._floats_record(before)
        self.rounds_played += 1

    def _floats_record(self, before: dict[int, float]) -> None:
        """Each player's float in the round just recorded, from the scores `before` it
        (FIDE C.04.3 A.4): down against a lower score or without a game played."""
        for pid, p in self.players.items():
            last = self.history[pid][-1]
            if last.opponent is None or last.code in "+-":
                mark = "D"
            else:
                mine, theirs = before[pid], before[last.opponent]
                mark = "D" if mine > theirs else "U" if mine < theirs else ""
            self.players[pid] = replace(p, floats=(*p.floats, mark))

    def _record(
        self,
        pid: int,
        opponent: int | None,
        placement: str,
        points: float,
        code: str,
        bye: bool,
        forfeit_win: bool = False,
        placed: bool = True,
    ) -> None:
        p = self.players[pid]
        self.history[pid].append(Played(opponent, placement, code))
        self.players[pid] = replace(
            p,
            score=p.score + points,
            opponents=p.opponents | {opponent} if opponent is not None else p.opponents,
            had_bye=p.had_bye or bye,
            placements=p.placements + (placement,) if placement != "-" and placed else p.placements,
            forfeit_win=p.forfeit_win or forfeit_win,
        )


@dataclass(slots=True)
class Quality:
    """How a round's pairing scores on the FIDE Dutch criteria, for comparing engines."""

    floaters: int = 0  # pairs of unequal score: one player floats down in each
    score_diff: float = 0.0  # sum over pairs of the score difference
    absolute: int = 0  # players denied an absolute placement preference
    strong: int = 0  # ... a strong one
    mild: int = 0  # ... a mild one
    hard: int = 0  # rematches, second byes, players not paired exactly once: must be 0
    bye_score: float | None = None


def round_quality(players: list[PairingPlayer], result: RoundPairing) -> Quality:
    by_id = {p.id: p for p in players}
    q = Quality()
    seen: dict[int, int] = {}
    for pr in result.pairings:
        a, b = by_id[pr.first], by_id[pr.second]
        seen[a.id] = seen.get(a.id, 0) + 1
        seen[b.id] = seen.get(b.id, 0) + 1
        if b.id in a.opponents:
            q.hard += 1
        if a.score != b.score:
            q.floaters += 1
            q.score_diff += abs(a.score - b.score)
        for p, got in ((a, "F"), (b, "S")):
            side, strength = placement_preference(p.placements)
            if side and side != got:
                if strength == 3:
                    q.absolute += 1
                elif strength == 2:
                    q.strong += 1
                else:
                    q.mild += 1
    if result.bye is not None:
        seen[result.bye] = seen.get(result.bye, 0) + 1
        q.bye_score = by_id[result.bye].score
        q.hard += by_id[result.bye].had_bye
    q.hard += sum(1 for p in players if seen.get(p.id, 0) != 1)
    return q


def preferences_key(q: Quality) -> tuple[int, int]:
    """Placement preferences denied as the FIDE Dutch criteria order them: every preference
    denied first (C.04.3 C12), then the strong (and absolute) ones among them (C13). The
    mild ones alone are no criterion: of two pairings denying as many, the one denying a mild
    preference where the other denies a strong one is the better, and has one mild more."""
    return (q.absolute + q.strong + q.mild, q.absolute + q.strong)
