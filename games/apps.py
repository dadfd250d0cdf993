"""App configuration for games."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Django app loading: receivers connect once the models are ready, so this import
        # waits until now (it is the one place the games app listens to tournaments).
        from games import receivers  # noqa: F401
