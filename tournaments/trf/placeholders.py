"""Dummy players that stand for the bye: Swiss-Manager's `spielfrei`, a `BYE` line, a
zero-rated placeholder that only ever loses by forfeit. Their games become their opponents'
byes and the placeholders leave the start list."""

from __future__ import annotations

import re

from tournaments.trf.file_records import TrfGame, TrfPlayer, TrfTournament

# Names programs give the placeholder, folded, without digits or punctuation.
_NAMES = frozenset(
    {"spielfrei", "freilos", "frei", "bye", "pairing bye", "bye player", "free", "exempt"}
    | {"libre", "riposo", "dummy", "vrij", "wolny", "volno", "nn", "n n"}
)
_NOT_LETTERS = re.compile(r"[\W\d_]+")
# What the placeholder's opponent had by its result: a win is the pairing bye's points, a
# draw half a point, a loss (nobody came) nothing.
_BYE_OF = {"+": "U", "1": "U", "W": "U", "=": "H", "D": "H", "0": "Z", "L": "Z", "-": "Z"}


def placeholders_drop(t: TrfTournament) -> list[str]:
    """Take the placeholders out of `t` (start ranks after them move down), their opponents'
    games against them becoming byes; one note each, naming its line."""
    dummies = [p for p in t.players if _why(t, p)]
    if not dummies:
        return []
    notes = [
        f"line {p.line}: {p.name!r} (start rank {p.start_rank}) stands for the bye "
        f"({_why(t, p)}): its opponents' games against it are byes, and it is no player"
        for p in dummies
    ]
    gone = {p.start_rank for p in dummies}
    t.players = [p for p in t.players if p.start_rank not in gone]
    renumber = {p.start_rank: i for i, p in enumerate(sorted(t.players, key=_rank), start=1)}
    for p in t.players:
        p.start_rank = renumber[p.start_rank]
        p.games = [_game_moved(g=g, gone=gone, renumber=renumber) for g in p.games]
    t.forbidden = sorted(
        (renumber[a], renumber[b]) for a, b in t.forbidden if a not in gone and b not in gone
    )
    t.withdrawn = sorted(renumber[r] for r in t.withdrawn if r not in gone)
    return notes


def _rank(p: TrfPlayer) -> int:
    return p.start_rank


def _game_moved(*, g: TrfGame, gone: set[int], renumber: dict[int, int]) -> TrfGame:
    if g.opponent is None:
        return g
    if g.opponent in gone:
        return TrfGame(g.round, None, "-", _BYE_OF.get(g.code, "U"))
    return TrfGame(g.round, renumber[g.opponent], g.colour, g.code)


def _why(t: TrfTournament, p: TrfPlayer) -> str:
    """Why `p` is a placeholder ("": it is a player)."""
    if p.rating or p.fide_id:
        return ""
    if _NOT_LETTERS.sub(" ", p.name).strip().casefold() in _NAMES:
        return "its name"
    entry = {q.start_rank: {g.round: g for g in q.games} for q in t.players}
    games = [g for g in p.games if g.opponent is not None]
    forfeited = all(g.code == "-" and entry[g.opponent].get(g.round, g).code == "+" for g in games)
    if len(games) >= 2 and len(games) == len(p.games) and forfeited and not p.points:
        return "no rating, and only forfeit losses in every round it appears"
    return ""
