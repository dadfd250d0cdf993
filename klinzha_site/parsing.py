"""Parsing untrusted input at the edge: ASCII integers in a range, text without control
characters, JSON with a bounded nesting depth; each refusal a ValidationError naming the
field (HTTP 400)."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

# ASCII only: str.isdigit() also takes "²" (which int() refuses) and int() reads Arabic-Indic
# or full-width digits, so neither may decide what is a number.
_DIGITS = re.compile(r"[0-9]+", re.ASCII)
_SIGNED = re.compile(r"-?[0-9]+", re.ASCII)
# Longer than any id or count we store (a bigint has 19 digits): refused before int() works
# on a megabyte of digits.
MAX_DIGITS = 19
# The columns' ranges: PositiveSmallIntegerField, PositiveIntegerField, BigAutoField.
SMALL_MAX = 32767
INT_MAX = 2147483647
ID_MAX = 9223372036854775807
# JSON bodies are shallow (a pairing list is three deep); 32 leaves room and stops a body of
# a hundred thousand brackets before the parser or a serializer recurses through it.
MAX_JSON_DEPTH = 32
# Characters refused in text: controls (a tab and line breaks are allowed where text may have
# several lines), surrogates, and line or paragraph separators, which move text around.
_REFUSED = {"Cc", "Cs", "Zl", "Zp"}
_ALLOWED_CONTROLS = frozenset("\t\n\r")


def ascii_int(text: Any, *, field: str, lo: int = 0, hi: int = ID_MAX, signed: bool = False) -> int:
    """`text` read as a decimal integer of ASCII digits between lo and hi (inclusive)."""
    value = str(text) if isinstance(text, int) and not isinstance(text, bool) else text
    pattern = _SIGNED if signed else _DIGITS
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise ValidationError(
            {
                field: gettext("a whole number in digits 0-9 is expected, not %(text)r")
                % {"text": text}
            }
        )
    if len(value.lstrip("-")) > MAX_DIGITS:
        raise ValidationError({field: gettext("at most %(hi)s") % {"hi": hi}})
    number = int(value)
    if number < lo:
        raise ValidationError({field: gettext("at least %(lo)s") % {"lo": lo}})
    if number > hi:
        raise ValidationError({field: gettext("at most %(hi)s") % {"hi": hi}})
    return number


def ascii_int_or_none(text: Any, *, field: str, lo: int = 0, hi: int = ID_MAX) -> int | None:
    """Like ascii_int, None for a blank or missing value."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return None
    return ascii_int(text, field=field, lo=lo, hi=hi)


def control_character(text: str, *, multiline: bool = True) -> str | None:
    """The first character text may not hold, as U+XXXX, or None."""
    for ch in text:
        if ch in _ALLOWED_CONTROLS and (multiline or ch == "\t"):
            continue
        if ch.isprintable():
            continue
        if unicodedata.category(ch) in _REFUSED:
            return f"U+{ord(ch):04X}"
    return None


# A reason or note an official gives (a ruling, a penalty, a clock decision): what the API's
# serializers always took, now for every way in (the pages too), since it is kept for good in
# the audit trail.
REASON_MAX = 2000


def text_shows_nothing(text: str) -> bool:
    """Whether `text` holds nothing a reader sees: spaces and format characters only (a
    zero-width space, a direction mark or override), which a required text must not pass
    for."""
    return all(ch.isspace() or unicodedata.category(ch) == "Cf" for ch in text)


def reason_check(text: str, *, missing: str | None, field: str = "reason") -> str:
    """`text` without the spaces around it; ValidationError naming `field` when it is longer
    than REASON_MAX characters, or, where a reason is required (`missing`: what to ask
    for), when it shows nothing."""
    if len(text) > REASON_MAX:
        raise ValidationError(
            {
                field: gettext("at most %(count)s characters (this has %(length)s)")
                % {"count": REASON_MAX, "length": len(text)}
            }
        )
    if missing is not None and text_shows_nothing(text):
        raise ValidationError({field: missing})
    return text.strip()


def json_depth_check(data: Any, *, limit: int = MAX_JSON_DEPTH) -> None:
    """ValidationError if lists and objects nest deeper than `limit` (walked without
    recursion, so the walk itself cannot overflow)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = list(value.values())
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            raise ValidationError(
                gettext("JSON nested too deep: at most %(limit)s levels") % {"limit": limit}
            )
        stack.extend((child, depth + 1) for child in children)


def json_strings_check(data: Any, *, path: str = "") -> None:
    """ValidationError naming the field where a key or string holds a control character."""
    stack = [(data, path)]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            bad = control_character(value)
            if bad is not None:
                raise ValidationError(
                    {
                        where or "body": gettext("control character %(bad)s is not allowed")
                        % {"bad": bad}
                    }
                )
        elif isinstance(value, dict):
            for key, child in value.items():
                name = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and control_character(key) is not None:
                    raise ValidationError({"body": gettext("control character in a field name")})
                stack.append((child, name))
        elif isinstance(value, list):
            stack.extend((child, f"{where}[{i}]") for i, child in enumerate(value))


def json_loads_bounded(body: bytes | str, *, limit: int = MAX_JSON_DEPTH) -> Any:
    """Parse a JSON body for a plain view: ValidationError for what is not JSON, nests too
    deep or holds control characters in its strings."""
    if _bracket_depth(body, limit) > limit:
        raise ValidationError(
            gettext("JSON nested too deep: at most %(limit)s levels") % {"limit": limit}
        )
    try:
        data = json.loads(body, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ValidationError(gettext("the body is not JSON")) from None
    json_depth_check(data, limit=limit)
    json_strings_check(data)
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


def _bracket_depth(body: bytes | str, limit: int) -> int:
    """How deep brackets outside strings nest (counted up to one past `limit`): checked
    before parsing, so that a body of nothing but brackets never reaches the recursive
    parser."""
    raw = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    depth = deepest = 0
    for m in _BRACKETS.finditer(_STRING.sub(b"", raw)):
        depth += 1 if m[0] in b"[{" else -1
        deepest = max(deepest, depth)
        if deepest > limit:
            break
    return deepest


# The portable ranges of Django's integer columns (PostgreSQL's; SQLite would take more and
# PostgreSQL then refuse the same value with a 500).
_RANGES = {
    "PositiveSmallIntegerField": (0, SMALL_MAX),
    "SmallIntegerField": (-SMALL_MAX - 1, SMALL_MAX),
    "PositiveIntegerField": (0, INT_MAX),
    "IntegerField": (-INT_MAX - 1, INT_MAX),
    "PositiveBigIntegerField": (0, ID_MAX),
    "BigIntegerField": (-ID_MAX - 1, ID_MAX),
}


def integer_fields_check(instance: Any) -> None:
    """ValidationError naming each integer field of a model instance whose value its column
    cannot hold on every database."""
    errors = {}
    for f in instance._meta.concrete_fields:
        bounds = _RANGES.get(f.get_internal_type())
        value = getattr(instance, f.attname)
        if bounds is None or not isinstance(value, int) or f.primary_key:
            continue
        lo, hi = bounds
        if not lo <= value <= hi:
            errors[f.name] = f"at most {hi}" if value > hi else f"at least {lo}"
    if errors:
        raise ValidationError(errors)
