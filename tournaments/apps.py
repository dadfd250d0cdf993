"""App configuration for tournaments."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        # Django app loading: receivers connect once the models are ready, so this import
        # waits until now (the login signal sets a player's language of mails).
        from tournaments import receivers  # noqa: F401
