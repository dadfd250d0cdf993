"""Entrants given in bulk read into plain lines: "name, rating[, club[, federation[, FIDE
id]]]" typed or pasted, a CSV of those columns, or a TRF file's player lines; each line keeps
its number and its error."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from klinzha_site.parsing import ascii_int
from tournaments.trf import TrfError, read_trf

LINES_MAX = 2000  # a bigger field is a TRF import (kz import-trf), not a paste


@dataclass(frozen=True, slots=True)
class EntrantLine:
    number: int  # the line of the text or file, from 1
    name: str
    rating: int = 0
    club: str = ""
    federation: str = ""
    fide_id: str = ""
    error: str = ""


def _is_trf(text: str) -> bool:
    return any(line.startswith("001 ") for line in text.splitlines())


def _from_trf(text: str) -> list[EntrantLine]:
    try:
        trf = read_trf(text)
    except TrfError as exc:
        return [EntrantLine(number=0, name="", error=f"not a readable TRF file: {exc}")]
    return [
        EntrantLine(
            number=p.line,
            name=p.name,
            rating=p.rating,
            federation=p.federation,
            fide_id=p.fide_id,
        )
        for p in trf.players
    ]


def _from_row(number: int, cells: list[str]) -> EntrantLine:
    cells = [c.strip() for c in cells]
    name = cells[0] if cells else ""
    if not name:
        return EntrantLine(number=number, name="", error="no name: write name, rating[, club]")
    if len(cells) > 5:
        return EntrantLine(
            number=number,
            name=name,
            error="too many columns: write name, rating[, club[, federation[, FIDE id]]]",
        )
    rating_text = cells[1] if len(cells) > 1 else ""
    try:
        # Its range is player_create's to check (the one home of that rule).
        rating = ascii_int(rating_text, field="rating") if rating_text else 0
    except ValidationError:
        return EntrantLine(
            number=number,
            name=name,
            error=f"rating {rating_text[:12]!r}: a whole number in digits 0-9",
        )
    more = [*cells[2:], "", "", ""]
    federation, fide_id = more[1].upper(), more[2]
    if (
        len(federation) > 3
        or len(fide_id) > 12
        or not (fide_id.isascii() and fide_id.isdigit() or not fide_id)
    ):
        return EntrantLine(
            number=number,
            name=name,
            error="federation: 3 letters at most; FIDE id: 12 digits at most",
        )
    return EntrantLine(
        number=number,
        name=name,
        rating=rating,
        club=more[0],
        federation=federation,
        fide_id=fide_id,
    )


def entrant_lines_read(text: str) -> list[EntrantLine]:
    """The entrants of `text` (a TRF file when it has player lines `001`): one per line,
    blank lines, lines opening with # and a header "name, rating, club" skipped."""
    if _is_trf(text):
        lines = _from_trf(text)
    else:
        lines = []
        rows = csv.reader(io.StringIO(text), skipinitialspace=True)
        try:
            for number, cells in enumerate(rows, start=1):
                if not any(c.strip() for c in cells) or cells[0].lstrip().startswith("#"):
                    continue
                if not lines and cells[0].strip().lower() in ("name", "player"):
                    continue  # a CSV's header
                lines.append(_from_row(number, cells))
        except csv.Error as exc:
            lines.append(EntrantLine(number=rows.line_num, name="", error=f"not CSV: {exc}"))
    if len(lines) > LINES_MAX:
        return [EntrantLine(number=0, name="", error=f"more than {LINES_MAX} entrants at once")]
    return lines
