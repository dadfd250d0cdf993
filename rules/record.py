"""Game records (.kzr): tag pairs and movetext with comments and clock readings, read and
written so that reading what was written gives back the same record."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from rules.board import SEATS
from rules.errors import NotationError, RecordError
from rules.messages import message
from rules.notation import (
    KEYS,
    PLY_FULL_RE,
    PLY_PATTERN,
    Notation,
    Ply,
    format_ply,
    ply_from_groups,
    written_reader,
)
from rules.variants import parse_variants

TAG_ORDER: Final = (
    "Event",
    "Site",
    "Date",
    "Round",
    "Green",
    "Gold",
    "FirstPlacement",
    "Ruleset",
    "Variants",
    "Notation",
    "Language",
    "Seat",
    "Clouds",
    "Crown",
    "AblationLimit",
    "Removed",
    "TimeControl",
    "Result",
    "Termination",
    "Coin",
)
RESULTS: Final = ("green", "gold", "draw", "*")
TERMINATIONS: Final = (
    "capture",
    "deadlock",
    "time",
    "resignation",
    "agreement",
    "arbiter",
    "penalty",
    "forfeit",
    "crown",
)

_TAG_RE: Final = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_CLK_RE: Final = re.compile(r"\[%clk\s+(\d+):(\d{1,2}):(\d{1,2})\]")
_MOVENUM_RE: Final = re.compile(r"\d+\.+")
_WORD_RE: Final = re.compile(r"\S+")
_UNESCAPE_RE: Final = re.compile(r"\\(.)")


@dataclass(frozen=True, slots=True, eq=False)
class RecordPly:
    """One ply of the movetext: its reading (None when unreadable), the text as written,
    clock reading and comments. Two plies are equal when they read the same (or, both
    unreadable, are written the same), whatever the layout of their text."""

    ply: Ply | None
    text: str
    clock: int | None = None
    comments: tuple[str, ...] = ()
    error: str | None = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RecordPly):
            return NotImplemented
        if self.ply is None or other.ply is None:
            same = self.ply is other.ply and self.text == other.text
        else:
            same = self.ply == other.ply
        return same and self.clock == other.clock and self.comments == other.comments

    def __hash__(self) -> int:
        return hash((self.ply, self.clock, self.comments))


@dataclass(slots=True)
class Record:
    """A battle record: ordered tag pairs, then the plies."""

    tags: dict[str, str] = field(default_factory=dict)
    plies: list[RecordPly] = field(default_factory=list)
    preamble: tuple[str, ...] = ()

    @property
    def notation(self) -> Notation:
        return notation_from_tags(self.tags)


def notation_from_tags(tags: dict[str, str]) -> Notation:
    """The Notation the tags name (Language, Notation, Seat)."""
    lang = tags.get("Language", "en").strip().lower() or "en"
    if lang not in KEYS:
        raise RecordError.coded("unknown_language", language=repr(lang), known=", ".join(KEYS))
    system = tags.get("Notation", "geometric").strip().lower() or "geometric"
    if system not in ("geometric", "descriptive"):
        raise RecordError.coded("unknown_notation", notation=repr(system))
    seat_name = tags.get("Seat", "apex").strip().lower() or "apex"
    if seat_name not in SEATS:
        raise RecordError.coded("unknown_seat", seat=repr(seat_name))
    tri_level = "tri-level" in parse_variants(tags.get("Variants", ""))
    return Notation(lang, system == "descriptive", SEATS.index(seat_name), tri_level)


def format_clock(seconds: int) -> str:
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}"


def _split_header(text: str) -> tuple[dict[str, str], str]:
    tags: dict[str, str] = {}
    pos = 0
    n = len(text)
    while True:
        while pos < n and text[pos] in " \t\r\n\ufeff":
            pos += 1
        if pos >= n or text[pos] != "[":
            break
        end = text.find("\n", pos)
        line = text[pos : n if end < 0 else end].strip()
        m = _TAG_RE.fullmatch(line)
        if m is None:
            raise RecordError.coded("bad_tag_pair", line=repr(line[:60]))
        value = m.group(2)
        # Most values escape nothing: no substitution to run.
        tags[m.group(1)] = _UNESCAPE_RE.sub(r"\1", value) if "\\" in value else value
        pos = n if end < 0 else end + 1
    return tags, text[pos:]


def read_tags(text: str) -> dict[str, str]:
    """Only the tag pairs of a record (cheap: the movetext is not read)."""
    return _split_header(text)[0]


# One pass over the movetext: a ply with the clock reading that usually follows it, other
# comments, move numbers, and anything else (an unreadable ply).
_TOKEN_RE: Final = re.compile(
    rf"\s*(?:(?P<ply>{PLY_PATTERN})"
    r"(?:\s*\{\[%clk\s+(?P<ch>\d+):(?P<cm>\d{1,2}):(?P<cs>\d{1,2})\]\})?"
    r"|\{(?P<comment>[^}]*)\}|(?P<open>\{)|(?P<num>\d+\.+)|(?P<word>[^\s{]+))"
)
_PLY_AT: Final = _TOKEN_RE.groupindex["ply"]
_PLY_GROUPS: Final = slice(_PLY_AT, _PLY_AT + 9)
_CLOCK_AT: Final = _TOKEN_RE.groupindex["ch"]
# Records repeat the same ply texts over and over; each notation keeps what it has read.
_SEEN: dict[Notation, dict[str, Ply]] = {}


def read_record(text: str) -> Record:
    """Read a record. Raises RecordError when the text is not a record at all; a ply that
    cannot be read is kept with `ply=None` and an `error`, so the validator can name it."""
    if "\x00" in text:
        raise RecordError.coded("not_text")
    tags, movetext = _split_header(text)
    notation = notation_from_tags(tags)
    if not tags and not movetext.strip():
        raise RecordError.coded("empty_record")
    seen = _SEEN.setdefault(notation, {})
    if len(seen) > 200_000:
        seen.clear()
    fast = _read_lines(movetext, notation, seen)
    if fast is not None:
        return Record(tags, fast, ())
    plies, preamble = _read_tokens(movetext, notation, seen)
    return Record(tags, plies, preamble)


# A ply being read: its reading (None when unreadable), its text, why it is unreadable.
_Reading = tuple[Ply | None, str, str | None]


def _read_tokens(
    movetext: str, notation: Notation, seen: dict[str, Ply]
) -> tuple[list[RecordPly], tuple[str, ...]]:
    """(the plies, the comments before the first) of movetext in any layout, read token
    by token."""
    plies: list[RecordPly] = []
    preamble: list[str] = []
    # The ply being read; it is stored once its comments are known.
    cur: _Reading | None = None
    clock: int | None = None
    comments: list[str] = []
    for m in _TOKEN_RE.finditer(movetext):
        # lastgroup names the innermost group closed last, so a ply is told by its own group.
        kind = "ply" if m.start("ply") >= 0 else m.lastgroup
        if kind == "num":
            continue
        if kind == "comment":
            body = m.group("comment")
            if cur is None:
                body = _CLK_RE.sub("", body).strip()
                if body:
                    preamble.append(body)
                continue
            reading = _clock_of(body)
            if reading is not None:
                clock, body = reading
            if body:
                comments.append(body)
            continue
        if kind == "open":
            raise RecordError.coded("unterminated_comment")
        if cur is not None:
            plies.append(RecordPly(cur[0], cur[1], clock, tuple(comments), cur[2]))
            comments = []
        if kind == "ply":
            cur, clock = _token_ply(m.groups(), notation, seen)
        else:
            raw = m.group("word")
            cur, clock = (None, raw, message("cannot_read_ply", text=repr(raw))), None
    if cur is not None:
        plies.append(RecordPly(cur[0], cur[1], clock, tuple(comments), cur[2]))
    return plies, tuple(preamble)


def _token_ply(
    groups: tuple[str | Any, ...], notation: Notation, seen: dict[str, Ply]
) -> tuple[_Reading, int | None]:
    """(the ply, its clock reading) of a ply token of _TOKEN_RE, given its groups."""
    raw = groups[_PLY_AT - 1]
    ply = seen.get(raw)
    reading: _Reading = (ply, raw, None)
    if ply is None:
        try:
            ply = ply_from_groups(groups[_PLY_GROUPS], notation)
        except NotationError as exc:
            reading = (None, raw, exc.reason)
        else:
            seen[raw] = ply
            reading = (ply, raw, None)
    h = groups[_CLOCK_AT - 1]
    if h is None:
        return reading, None
    return reading, int(h) * 3600 + int(groups[_CLOCK_AT]) * 60 + int(groups[_CLOCK_AT + 1])


# The writer's line: a ply, a space, its clock reading, then perhaps notes (Kinta's casts)
# each in braces of its own, the last ending in `]`; ASCII digits only.
_LINE_RE: Final = re.compile(
    r"([^{]*[^\s{]) \{\[%clk ([0-9]+):([0-9]{1,2}):([0-9]{1,2})\]\}(?: \{(.*\])\})?"
)


def _read_lines(movetext: str, notation: Notation, seen: dict[str, Ply]) -> list[RecordPly] | None:
    """The plies of movetext laid out as the writer writes it (a ply a line, perhaps with a
    clock reading), read without the tokenizer; None for any other layout."""
    plies: list[RecordPly] = []
    append = plies.append
    line_match = _LINE_RE.fullmatch
    written = written_reader(notation)
    for line in movetext.splitlines():
        line = line.strip()
        if not line:
            continue
        m = line_match(line)
        if m is None:
            read = _read_line(line, notation, seen, written)
            if read is None:
                return None
            append(read)
            continue
        text, h, mm, ss, notes = m.groups()
        comments: tuple[str, ...] | None = () if notes is None else _notes(notes)
        if comments is None:
            return None
        ply = seen.get(text)
        if ply is None:
            ply = _read_written(text, notation, seen, written)
            if ply is None:
                return None
        append(RecordPly(ply, text, int(h) * 3600 + int(mm) * 60 + int(ss), comments))
    return plies


def _notes(text: str) -> tuple[str, ...] | None:
    """The notes after a line's clock reading (`a} {b`: the braces between them), or None
    when they are not notes the general reader would read the same (braces, a clock)."""
    bodies = text.split("} {")
    if any("{" in b or "}" in b or "%clk" in b or not b for b in bodies):
        return None
    return tuple(bodies)


def _read_written(
    text: str, notation: Notation, seen: dict[str, Ply], written: Callable[[str], Ply | None]
) -> Ply | None:
    """A ply's text read as the writer writes it or else with the regex, kept in `seen`."""
    ply = written(text) or _read_ply(text, notation)
    if ply is not None:
        seen[text] = ply
    return ply


def _read_ply(text: str, notation: Notation) -> Ply | None:
    """A ply's text in a form of its own read with the regex (None when it is no ply)."""
    m = PLY_FULL_RE.fullmatch(text)
    if m is None:
        return None
    try:
        return ply_from_groups(m.groups(), notation)
    except NotationError:
        return None


def _read_line(
    line: str, notation: Notation, seen: dict[str, Ply], written: Callable[[str], Ply | None]
) -> RecordPly | None:
    """One stripped line of _read_lines in a layout of its own (no clock, spaces inside the
    reading); None when the movetext needs the tokenizer."""
    clock = None
    comments: tuple[str, ...] = ()
    brace = line.find("{")
    if brace >= 0 and line.endswith("]}"):
        # A clock reading then notes (Kinta's casts), each in braces of its own.
        notes = line.find("]} {", brace)
        if notes >= 0:
            found = _notes(line[notes + 4 : -1])
            if found is None:
                return None
            comments = found
            line = line[: notes + 2]
    if brace >= 0:
        # The general reader's reading of the comment, which must hold the clock alone.
        tail = line[brace:]
        reading = (
            _clock_of(tail[1:-1]) if tail.startswith("{[%clk ") and tail.endswith("]}") else None
        )
        if reading is None or reading[1]:
            return None
        clock = reading[0]
        line = line[:brace].rstrip()
    ply = seen.get(line) or _read_written(line, notation, seen, written)
    if ply is None:
        return None
    return RecordPly(ply, line, clock, comments)


def _clock_of(body: str) -> tuple[int, str] | None:
    """(seconds, the rest of the comment) for a comment holding a [%clk H:MM:SS] reading."""
    if body.startswith("[%clk ") and body.endswith("]") and body.count("]") == 1:
        # The usual comment is a lone clock reading: read it without a regex (ASCII digits:
        # str.isdigit also takes digits int() does not read, such as a superscript two).
        h, _, rest = body[6:-1].strip().partition(":")
        mm, _, ss = rest.partition(":")
        if h.isdigit() and mm.isdigit() and ss.isdigit() and body.isascii():
            return int(h) * 3600 + int(mm) * 60 + int(ss), ""
    m = _CLK_RE.search(body)
    if m is None:
        return None
    seconds = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))
    return seconds, (body[: m.start()] + body[m.end() :]).strip()


def write_record(record: Record) -> str:
    """The record as the writer writes it: tags, a blank line, one ply a line."""
    lines = []
    keys = [k for k in TAG_ORDER if k in record.tags] + [
        k for k in record.tags if k not in TAG_ORDER
    ]
    for k in keys:
        v = record.tags[k].replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'[{k} "{v}"]')
    lines.append("")
    for c in record.preamble:
        lines.append("{" + c.replace("}", ")") + "}")
    notation = record.notation
    for rp in record.plies:
        text = format_ply(rp.ply, notation) if rp.ply is not None else rp.text
        parts = [text]
        if rp.clock is not None:
            parts.append("{[%clk " + format_clock(rp.clock) + "]}")
        parts.extend("{" + c.replace("}", ")") + "}" for c in rp.comments)
        lines.append(" ".join(parts))
    return "\n".join(lines) + "\n"


def first_placer_name(tags: Mapping[str, str]) -> str:
    """The colour a record's FirstPlacement tag names, lower-cased (green when it names
    none); the validator checks that it is green or gold (Art. 2.4)."""
    return (tags.get("FirstPlacement") or "green").strip().lower() or "green"
