"""Django admin for organizers: clubs, players and settings. Rounds, games, results and
byes are shown read-only: they change only through the services (pages, API, `kz`), which
check the event's state, lock in the one order and write the audit trail."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import ByeRequest, Club, Game, Player, Registration, Round, Tournament


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never changed here: a change behind the services' back would skip their checks
    and the audit trail."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player"]
    # Withdrawals, expulsions and start ranks change standings: their services audit them.
    readonly_fields = ["status", "last_round", "start_rank", "first_round"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "start_date", "pairing_system", "rounds_planned"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["arbiters"]
    inlines = [RegistrationInline]
    search_fields = ["name", "slug"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # Settings that change results are locked once round 1 is paired, as the services
        # lock them (tournaments.services.events.tournament_update).
        if obj is not None and obj.rounds.exists():
            return list(Tournament.RESULT_SETTINGS)
        return []


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "federation", "rating"]
    search_fields = ["name"]
    list_filter = ["club"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "country"]
    search_fields = ["name"]


admin.site.register(Round, ReadOnlyAdmin)
admin.site.register(ByeRequest, ReadOnlyAdmin)


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["round", "board", "first", "second", "kind", "result"]
    list_filter = ["kind", "result"]
