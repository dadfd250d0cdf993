"""Text for a CSV cell that a spreadsheet shows as text, never runs as a formula (OWASP)."""

from __future__ import annotations

import re

# OWASP "CSV Injection": a cell a spreadsheet would read as a formula starts with one of
# these; a tab or a carriage return at the start is dropped by some, exposing what follows.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

# The same characters just after a separator a spreadsheet may split on (the comma of our
# files is quoted by the csv module, but a semicolon or a pipe is not, and a spreadsheet
# set up for them would start a new cell there), spaces between allowed.
_AFTER_SEPARATOR = re.compile(r"([;,|\t\r\n] *)(?=[=+\-@])")


def csv_text(value: object) -> str:
    """A text cell (a name, a club, a place, a reason) made safe to open in a spreadsheet:
    a single quote put before a formula's first character (spaces before it allowed), at
    the start and after each separator. Numbers and result symbols are written as they
    are, not through this; JSON and TRF carry the raw text."""
    text = "" if value is None else str(value)
    text = _AFTER_SEPARATOR.sub(r"\1'", text)
    if text.lstrip(" ").startswith(FORMULA_START):
        text = "'" + text
    return text
