"""FIDE Tournament Report File (TRF-16) reading and writing on plain objects.

Colour `w` means "placed first", `b` placed second. Points are written with the tournament's
own scoring (a draw is -0.5). With `shift`, every score is raised by ½ a round and `BB?` lines
declare the shifted point system, so that engines made for chess (which refuse negative
points) see every score difference unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RESULT_CODES = "10=+-HFUZWDL"
# Shifted points per result (bbpPairings' BBW/BBD/BBL/BBZ/BBF/BBU lines).
SHIFT_LINES = ("BBW  1.5", "BBD  0.0", "BBL  0.5", "BBZ  0.5", "BBF  0.5", "BBU  1.5")


class TrfError(ValueError):
    """A TRF file that cannot be read; says which line and what is wrong."""


@dataclass(frozen=True, slots=True)
class TrfGame:
    round: int
    opponent: int | None  # start rank, None for byes and absences
    colour: str  # "w" placed first, "b" second, "-" none
    code: str  # one of RESULT_CODES


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
    points: float = 0.0
    rank: int = 0
    games: list[TrfGame] = field(default_factory=list)


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


def _points_text(points: float) -> str:
    return f"{points:4.1f}"


def write_trf(t: TrfTournament, *, shift: bool = False) -> str:
    """The TRF text. With `shift`, points are raised by ½ per round played so far."""
    lines = [f"012 {t.name}"]
    if t.city:
        lines.append(f"022 {t.city}")
    if t.federation:
        lines.append(f"032 {t.federation}")
    if t.start_date:
        lines.append(f"042 {t.start_date}")
    if t.end_date:
        lines.append(f"052 {t.end_date}")
    lines.append(f"062 {len(t.players)}")
    lines.append(f"072 {sum(1 for p in t.players if p.rating)}")
    if t.tournament_type:
        lines.append(f"092 {t.tournament_type}")
    if t.chief_arbiter:
        lines.append(f"102 {t.chief_arbiter}")
    lines.append(f"XXR {t.rounds}")
    lines.extend(t.extra)
    if shift:
        lines.extend(SHIFT_LINES)
    played = max((g.round for p in t.players for g in p.games), default=0)
    for p in sorted(t.players, key=lambda p: p.start_rank):
        points = p.points + (0.5 * played if shift else 0.0)
        head = (
            f"001 {p.start_rank:>4} {p.sex[:1]:1}{p.title[:3]:>3} {p.name[:33]:<33} "
            f"{p.rating or '':>4} {p.federation[:3]:>3} {p.fide_id[:11]:>11} {p.birth[:10]:>10}"
        )
        head += f"{_points_text(points):>5} {p.rank or '':>4}"
        assert len(head) == 89
        blocks = []
        for rnd in range(1, played + 1):
            g = next((g for g in p.games if g.round == rnd), None)
            if g is None:
                blocks.append("          ")
            else:
                opp = f"{g.opponent:>4}" if g.opponent else "0000"
                blocks.append(f"  {opp} {g.colour} {g.code}")
        lines.append((head + "".join(blocks)).rstrip())
    return "\n".join(lines) + "\n"


def read_trf(text: str) -> TrfTournament:
    """Read a TRF file; TrfError names the line at fault."""
    t = TrfTournament()
    seen_ranks: set[int] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        code = line[:3]
        value = line[4:].strip()
        if code == "001":
            player = _read_player(line, number)
            if player.start_rank in seen_ranks:
                raise TrfError(f"line {number}: start rank {player.start_rank} appears twice")
            seen_ranks.add(player.start_rank)
            t.players.append(player)
        elif code == "012":
            t.name = value
        elif code == "022":
            t.city = value
        elif code == "032":
            t.federation = value
        elif code == "042":
            t.start_date = value
        elif code == "052":
            t.end_date = value
        elif code == "092":
            t.tournament_type = value
        elif code == "102":
            t.chief_arbiter = value
        elif code == "XXR":
            if not value.isdigit():
                raise TrfError(f"line {number}: XXR needs a number of rounds, not {value!r}")
            t.rounds = int(value)
        elif code.startswith("BB"):
            continue
        elif code in ("062", "072", "082"):
            continue  # counts, derived again from the players when writing
        elif len(code) == 3 and code.isalnum():
            t.extra.append(line)
        else:
            raise TrfError(f"line {number}: unknown record {code!r}")
    if not t.players:
        raise TrfError("no player lines (001) in the file")
    ranks = {p.start_rank for p in t.players}
    for p in t.players:
        for g in p.games:
            if g.opponent is not None and g.opponent not in ranks:
                raise TrfError(
                    f"player {p.start_rank} meets unknown start rank {g.opponent} in round "
                    f"{g.round}"
                )
    played = max((g.round for p in t.players for g in p.games), default=0)
    t.rounds = max(t.rounds, played)
    return t


def _read_player(line: str, number: int) -> TrfPlayer:
    def field_(a: int, b: int) -> str:
        return line[a - 1 : b].strip()

    try:
        start_rank = int(field_(5, 8))
    except ValueError:
        raise TrfError(f"line {number}: start rank in columns 5-8 is not a number") from None
    name = field_(15, 47)
    if not name:
        raise TrfError(f"line {number}: no name in columns 15-47")
    rating_text = field_(49, 52)
    if rating_text and not rating_text.isdigit():
        raise TrfError(f"line {number}: rating in columns 49-52 is not a number")
    points_text = field_(80, 84)
    try:
        points = float(points_text) if points_text else 0.0
    except ValueError:
        raise TrfError(f"line {number}: points in columns 81-84 are not a number") from None
    rank_text = field_(86, 89)
    player = TrfPlayer(
        start_rank=start_rank,
        name=name,
        rating=int(rating_text) if rating_text else 0,
        federation=field_(54, 56),
        fide_id=field_(58, 68),
        sex=field_(10, 10),
        title=field_(11, 13),
        birth=field_(70, 79),
        points=points,
        rank=int(rank_text) if rank_text.isdigit() else 0,
    )
    rnd = 0
    pos = 92
    while pos <= len(line):
        rnd += 1
        block = line[pos - 1 : pos + 7]
        pos += 10
        if not block.strip():
            continue
        opp_text, colour, code = block[0:4].strip(), block[5:6], block[7:8]
        if code not in RESULT_CODES or colour not in ("w", "b", "-") or not code:
            raise TrfError(
                f"line {number}: round {rnd} block {block!r} is not 'oooo c r' "
                f"(colour w/b/-, result one of {RESULT_CODES})"
            )
        if not opp_text.isdigit():
            raise TrfError(f"line {number}: round {rnd} opponent {opp_text!r} is not a number")
        opponent = int(opp_text) or None
        player.games.append(TrfGame(rnd, opponent, colour, code))
    return player
