"""The signed-in player's own boards first on a round's pairings, moved in the page as it is
served: the cached page is everyone's (rendered for a visitor), the order is theirs alone."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

from django.utils.translation import gettext

# The round page's boards stand between these marks (tournaments/round.html), each row
# opening with `<tr id="board-N"` on a line of its own (published_tables.pairing_rows).
START, END = b"<!--kz:boards-->", b"<!--/kz:boards-->"
ROW = b'\n<tr id="board-'
_BOARD = re.compile(rb"(\d+)\"")


def own_boards_first(body: bytes, boards: Sequence[int]) -> bytes:
    """`body` with the rows of `boards` moved before the others (in their own order) and
    marked as the reader's (a class, `aria-current` and the words a phone's card shows);
    unchanged when it has no such rows or no marks."""
    if not boards:
        return body
    start = body.find(START)
    end = body.find(END, start) if start >= 0 else -1
    if end < 0:
        return body
    start += len(START)
    head, *rows = body[start:end].split(ROW)
    wanted = {str(b).encode() for b in boards}
    own, rest = [], []
    for row in rows:
        number = _BOARD.match(row)
        if number is not None and number.group(1) in wanted:
            own.append(_marked(row, number.end()))
        else:
            rest.append(row)
    if not own:
        return body
    moved = head + b"".join(ROW + row for row in own + rest)
    return body[:start] + moved + body[end:]


def _marked(row: bytes, at: int) -> bytes:
    """The row (after `<tr id="board-`) marked as the reader's after its id's closing quote."""
    words = escape(gettext("Your game")).encode()
    return row[:at] + b' class="own" aria-current="true" data-own="' + words + b'"' + row[at:]
