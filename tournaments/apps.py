"""App configuration for tournaments."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        # Django's documented place for connecting receivers: models are loaded only now.
        from django.contrib.auth.signals import user_logged_in

        from tournaments.receivers import player_language_remember

        user_logged_in.connect(player_language_remember, dispatch_uid="kz-player-language")
