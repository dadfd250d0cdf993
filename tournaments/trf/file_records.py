"""The TRF records as plain objects: games, players, the tournament, and who played when.

Colour `w` means "placed first", `b` placed second. A `-` without an opponent
(`0000 - -`) is an absence; a blank block (or a line that ends early) is no entry at all; a
blank result with an opponent is a game still being played. A withdrawal: a player listed on
an `XXZ` line (JaVaFo: not to be paired in the next round), or one with an absence in a
column after the last played round, or one with no entry in the last played rounds, left
after their last game or bye. Leading rounds without an entry are a late entry, and so
are leading zero-point byes (`0000 - Z` from round 1 on, outside a round robin): the export
writes a late entrant's missed rounds that way (`late_zero_byes_drop`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

RESULT_CODES = "10=+-HFUZWDL"
# Sets, not strings: "" (PENDING) is in every string.
PLAYED_CODES = frozenset("10=WDL")
BYE_CODES = frozenset("HFUZ")
FORFEIT_CODES = frozenset("+-")
PENDING = ""  # the code of a game whose result is not in yet
TRF16 = "TRF16"
TRF2025 = "TRF-2025"
# ASCII only: str.isdigit() and int() also take "²" or Arabic-Indic digits.
INT = re.compile(r"[0-9]+", re.ASCII)
# A refusal's message opens with the line it names.
_LINE = re.compile(r"line (\d+)\b", re.ASCII)


class TrfError(ValueError):
    """A TRF file that cannot be read; says which line and what is wrong."""

    @property
    def line(self) -> int | None:
        """The line its message names first (`line 7: ...`), if it names one."""
        found = _LINE.match(str(self))
        return int(found.group(1)) if found else None


@dataclass(frozen=True, slots=True)
class TrfGame:
    round: int
    opponent: int | None  # start rank, None for byes and absences
    colour: str  # "w" placed first, "b" second, "-" none
    code: str  # one of RESULT_CODES, or PENDING

    @property
    def absent(self) -> bool:
        return self.opponent is None and self.code == "-"


@dataclass(slots=True)
class TrfPlayer:
    start_rank: int
    name: str
    rating: int = 0
    federation: str = ""
    fide_id: str = ""
    sex: str = ""
    title: str = ""
    birth: str = ""
    points: float | None = 0.0  # None: the file leaves the points column blank
    rank: int = 0
    games: list[TrfGame] = field(default_factory=list)
    line: int = field(default=0, compare=False)  # where the reader found it
    national_id: str = ""  # a TRF-2025 national rating record's number (columns 58-68)


@dataclass(slots=True)
class TrfTournament:
    name: str = ""
    city: str = ""
    federation: str = ""
    start_date: str = ""  # as the file writes it: dates are read leniently by the import
    end_date: str = ""
    rounds: int = 0
    tournament_type: str = ""
    chief_arbiter: str = ""
    players: list[TrfPlayer] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)  # records kept as read, in file order
    forbidden: list[tuple[int, int]] = field(default_factory=list)  # XXP, lower rank first
    withdrawn: list[int] = field(default_factory=list)  # XXZ
    # The tie-breaks by code (`202`, or `212` without its leading PTS), as written:
    # FIDE's checker writes a modifier `BH/C1`, Klin Zha `BH-C1`.
    tiebreaks: list[str] = field(default_factory=list)
    scoring: dict[str, float] = field(default_factory=dict)  # declared by BB?, XXS and 162
    lines: dict[str, int] = field(default_factory=dict)  # record -> its (last) line
    dialect: str = TRF16  # TRF-2025 when a record only that version has is found
    notes: list[str] = field(default_factory=list)  # what the reader let through, by line


@dataclass(frozen=True, slots=True)
class TrfSpan:
    """The rounds a player took part in: from `first_round`; `withdrawn_after` is the last
    round before a withdrawal (None: still playing)."""

    first_round: int
    withdrawn_after: int | None


def rounds_played(t: TrfTournament) -> int:
    """The last round anyone was paired in (a game or a bye); later columns hold only
    absences, which say who is not to be paired next."""
    return max((g.round for p in t.players for g in p.games if not g.absent), default=0)


def late_zero_byes_drop(t: TrfTournament) -> list[int]:
    """Read each player's leading run of zero-point byes (`0000 - Z` from round 1 on) as a
    late entry: those rounds lose their entries. Returns the start ranks of the players
    concerned. A round robin's Z is its free round, not this: call it for a Swiss only."""
    late = []
    for p in t.players:
        by_round = {g.round: g for g in p.games}
        first = 1
        while (g := by_round.get(first)) is not None and g.opponent is None and g.code == "Z":
            first += 1
        if first > 1:
            p.games = [g for g in p.games if g.round >= first]
            late.append(p.start_rank)
    return late


def uncoloured_forfeits(t: TrfTournament) -> list[list[int]]:
    """The forfeits no side gave a colour, as [round, lower start rank, higher one]."""
    entry = {(p.start_rank, g.round): g for p in t.players for g in p.games}
    found = set()
    for (rank, rnd), g in entry.items():
        if g.opponent is None or g.code not in FORFEIT_CODES or g.colour != "-":
            continue
        other = entry.get((g.opponent, rnd))
        if other is not None and other.colour == "-":
            found.add((rnd, min(rank, g.opponent), max(rank, g.opponent)))
    return [list(x) for x in sorted(found)]


def player_span(t: TrfTournament, p: TrfPlayer) -> TrfSpan:
    """Late entry and withdrawal as the module docstring reads them."""
    played = rounds_played(t)
    entries = sorted(g.round for g in p.games if g.round <= played)
    marked = p.start_rank in t.withdrawn or any(g.round > played for g in p.games)
    if not entries:
        return TrfSpan(1, 0) if marked else TrfSpan(played + 1, None)
    last_game = max((g.round for g in p.games if g.round <= played and not g.absent), default=0)
    if marked or entries[-1] < played:
        return TrfSpan(entries[0], max(last_game, entries[0] - 1))
    return TrfSpan(entries[0], None)


# Each code's kind, for telling whether two players' results of one game agree.
KIND = {"1": "win", "W": "win", "0": "loss", "L": "loss", "=": "draw", "D": "draw"}
KIND.update({"+": "forfeit win", "-": "forfeit loss", PENDING: "pending"})
