"""The tournaments app's `kz` subcommands (event_commands), registered by the dispatcher in
the games app (games/management/commands/kz.py)."""
