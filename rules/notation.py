"""Appendix C notation: reading and writing plies in English, Italian and French keys,
geometric and descriptive coordinates."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, NamedTuple

from rules.board import APEX, SEATS, Coordinates
from rules.engines import coordinates
from rules.errors import NotationError
from rules.messages import Message, message
from rules.position import (
    BLOCKADER,
    FENCER,
    FLIER,
    GOAL,
    LANCER,
    SWIFT,
    VANGUARD,
    Move,
    Position,
)

# Keys per language, in kind order: Fencer, Lancer, Swift, Flier, Vanguard, Blockader, Goal.
KEYS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("Fe", "L", "S", "Fl", "V", "B", "G"),
    "it": ("S", "L", "R", "V", "A", "O", "I"),
    "fr": ("M", "L", "C", "V", "A", "Bl", "Bu"),
}
_KINDS: Final = (FENCER, LANCER, SWIFT, FLIER, VANGUARD, BLOCKADER, GOAL)
KIND_OF_KEY: Final[dict[str, dict[str, int]]] = {
    lang: {k.lower(): kind for k, kind in zip(keys, _KINDS, strict=True)}
    for lang, keys in KEYS.items()
}
LANGUAGES: Final = tuple(KEYS)


@dataclass(frozen=True, slots=True)
class Notation:
    """How a record writes its plies: language of the keys and coordinate system."""

    language: str = "en"
    descriptive: bool = False
    seat: int = APEX
    tri_level: bool = False  # cells of the tri-level board (`2:E37`)

    @property
    def coordinates(self) -> Coordinates:
        """The board's names: the tri-level variant supplies its cells' (rules/engines.py)."""
        return _coordinates(self.tri_level)

    def key(self, kind: int) -> str:
        return KEYS[self.language][kind - 1]

    def square(self, sq: int) -> str:
        return self.coordinates.name(sq, self.descriptive, self.seat)

    def parse_square(self, text: str) -> int:
        sq = _square_table(self).get(text.upper())
        if sq is None:
            system = f"descriptive ({SEATS[self.seat]} seat)" if self.descriptive else "geometric"
            raise NotationError.coded("no_triangle_in", name=repr(text), system=system)
        return sq

    def parse_key(self, text: str) -> int:
        kind = KIND_OF_KEY[self.language].get(text.lower())
        if kind is None:
            raise NotationError.coded("unknown_key", key=repr(text), language=repr(self.language))
        return kind


@cache
def _coordinates(tri_level: bool) -> Coordinates:
    return coordinates(("tri-level",) if tri_level else ())


ENGLISH: Final = Notation()


class Ply(NamedTuple):
    """A ply as written: the mover's key and squares, and how the destination was described
    (a named tuple: records are read a ply at a time, and a frozen dataclass took five times
    as long to build)."""

    kind: int
    dest: int
    origin: int | None = None
    carry: bool = False
    kill_mark: bool = False
    dest_kind: int | None = None
    dest_carried: bool = False
    bang: bool = False

    def to_move(self) -> Move:
        return Move(self.origin, self.dest, self.kind, self.carry)


_KEY = r"[A-Za-z]{1,2}"
# A tri-level cell above the bottom board carries its level: `2:E37`.
_SQ = r"(?:[1-9]:)?[A-Za-z][0-9]{1,2}"
PLY_PATTERN: Final = (
    rf"(?:(?P<carry>\(\s*(?P<ckey>{_KEY})\s*\))|(?P<key>{_KEY}))"
    rf"\s*(?:@\s*(?P<origin>{_SQ})\s*)?"
    r"(?P<sep>→|->|x|X)\s*"
    rf"(?:(?:\(\s*(?P<dckey>{_KEY})\s*\)|(?P<dkey>{_KEY}))\s*@\s*)?"
    rf"(?P<dest>{_SQ})(?P<bang>\s*!)?"
)
PLY_RE: Final = re.compile(PLY_PATTERN)
PLY_FULL_RE: Final = re.compile(PLY_PATTERN)  # used with fullmatch on a stripped text
_FULL_RE: Final = re.compile(rf"\s*{PLY_PATTERN}\s*")


def ply_from_match(m: re.Match[str], notation: Notation = ENGLISH) -> Ply:
    """A Ply from a match of PLY_RE (raises NotationError for unknown keys or squares)."""
    return ply_from_groups(m.groups(), notation)


def ply_from_groups(groups: Sequence[str | None], notation: Notation = ENGLISH) -> Ply:
    """A Ply from the nine groups of PLY_PATTERN, in order."""
    carry, ckey, key, origin_text, sep, dckey, dkey, dest_text, bang = groups
    assert sep is not None and dest_text is not None
    keys = _KEY_TABLES[notation.language]
    squares = _square_table(notation)
    head = ckey if carry else key
    assert head is not None
    kind = keys.get(head.lower())
    if kind is None:
        kind = notation.parse_key(head)
    dest = squares.get(dest_text)
    if dest is None:
        dest = notation.parse_square(dest_text)
    origin = None
    if origin_text:
        origin = squares.get(origin_text)
        if origin is None:
            origin = notation.parse_square(origin_text)
    kill = sep == "x" or sep == "X"
    dk = dckey or dkey
    dest_kind = None
    if dk:
        dest_kind = keys.get(dk.lower())
        if dest_kind is None:
            dest_kind = notation.parse_key(dk)
    if origin is None and (carry or kill or dk or bang):
        raise NotationError.coded("placement_form")
    return Ply(
        kind, dest, origin, carry is not None, kill, dest_kind, dckey is not None, bang is not None
    )


_KEY_TABLES: Final = KIND_OF_KEY
_SQUARE_TABLES: dict[tuple[bool, int, bool], dict[str, int]] = {}


def _square_table(notation: Notation) -> dict[str, int]:
    """Square names of a coordinate system, in the case they are usually written."""
    key = (notation.descriptive, notation.seat, notation.tri_level)
    table = _SQUARE_TABLES.get(key)
    if table is None:
        table = dict(notation.coordinates.table(notation.descriptive, notation.seat))
        _SQUARE_TABLES[key] = table
    return table


# The writer's form of a ply (format_ply) read by look-ups instead of the regex: a
# placement `Fe→E37`, a move `head sep tail` split at its two spaces. The tables hold each
# part exactly as PLY_PATTERN reads it, so a text found there reads as parse_ply reads it;
# any other text is left to the regex.
_KEY_FULL: Final = re.compile(_KEY)
_SQ_FULL: Final = re.compile(_SQ)
_READERS: dict[Notation, Callable[[str], Ply | None]] = {}
# Ply(*row) without the named tuple's Python-level __new__ in between.
_new_ply: Final = tuple.__new__


def written_reader(notation: Notation = ENGLISH) -> Callable[[str], Ply | None]:
    """A reader of plies written as format_ply writes them in `notation` (spaces aside,
    keys and squares in their usual case): the Ply parse_ply reads, or None for any other
    text. One reader a notation, its tables built on first use."""
    reader = _READERS.get(notation)
    if reader is None:
        reader = _READERS[notation] = _written_reader(notation)
    return reader


def _written_reader(notation: Notation) -> Callable[[str], Ply | None]:
    keys = [
        (text, kind)
        for text, kind in zip(KEYS[notation.language], _KINDS, strict=True)
        if _KEY_FULL.fullmatch(text)
    ]
    squares = [
        (name, sq) for name, sq in _square_table(notation).items() if _SQ_FULL.fullmatch(name)
    ]
    placements = {f"{k}→{name}": Ply(kind, sq) for k, kind in keys for name, sq in squares}
    # (kind, origin, carry) and (dest, destination key, carried, '!') by their text.
    heads: dict[str, tuple[int, int, bool]] = {}
    tails: dict[str, tuple[int, int | None, bool, bool]] = {}
    for name, sq in squares:
        tails[name] = (sq, None, False, False)
        tails[name + "!"] = (sq, None, False, True)
        for k, kind in keys:
            heads[f"{k}@{name}"] = (kind, sq, False)
            heads[f"({k})@{name}"] = (kind, sq, True)
            for bang, mark in ((False, ""), (True, "!")):
                tails[f"{k}@{name}{mark}"] = (sq, kind, False, bang)
                tails[f"({k})@{name}{mark}"] = (sq, kind, True, bang)

    def read(text: str) -> Ply | None:
        ply = placements.get(text)
        if ply is not None:
            return ply
        parts = text.split(" ")
        if len(parts) != 3:
            return None
        head = heads.get(parts[0])
        sep = parts[1]
        tail = tails.get(parts[2])
        if head is None or tail is None or not (sep == "→" or sep == "x"):
            return None
        row = (head[0], tail[0], head[1], head[2], sep == "x", tail[1], tail[2], tail[3])
        return _new_ply(Ply, row)

    return read


def parse_ply(text: str, notation: Notation = ENGLISH) -> Ply:
    """Read one ply written as Appendix C says."""
    m = _FULL_RE.fullmatch(text)
    if m is None:
        raise NotationError.coded("cannot_read_ply", text=repr(text.strip()))
    return ply_from_match(m, notation)


def format_ply(ply: Ply, notation: Notation = ENGLISH) -> str:
    """Write a ply in the writer's form (→, spaces around → and x in moves)."""
    key = notation.key(ply.kind)
    dest = notation.square(ply.dest)
    if ply.origin is None:
        return f"{key}→{dest}"
    head = f"({key})" if ply.carry else key
    head = f"{head}@{notation.square(ply.origin)}"
    sep = "x" if ply.kill_mark else "→"
    tail = dest
    if ply.dest_kind is not None:
        dk = notation.key(ply.dest_kind)
        tail = f"{'(' + dk + ')' if ply.dest_carried else dk}@{dest}"
    return f"{head} {sep} {tail}{'!' if ply.bang else ''}"


def expected_decoration(
    pos: Position, move: Move, side: int | None = None
) -> tuple[bool, int | None, bool]:
    """(kill mark, destination key, '!') that Appendix C asks for when `move` is played by
    `side` (the side to move unless given)."""
    if move.origin is None:
        return False, None, False
    return pos.decoration(move, pos.turn if side is None else side)


def describe_move(pos: Position, move: Move) -> Ply:
    """The Ply that records `move` in `pos`, decorated as Appendix C says."""
    kill, dest_kind, bang = expected_decoration(pos, move)
    return Ply(move.kind, move.dest, move.origin, move.carry, kill, dest_kind, False, bang)


def move_text(pos: Position, move: Move, notation: Notation = ENGLISH) -> str:
    """The text of `move` played in `pos`."""
    return format_ply(describe_move(pos, move), notation)


def decoration_warnings(written: Ply, expected: Ply, notation: Notation = ENGLISH) -> list[Message]:
    """How the destination's description differs from what the position says (warnings)."""
    out = []
    if written.kill_mark != expected.kill_mark:
        out.append(
            message("kill_mark_no_enemy") if written.kill_mark else message("kill_with_arrow")
        )
    if written.dest_kind != expected.dest_kind:
        exp = notation.key(expected.dest_kind) if expected.dest_kind else "none"
        got = notation.key(written.dest_kind) if written.dest_kind else "none"
        out.append(message("destination_key", written=got, key=exp))
    if written.bang != expected.bang:
        out.append(message("bang_no_capture") if written.bang else message("capture_lacks_bang"))
    return out
