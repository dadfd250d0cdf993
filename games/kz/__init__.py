"""The games app's `kz` subcommands, one module a topic; the dispatcher is
games/management/commands/kz.py. Importing this package needs no Django: the engine's
commands run without it (`python -m games.kz.engine_commands`)."""
