"""The `kz` command: one dispatcher whose subcommands come from each app's kz package."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.kz import bundle_export, engine_commands
from tournaments.kz import event_commands, rating_commands, series_commands

# It lives in the top app so that it can name both apps' subcommands. bundle_export reads the
# database, so it is not among the engine's commands (engine_commands runs without Django).
SUBCOMMAND_MODULES = (
    engine_commands,
    bundle_export,
    event_commands,
    rating_commands,
    series_commands,
)


class Command(BaseCommand):
    help = "Klin Zha tools: validate, perft, show, clock, standings, trf, pair, ratings, …"
    # The system checks import every URL and view; the kz tools need none of them.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        subparsers = parser.add_subparsers(dest="subcommand", required=True)
        for module in SUBCOMMAND_MODULES:
            module.register(subparsers)

    def handle(self, *args: Any, **options: Any) -> None:
        handler = options.pop("handler")
        try:
            code = int(handler(options, self.stdout, self.stderr) or 0)
        except BrokenPipeError:
            # The reader went away (e.g. `| head`): nothing more to say.
            sys.stderr.close()
            code = 0
        if code:
            self.stdout.flush()
            sys.exit(code)
