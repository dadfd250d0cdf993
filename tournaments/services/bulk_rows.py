"""Writing and deleting many rows of one model at once: on PostgreSQL by COPY and by one
`= ANY(array)` (a period's close writes thousands of rows, and building a model instance or a
query parameter per row cost more than the database's work), else through the ORM in
batches. Rows are tuples in the order of the fields named; no ids come back."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from django.db import connection, models

# SQLite's limit on a statement's parameters is the smallest of the databases run here.
_BATCH = 900


def _column(model: type[models.Model], name: str) -> str:
    """The column of field `name` (a foreign key by its `_id` attribute name too)."""
    field = cast(Any, model._meta.get_field(name.removesuffix("_id")))
    return str(field.column)


def rows_insert(
    *, model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """Insert `rows` (values of `fields`, the foreign keys' by their `_id` attribute name)
    in the current transaction."""
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create(
            [model(**dict(zip(fields, row, strict=True))) for row in rows], batch_size=2000
        )
        return
    quote = connection.ops.quote_name
    columns = ", ".join(quote(_column(model, f)) for f in fields)
    sql = f"COPY {quote(model._meta.db_table)} ({columns}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(row)


def rows_delete(
    *,
    model: type[models.Model],
    field: str,
    values: Sequence[int],
    returning: str = "",
    **also: Any,
) -> set[Any]:
    """Delete the rows whose `field` (an integer column) is one of `values`, and that match
    `also` (plain column equalities, e.g. pool="laws"); the deleted rows' `returning` column
    values (an empty set without `returning`)."""
    if not values:
        return set()
    found: set[Any] = set()
    if connection.vendor != "postgresql":
        for i in range(0, len(values), _BATCH):
            rows = model._default_manager.filter(**{f"{field}__in": values[i : i + _BATCH]}, **also)
            if returning:
                found |= set(rows.values_list(returning, flat=True))
            rows.delete()
        return found
    quote = connection.ops.quote_name
    where = [f"{quote(_column(model, field))} = ANY(%s)"]
    params: list[Any] = [list(values)]
    for name, value in also.items():
        where.append(f"{quote(_column(model, name))} = %s")
        params.append(value)
    sql = f"DELETE FROM {quote(model._meta.db_table)} WHERE {' AND '.join(where)}"
    if returning:
        sql += f" RETURNING {quote(_column(model, returning))}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if returning:
            found = {row[0] for row in cursor.fetchall()}
    return found
