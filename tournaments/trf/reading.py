"""Reading a TRF file (TRF16 or TRF-2025) into plain records; TrfError names the line.

Where TRF is silent or made for chess, this module reads it so: a `013` team line in an
individual event, the TRF-2025 records (`###` comments, `142`-`222`, national rating
records, team and bye records) and every record it does not know are kept as read for the
export; the tie-break records `202`/`212` (TRF-2025's, which the export writes in every
dialect) are read into `tiebreaks`, and neither they nor the scoring record `162` (written
in every dialect too) mark the file TRF-2025; dates are kept as text (the import reads
them leniently); `XXP a b` (the TRF-2016 extension of JaVaFo) forbids pairing start ranks
a and b.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from tournaments.trf.declared_points import BB, number_read, r162_read, xxs_read
from tournaments.trf.file_records import (
    BYE_CODES,
    INT,
    KIND,
    PENDING,
    PLAYED_CODES,
    RESULT_CODES,
    TRF2025,
    TrfError,
    TrfGame,
    TrfPlayer,
    TrfTournament,
    rounds_played,
)

# The results two sides of one game may give.
_AGREE = {
    ("win", "loss"),
    ("loss", "win"),
    ("draw", "draw"),
    ("forfeit win", "forfeit loss"),
    ("forfeit loss", "forfeit win"),
    ("forfeit loss", "forfeit loss"),
    ("pending", "pending"),
}
# Line breaks other than \n are refused with the control characters: splitting on them
# would put every later line number out.
_REFUSED = {"Cc", "Cs", "Zl", "Zp"}
# Records only TRF-2025 has: a file with one is written back in that version.
_TRF2025_CODES = frozenset(
    {"142", "152", "172", "182", "192", "222", "352", "362"}
    | {"240", "250", "260", "299", "300", "310", "320", "330", "801", "802"}
)
_NATIONAL = re.compile(r"[A-Z]{3}", re.ASCII)


def _int(text: str, number: int, what: str) -> int:
    if not INT.fullmatch(text):
        raise TrfError(f"line {number}: {what} {text!r} is not a number (digits 0-9)")
    return int(text)


def _ints(value: str, number: int, what: str) -> list[int]:
    return [_int(x, number, what) for x in value.split()]


def _characters_check(line: str, number: int) -> None:
    for column, ch in enumerate(line, start=1):
        if unicodedata.category(ch) in _REFUSED:
            raise TrfError(f"line {number}: control character U+{ord(ch):04X} in column {column}")


# The header records read as text, by the TrfTournament field each fills.
_HEADERS = {"012": "name", "022": "city", "032": "federation", "042": "start_date"}
_HEADERS.update({"052": "end_date", "092": "tournament_type", "102": "chief_arbiter"})
# The records a read checks (the settings of pairing engines and scoring).
_SETTINGS = frozenset({"XXR", "XXP", "XXZ", "XXS", "162", *BB})
# The tie-break records: 202 the tie-breaks, 212 the standings (PTS, then the tie-breaks).
_TIEBREAK_RECORDS = ("202", "212")
_POINTS_CODES = frozenset({"PTS", "MPTS", "GPTS"})


@dataclass(slots=True)
class _Reading:
    """A read under way: the tournament so far, each start rank's line, and the XXP pairs
    and XXZ ranks with their lines (checked against the players once all are read)."""

    t: TrfTournament = field(default_factory=TrfTournament)
    seen_ranks: dict[int, int] = field(default_factory=dict)
    pairs: list[tuple[int, int, int]] = field(default_factory=list)
    out: list[tuple[int, int]] = field(default_factory=list)
    national: dict[int, str] = field(default_factory=dict)  # start rank -> national number


def read_trf(text: str) -> TrfTournament:
    """Read a TRF file; TrfError names the line at fault."""
    reading = _Reading()
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    for number, line in enumerate(text.split("\n"), start=1):
        _characters_check(line, number)
        if line.startswith("###"):
            reading.t.dialect = TRF2025  # comment lines: only TRF-2025 allows them
        elif line.strip():
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
        _header_read(t=t, code=code, value=value)
    elif code in _SETTINGS:
        _setting_read(reading=reading, code=code, value=value, number=number)
    elif code in _TIEBREAK_RECORDS:
        # 202 wins over 212 wherever it stands; 212 leads with the points themselves.
        if code == "202" or "202" not in t.lines:
            codes = value.replace(",", " ").split()
            t.tiebreaks = [c for c in codes if c.upper() not in _POINTS_CODES]
    elif code.startswith("BB"):
        return  # other engines' settings: nothing here depends on them
    elif code in ("062", "072"):
        return  # counts, derived again from the players when writing
    elif len(code) == 3 and code.isascii() and code.isalnum():
        _record_keep(reading=reading, line=line, number=number)
    else:
        raise TrfError(f"line {number}: unknown record {code!r}")


def _record_keep(*, reading: _Reading, line: str, number: int) -> None:
    """A record kept as read for the export: noting a team line, the TRF-2025 records and a
    national rating record's number."""
    t, code = reading.t, line[:3]
    t.extra.append(line)
    if code in _TRF2025_CODES:
        t.dialect = TRF2025
    if code == "013":
        t.notes.append(
            f"line {number}: a team line (013) in an individual event: kept for the export, "
            "no team is made"
        )
    elif _NATIONAL.fullmatch(code) and not code.startswith(("XX", "BB")):
        rank = line[4:8].strip()
        if INT.fullmatch(rank) and line[14:47].strip():  # a start rank and a name
            t.dialect = TRF2025
            reading.national[int(rank)] = line[57:68].strip()


def _player_add(*, reading: _Reading, player: TrfPlayer, number: int) -> None:
    """Add a player line's player, refusing a start rank read before."""
    if player.start_rank in reading.seen_ranks:
        raise TrfError(f"line {number}: start rank {player.start_rank} appears twice")
    reading.seen_ranks[player.start_rank] = number
    reading.t.players.append(player)


def _header_read(*, t: TrfTournament, code: str, value: str) -> None:
    """A header record's text into its field, dates too: a date plays no part in pairing,
    so one no form fits is the import's to report, not a reason to refuse the file."""
    setattr(t, _HEADERS[code], value)


def _setting_read(*, reading: _Reading, code: str, value: str, number: int) -> None:
    """An XXR, XXP, XXZ, XXS, 162 or declared-points (BB?) record into `reading`."""
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
        xxs_read(value, number, t.scoring)
    elif code == "162":  # marks no dialect: the export writes it in every one
        r162_read(value, number, t.scoring)
    else:
        for name in BB[code]:
            t.scoring[name] = number_read(value, number, code)


def _reading_finish(*, reading: _Reading) -> TrfTournament:
    """The tournament once every line is read: the XXP and XXZ ranks name players, the
    pairings agree, and the rounds count at least those played."""
    t = reading.t
    if not t.players:
        raise TrfError("no player lines (001) in the file")
    pairs, out = reading.pairs, reading.out
    for rank, number in [(a, n) for a, _, n in pairs] + [(b, n) for _, b, n in pairs] + out:
        if rank not in reading.seen_ranks:
            raise TrfError(f"line {number}: no player has start rank {rank}")
    t.forbidden = sorted({(a, b) for a, b, _ in pairs})
    t.withdrawn = sorted({rank for rank, _ in out})
    for p in t.players:
        p.national_id = reading.national.get(p.start_rank, "")
    _pairings_check(t)
    t.rounds = max(t.rounds, rounds_played(t))
    return t


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
        points=number_read(points_text, number, "points in columns 81-84") if points_text else None,
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
    if (KIND[mine.code], KIND[other.code]) not in _AGREE:
        both = KIND[mine.code] if KIND[mine.code] == KIND[other.code] else ""
        claim = f"both claim a {both}" if "win" in both else ""
        raise TrfError(
            f"{pair}: {claim or 'contradictory results'} "
            f"({mine.code or 'blank'} and {other.code or 'blank'})"
        )
    if mine.colour == other.colour != "-":
        which = "first (w)" if mine.colour == "w" else "second (b)"
        raise TrfError(f"{pair}: contradictory colours, both placed {which}")
