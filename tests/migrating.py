"""Migration tests' one way to reach a state: back where every step can be undone, else from
an empty database forward."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.migration import Migration

Targets = list[tuple[str, str]]


def _reversible(migration: Migration) -> bool:
    return all(operation.reversible for operation in migration.operations)


def _database_emptied() -> None:
    """Every table dropped, the migrations' record with them: nothing is applied."""
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
    quote = connection.ops.quote_name
    cascade = " CASCADE" if connection.vendor == "postgresql" else ""
    with connection.constraint_checks_disabled(), connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"DROP TABLE IF EXISTS {quote(table)}{cascade}")


def _rebuilt(executor: MigrationExecutor, undone: set[tuple[str, str]]) -> None:
    """Every migration applied now but those in `undone`, applied again to an empty
    database (each app's latest one is a target: its ancestors come with it)."""
    kept = set(executor.loader.applied_migrations) - undone
    _database_emptied()
    graph = MigrationExecutor(connection).loader.graph
    apps = sorted({app for app, _ in kept})
    latest = [
        max((node for node in kept if node[0] == app), key=lambda n: len(graph.forwards_plan(n)))
        for app in apps
    ]
    MigrationExecutor(connection).migrate(latest)


def migrate(targets: Targets) -> MigrationExecutor:
    """The database at `targets`, every other app as it was; an executor that knows it. A
    state behind a migration that cannot be undone (its data would be lost) is built again
    from nothing, as a database that never reached that migration was."""
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(targets)
    if any(backwards and not _reversible(migration) for migration, backwards in plan):
        undone = {(m.app_label, m.name) for m, backwards in plan if backwards}
        _rebuilt(executor, undone)
    else:
        executor.migrate(targets)
    return MigrationExecutor(connection)


def migrate_latest() -> MigrationExecutor:
    """Every app at its latest migration, as the other tests expect the schema."""
    return migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
