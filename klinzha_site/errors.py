"""Errors every layer may raise: a refusal because of the state things are in (HTTP 409),
as opposed to bad input (a plain ValidationError, HTTP 400)."""

from __future__ import annotations

from django.core.exceptions import ValidationError


class Conflict(ValidationError):
    """The request is well formed but the event's state forbids it now (a result pending, a
    round proposed, no pairing possible); the message says why and what can be done."""


class RowsRefused(ValidationError):
    """Rows of a batch refused, so that nothing of the batch is stored: each row by its key
    (its index in the request's list, or its line or board on a page) with the fields at
    fault. The API answers 400 `{list_field: {key: {field: [messages]}}}`, the shape DRF
    gives a list's refused items; a page reads the ValidationError, one message a row keyed
    "`label` KEY" (naming the fields when `named`)."""

    def __init__(
        self,
        rows: dict[int, dict[str, list[str]]],
        *,
        list_field: str = "rows",
        label: str = "row",
        named: bool = True,
    ) -> None:
        self.rows = rows
        self.list_field = list_field
        super().__init__(
            {
                f"{label} {key}": ["; ".join(_row_text(fields, named=named))]
                for key, fields in sorted(rows.items())
            }
        )


def _row_text(fields: dict[str, list[str]], *, named: bool) -> list[str]:
    return [
        f"{name}: {' '.join(texts)}" if named and name else " ".join(texts)
        for name, texts in fields.items()
    ]
