"""FIDE Tournament Report File (TRF-16) reading and writing on plain objects.

Colour `w` means "placed first", `b` placed second. Points are written with the tournament's
own scoring (a draw is -0.5). With `shift`, every score is raised by ½ a round and `BB?` lines
declare the shifted point system, so that engines made for chess (which refuse negative
points) see every score difference unchanged.

Where TRF-16 is silent or made for chess, this module reads it so:

- `H` is a half-point bye worth +½, half a win: not a draw's −½, which would punish a player
  for asking. `F` is worth a win (1), `Z` nothing, `U` (the pairing-allocated bye) what the
  tournament gives it; in a round robin, which has neither kind of bye, `U` or `Z` is the
  odd table's free round. A file states its scoring in its points column; `BB?` lines
  (bbpPairings) or `XXS` (JaVaFo) declare it, `H` then being ½ above a loss (BBL) unless
  `XXS HPB=` says otherwise, and `U` its own points above a loss. The export writes the
  tournament's own scoring, and `BBU` with its bye points when shifted.
- `-` without an opponent (`0000 - -`) is an absence; a blank block (or a line that ends
  early) is no entry at all. A blank result with an opponent is a game still being played.
- A withdrawal: TRF-16 has no mark of its own. A player listed on an `XXZ` line (JaVaFo: not
  to be paired in the next round), or one with an absence in a column after the last played
  round, or one with no entry in the last played rounds, left after their last game or bye.
  Leading rounds without an entry are a late entry.
- `XXP a b` (the TRF-2016 extension of JaVaFo) forbids pairing start ranks a and b.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date

RESULT_CODES = "10=+-HFUZWDL"
# Sets, not strings: "" (PENDING) is in every string.
PLAYED_CODES = frozenset("10=WDL")
BYE_CODES = frozenset("HFUZ")
PENDING = ""  # the code of a game whose result is not in yet
# Shifted points per result (bbpPairings' BBW/BBD/BBL/BBZ/BBF/BBU lines).
SHIFT_LINES = ("BBW  1.5", "BBD  0.0", "BBL  0.5", "BBZ  0.5", "BBF  0.5", "BBU  1.5")
# Each code's kind, for telling whether two players' results of one game agree.
_KIND = {"1": "win", "W": "win", "0": "loss", "L": "loss", "=": "draw", "D": "draw"}
_KIND.update({"+": "forfeit win", "-": "forfeit loss", PENDING: "pending"})
_AGREE = {
    ("win", "loss"),
    ("loss", "win"),
    ("draw", "draw"),
    ("forfeit win", "forfeit loss"),
    ("forfeit loss", "forfeit win"),
    ("forfeit loss", "forfeit loss"),
    ("pending", "pending"),
}
# ASCII only: str.isdigit() and int() also take "²" or Arabic-Indic digits.
_INT = re.compile(r"[0-9]+", re.ASCII)
_NUMBER = re.compile(r"-?[0-9]{1,6}(\.[0-9]{1,6})?", re.ASCII)
_DATE = re.compile(r"([0-9]{4})[/.-]([0-9]{1,2})[/.-]([0-9]{1,2})", re.ASCII)
# Line breaks other than \n are refused with the control characters: splitting on them
# would put every later line number out.
_REFUSED = {"Cc", "Cs", "Zl", "Zp"}


class TrfError(ValueError):
    """A TRF file that cannot be read; says which line and what is wrong."""


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


@dataclass(slots=True)
class TrfTournament:
    name: str = ""
    city: str = ""
    federation: str = ""
    start_date: str = ""
    end_date: str = ""
    rounds: int = 0
    tournament_type: str = ""
    chief_arbiter: str = ""
    players: list[TrfPlayer] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    forbidden: list[tuple[int, int]] = field(default_factory=list)  # XXP, lower rank first
    withdrawn: list[int] = field(default_factory=list)  # XXZ
    scoring: dict[str, float] = field(default_factory=dict)  # declared by BB? and XXS
    lines: dict[str, int] = field(default_factory=dict)  # record -> its (last) line


@dataclass(frozen=True, slots=True)
class TrfScoring:
    """Points per result as a file counts them. A pairing-allocated bye counts its own
    points above a loss (shifted like the rest): `pairing_bye` is only what the file
    declares for it (None: nothing), the bye each U game gets unless its player's points
    column says otherwise."""

    win: float = 1.0
    draw: float = -0.5
    loss: float = 0.0
    forfeit_win: float = 1.0
    forfeit_loss: float = 0.0
    half_bye: float = 0.5
    full_bye: float = 1.0
    zero_bye: float = 0.0
    pairing_bye: float | None = None
    absent: float = 0.0  # `0000 - -`
    unpaired: float = 0.0  # no entry at all, in a round played by others
    pending: float = 0.0

    def value(self, g: TrfGame | None, pairing_bye: float) -> float:
        """The points of one round's entry (None: no entry), a U bye being worth
        `pairing_bye` Klin Zha points."""
        if g is None:
            return self.unpaired
        if g.opponent is None:
            byes = {"H": self.half_bye, "F": self.full_bye, "Z": self.zero_bye}
            byes.update({"+": self.forfeit_win, "-": self.absent})
            if g.code == "U":
                return pairing_bye + self.loss
            return byes[g.code]
        kind = _KIND[g.code]
        values = {"win": self.win, "draw": self.draw, "loss": self.loss}
        values.update({"forfeit win": self.forfeit_win, "forfeit loss": self.forfeit_loss})
        return values.get(kind, self.pending)


KLIN_ZHA = TrfScoring()  # tournaments.md, and H as decided above
CHESS = TrfScoring(draw=0.5)  # a file from a chess program

# Declared values: bbpPairings' BB? lines and JaVaFo's XXS codes, to TrfScoring's fields.
_BB = {
    "BBW": ("win", "forfeit_win", "full_bye"),
    "BBD": ("draw",),
    "BBL": ("loss", "pending"),
    "BBZ": ("zero_bye", "unpaired"),
    "BBF": ("forfeit_loss", "absent"),
    "BBU": ("pairing_bye",),
}
_XXS = {
    "WW": ("win",),
    "BW": ("win",),
    "WD": ("draw",),
    "BD": ("draw",),
    "WL": ("loss", "pending"),
    "BL": ("loss", "pending"),
    "ZPB": ("zero_bye", "unpaired"),
    "HPB": ("half_bye",),
    "FPB": ("full_bye",),
    "PAB": ("pairing_bye",),
    "FW": ("forfeit_win",),
    "FL": ("forfeit_loss", "absent"),
    "W": ("win", "forfeit_win", "full_bye"),
    "D": ("draw", "half_bye"),
    "L": ("loss", "pending", "zero_bye", "unpaired", "forfeit_loss", "absent"),
}


def declared_scoring(t: TrfTournament) -> TrfScoring | None:
    """The scoring the file's BB? or XXS lines declare (chess defaults for what they leave
    out, as the engines take it), or None when it declares none."""
    if not t.scoring:
        return None
    values = {"draw": 0.5, **t.scoring}
    values.setdefault("half_bye", values.get("loss", 0.0) + 0.5)
    values.setdefault("pairing_bye", values.get("win", 1.0))
    return TrfScoring(**values)


def rounds_played(t: TrfTournament) -> int:
    """The last round anyone was paired in (a game or a bye); later columns hold only
    absences, which say who is not to be paired next."""
    return max((g.round for p in t.players for g in p.games if not g.absent), default=0)


@dataclass(frozen=True, slots=True)
class TrfSpan:
    """The rounds a player took part in: from `first_round`; `withdrawn_after` is the last
    round before a withdrawal (None: still playing)."""

    first_round: int
    withdrawn_after: int | None


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


def trf_date(text: str) -> date | None:
    """A TRF date (YYYY/MM/DD, also with . or -), None when blank; TrfError if it is none."""
    if not text:
        return None
    m = _DATE.fullmatch(text)
    if m is None:
        raise TrfError(f"{text!r} is not a date (YYYY/MM/DD)")
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        raise TrfError(f"{text!r} is not a date of the calendar") from None


def _points_text(points: float | None) -> str:
    return "" if points is None else f"{points:4.1f}"


def write_trf(t: TrfTournament, *, shift: bool = False, bye_points: float = 1.0) -> str:
    """The TRF text. With `shift`, points are raised by ½ per round played so far, and the
    BB? lines say so (BBU with the tournament's `bye_points`)."""
    lines = _header_lines(t=t)
    lines.extend(_settings_lines(t=t, shift=shift, bye_points=bye_points))
    raise_by = 0.5 * rounds_played(t) if shift else None
    columns = max((g.round for p in t.players for g in p.games), default=0)
    for p in sorted(t.players, key=lambda p: p.start_rank):
        lines.append(_player_line(p=p, raise_by=raise_by, columns=columns))
    return "\n".join(lines) + "\n"


def _header_lines(*, t: TrfTournament) -> list[str]:
    """The tournament's header records, those it leaves blank left out."""
    records = (
        ("012", t.name),
        ("022", t.city),
        ("032", t.federation),
        ("042", t.start_date),
        ("052", t.end_date),
        ("062", str(len(t.players))),
        ("072", str(sum(1 for p in t.players if p.rating))),
        ("092", t.tournament_type),
        ("102", t.chief_arbiter),
    )
    # The name and the counts are always written.
    return [f"{code} {text}" for code, text in records if text or code in ("012", "062", "072")]


def _settings_lines(*, t: TrfTournament, shift: bool, bye_points: float) -> list[str]:
    """XXR, the records kept as read, XXP, XXZ and, when shifted, the BB? lines."""
    lines = [f"XXR {t.rounds}", *t.extra]
    lines.extend(f"XXP {a} {b}" for a, b in sorted(t.forbidden))
    out = sorted(t.withdrawn)
    # Long lists are split over several lines, as JaVaFo writes them.
    lines.extend("XXZ " + " ".join(map(str, out[i : i + 20])) for i in range(0, len(out), 20))
    if shift:
        lines.extend(SHIFT_LINES[:-1])
        lines.append(f"BBU {bye_points + 0.5:4.1f}")
    return lines


def _player_line(*, p: TrfPlayer, raise_by: float | None, columns: int) -> str:
    """A player's 001 line: the fixed columns (points raised by `raise_by` when shifted), then
    one block per round up to `columns` (blank where they have no entry), trailing blanks cut."""
    points = p.points
    if points is not None and raise_by is not None:
        points += raise_by
    head = (
        f"001 {p.start_rank:>4} {p.sex[:1]:1}{p.title[:3]:>3} {p.name[:33]:<33} "
        f"{p.rating or '':>4} {p.federation[:3]:>3} {p.fide_id[:11]:>11} {p.birth[:10]:>10}"
    )
    head += f"{_points_text(points):>5} {p.rank or '':>4}"
    assert len(head) == 89
    by_round = {g.round: g for g in p.games}
    blocks = [_game_block(g=by_round.get(rnd)) for rnd in range(1, columns + 1)]
    return (head + "".join(blocks)).rstrip()


def _game_block(*, g: TrfGame | None) -> str:
    """One round's `  oooo c r` block, ten blanks for no entry."""
    if g is None:
        return "          "
    opp = f"{g.opponent:>4}" if g.opponent else "0000"
    return f"  {opp} {g.colour} {g.code or ' '}"


def _int(text: str, number: int, what: str) -> int:
    if not _INT.fullmatch(text):
        raise TrfError(f"line {number}: {what} {text!r} is not a number (digits 0-9)")
    return int(text)


def _ints(value: str, number: int, what: str) -> list[int]:
    return [_int(x, number, what) for x in value.split()]


def _number(text: str, number: int, what: str) -> float:
    if not _NUMBER.fullmatch(text):
        raise TrfError(f"line {number}: {what} {text!r} is not a number like 1.5 or -0.5")
    return float(text)


def _characters_check(line: str, number: int) -> None:
    for column, ch in enumerate(line, start=1):
        if unicodedata.category(ch) in _REFUSED:
            raise TrfError(f"line {number}: control character U+{ord(ch):04X} in column {column}")


# The header records read as text, by the TrfTournament field each fills.
_HEADERS = {"012": "name", "022": "city", "032": "federation", "042": "start_date"}
_HEADERS.update({"052": "end_date", "092": "tournament_type", "102": "chief_arbiter"})
# The records a read checks (the settings of pairing engines and scoring).
_SETTINGS = frozenset({"XXR", "XXP", "XXZ", "XXS", *_BB})


@dataclass(slots=True)
class _Reading:
    """A read under way: the tournament so far, each start rank's line, and the XXP pairs
    and XXZ ranks with their lines (checked against the players once all are read)."""

    t: TrfTournament = field(default_factory=TrfTournament)
    seen_ranks: dict[int, int] = field(default_factory=dict)
    pairs: list[tuple[int, int, int]] = field(default_factory=list)
    out: list[tuple[int, int]] = field(default_factory=list)


def read_trf(text: str) -> TrfTournament:
    """Read a TRF file; TrfError names the line at fault."""
    reading = _Reading()
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    for number, line in enumerate(text.split("\n"), start=1):
        _characters_check(line, number)
        if line.strip():
            _line_read(reading=reading, line=line, number=number)
    return _reading_finish(reading=reading)


def _line_read(*, reading: _Reading, line: str, number: int) -> None:
    """Read one non-blank line into `reading`, by its record code."""
    t = reading.t
    code = line[:3]
    value = line[4:].strip()
    t.lines[code] = number
    if code == "001":
        _player_add(reading=reading, player=_read_player(line, number), number=number)
    elif code in _HEADERS:
        _header_read(t=t, code=code, value=value, number=number)
    elif code in _SETTINGS:
        _setting_read(reading=reading, code=code, value=value, number=number)
    elif code.startswith("BB"):
        return  # other engines' settings: nothing here depends on them
    elif code in ("062", "072", "082"):
        return  # counts, derived again from the players when writing
    elif len(code) == 3 and code.isascii() and code.isalnum():
        t.extra.append(line)
    else:
        raise TrfError(f"line {number}: unknown record {code!r}")


def _player_add(*, reading: _Reading, player: TrfPlayer, number: int) -> None:
    """Add a player line's player, refusing a start rank read before."""
    if player.start_rank in reading.seen_ranks:
        raise TrfError(f"line {number}: start rank {player.start_rank} appears twice")
    reading.seen_ranks[player.start_rank] = number
    reading.t.players.append(player)


def _header_read(*, t: TrfTournament, code: str, value: str, number: int) -> None:
    """A header record's text into its field; the dates must be dates."""
    if code in ("042", "052"):
        try:
            trf_date(value)
        except TrfError as exc:
            raise TrfError(f"line {number}: {exc}") from None
    setattr(t, _HEADERS[code], value)


def _setting_read(*, reading: _Reading, code: str, value: str, number: int) -> None:
    """An XXR, XXP, XXZ, XXS or declared-points (BB?) record into `reading`."""
    t = reading.t
    if code == "XXR":
        t.rounds = _int(value, number, "XXR (the number of rounds)")
    elif code == "XXP":
        ranks = _ints(value, number, "XXP start rank")
        if len(ranks) != 2 or ranks[0] == ranks[1]:
            raise TrfError(f"line {number}: XXP needs two different start ranks")
        reading.pairs.append((min(ranks), max(ranks), number))
    elif code == "XXZ":
        reading.out += [(rank, number) for rank in _ints(value, number, "XXZ start rank")]
    elif code == "XXS":
        _read_xxs(value, number, t.scoring)
    else:
        for name in _BB[code]:
            t.scoring[name] = _number(value, number, code)


def _reading_finish(*, reading: _Reading) -> TrfTournament:
    """The tournament once every line is read: the XXP and XXZ ranks name players, the dates
    and the pairings agree, and the rounds count at least those played."""
    t = reading.t
    if not t.players:
        raise TrfError("no player lines (001) in the file")
    pairs, out = reading.pairs, reading.out
    for rank, number in [(a, n) for a, _, n in pairs] + [(b, n) for _, b, n in pairs] + out:
        if rank not in reading.seen_ranks:
            raise TrfError(f"line {number}: no player has start rank {rank}")
    t.forbidden = sorted({(a, b) for a, b, _ in pairs})
    t.withdrawn = sorted({rank for rank, _ in out})
    _dates_check(t)
    _pairings_check(t)
    t.rounds = max(t.rounds, rounds_played(t))
    return t


def _read_xxs(value: str, number: int, scoring: dict[str, float]) -> None:
    for token in value.split():
        name, _, amount = token.partition("=")
        if name not in _XXS:
            raise TrfError(f"line {number}: XXS code {name!r} is not one of {', '.join(_XXS)}")
        for key in _XXS[name]:
            scoring[key] = _number(amount, number, f"XXS {name}")


def _dates_check(t: TrfTournament) -> None:
    start, end = trf_date(t.start_date), trf_date(t.end_date)
    if start and end and end < start:
        raise TrfError(f"line {t.lines['052']}: the end date {t.end_date} is before the start")


def _read_player(line: str, number: int) -> TrfPlayer:
    def field_(a: int, b: int) -> str:
        return line[a - 1 : b].strip()

    start_rank = _int(field_(5, 8), number, "start rank in columns 5-8")
    if not start_rank:
        raise TrfError(f"line {number}: start rank 0 (start ranks count from 1)")
    name = field_(15, 47)
    if not name:
        raise TrfError(f"line {number}: no name in columns 15-47")
    if line[47:48].strip():
        raise TrfError(f"line {number}: the name runs past column 47 (33 characters at most)")
    rating_text = field_(49, 52)
    points_text = field_(80, 84)
    rank_text = field_(86, 89)
    player = TrfPlayer(
        start_rank=start_rank,
        name=name,
        rating=_int(rating_text, number, "rating in columns 49-52") if rating_text else 0,
        federation=field_(54, 56),
        fide_id=field_(58, 68),
        sex=field_(10, 10),
        title=field_(11, 13),
        birth=field_(70, 79),
        points=_number(points_text, number, "points in columns 81-84") if points_text else None,
        rank=_int(rank_text, number, "rank in columns 86-89") if rank_text else 0,
        line=number,
    )
    rnd = 0
    pos = 92
    while pos - 2 <= len(line):
        rnd += 1
        chunk = line[pos - 3 : pos + 7].ljust(10)
        pos += 10
        if not chunk.strip():
            continue
        player.games.append(_read_block(chunk, rnd, start_rank, number))
    return player


def _read_block(chunk: str, rnd: int, start_rank: int, number: int) -> TrfGame:
    """One round's `  oooo c r` block (columns 90-99 for round 1, then every 10)."""
    where = f"line {number}: round {rnd}"
    opp_text, colour, code = chunk[2:6].strip(), chunk[7].lower(), chunk[9].upper()
    colour = "-" if colour == " " else colour
    code = PENDING if code == " " else code
    if chunk[:2].strip() or chunk[6] != " " or chunk[8] != " " or colour not in ("w", "b", "-"):
        raise TrfError(
            f"{where}: block {chunk.strip()!r} is not 'oooo c r' "
            f"(colour w/b/-, result one of {RESULT_CODES})"
        )
    if code != PENDING and code not in set(RESULT_CODES):
        raise TrfError(f"{where}: result {code!r} is not one of {RESULT_CODES}")
    opponent = _int(opp_text, number, f"round {rnd} opponent") if opp_text else 0
    if opponent == start_rank:
        raise TrfError(f"{where}: start rank {start_rank} is paired with himself")
    if not opponent:
        if code in PLAYED_CODES:
            raise TrfError(f"{where}: result {code!r} needs an opponent")
        # A blank result without an opponent: not paired, as `-` says.
        return TrfGame(rnd, None, "-", code or "-")
    if code in BYE_CODES:
        raise TrfError(f"{where}: {code!r} is a bye, yet opponent {opponent} is given")
    return TrfGame(rnd, opponent, colour, code)


def _pairings_check(t: TrfTournament) -> None:
    """Every opponent exists and lists the player back in the same round, with a result and
    a colour that agree; no round before the last played one is empty."""
    players = sorted(t.players, key=lambda p: p.start_rank)
    entry = {p.start_rank: {g.round: g for g in p.games} for p in players}
    line = {p.start_rank: p.line for p in players}
    _opponents_known_check(players=players, entry=entry)
    played = rounds_played(t)
    for rnd in range(1, played + 1):
        if not _round_pairs_check(players=players, entry=entry, line=line, rnd=rnd):
            raise TrfError(
                f"round {rnd}: no game and no bye in the whole round (lines "
                f"{players[0].line}-{players[-1].line}), though round {played} has some"
            )


def _opponents_known_check(
    *, players: list[TrfPlayer], entry: dict[int, dict[int, TrfGame]]
) -> None:
    """Every opponent named is a player of the file."""
    for p in players:
        for g in p.games:
            if g.opponent is not None and g.opponent not in entry:
                raise TrfError(
                    f"line {p.line}: player {p.start_rank} meets unknown start rank "
                    f"{g.opponent} in round {g.round}"
                )


def _round_pairs_check(
    *,
    players: list[TrfPlayer],
    entry: dict[int, dict[int, TrfGame]],
    line: dict[int, int],
    rnd: int,
) -> bool:
    """Check each game of round `rnd` from both sides (`line`: each start rank's line);
    whether anyone played or had a bye in it."""
    busy = False
    for p in players:
        mine = entry[p.start_rank].get(rnd)
        if mine is None or mine.absent:
            continue
        busy = True
        if mine.opponent is None:
            continue
        other = entry[mine.opponent].get(rnd)
        where = f"line {p.line}: round {rnd}: {p.start_rank}"
        if other is None or other.opponent != p.start_rank:
            raise TrfError(f"{where} meets {mine.opponent}, who does not meet them")
        if mine.opponent >= p.start_rank:  # else checked from the other side already
            pair = f"{where} and {mine.opponent} (line {line[mine.opponent]})"
            _game_agree_check(pair=pair, mine=mine, other=other)
    return busy


def _game_agree_check(*, pair: str, mine: TrfGame, other: TrfGame) -> None:
    """The two sides of one game give results and placements that agree."""
    if (_KIND[mine.code], _KIND[other.code]) not in _AGREE:
        both = _KIND[mine.code] if _KIND[mine.code] == _KIND[other.code] else ""
        claim = f"both claim a {both}" if "win" in both else ""
        raise TrfError(
            f"{pair}: {claim or 'contradictory results'} "
            f"({mine.code or 'blank'} and {other.code or 'blank'})"
        )
    if mine.colour == other.colour != "-":
        which = "first (w)" if mine.colour == "w" else "second (b)"
        raise TrfError(f"{pair}: contradictory colours, both placed {which}")
