"""Django admin for organizers: clubs, players and settings. Rounds, games, results and
byes are shown read-only: they change only through the services (pages, API, `kz`), which
check the event's state, lock in the one order and write the audit trail."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import (
    ByeRequest,
    Club,
    Game,
    Player,
    Registration,
    Round,
    Series,
    SeriesEvent,
    Tournament,
)
from tournaments.services.common import published_version_bump, published_version_bump_for_player


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
    filter_horizontal = ["arbiters"]
    inlines = [RegistrationInline]
    search_fields = ["name", "slug"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # Settings that change results are locked once round 1 is paired, as the services
        # lock them (tournaments.services.events.tournament_update).
        # The slug is the address people bookmarked and what the audit chain's entries bind
        # (tournaments.audit.chain_scope): it never changes once the event exists.
        if obj is None:
            return []
        if obj.rounds.exists():
            return ["slug", *Tournament.RESULT_SETTINGS]
        return ["slug"]

    def get_prepopulated_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return {} if obj is not None else {"slug": ["name"]}

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # After the registrations too: the event's published pages show what changed here.
        super().save_related(request, form, formsets, change)
        published_version_bump(form.instance)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "federation", "rating"]
    search_fields = ["name"]
    list_filter = ["club"]

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        published_version_bump_for_player(player_id=obj.pk)  # their events' pages show them


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "country"]
    search_fields = ["name"]
    # Officials are named through services.club_officials_set (POST /api/clubs/{id}/officials/),
    # which writes the site's audit chain: shown here, not changed.
    exclude = ["officials"]
    readonly_fields = ["officials_named"]

    @admin.display(description="officials")
    def officials_named(self, obj: Club) -> str:
        return ", ".join(obj.officials.values_list("username", flat=True)) if obj.pk else ""

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        # Standings show each entrant's club: every event a member entered changes.
        for player_id in obj.players.values_list("pk", flat=True):
            published_version_bump_for_player(player_id=player_id)


admin.site.register(Round, ReadOnlyAdmin)
admin.site.register(Series, ReadOnlyAdmin)
admin.site.register(SeriesEvent, ReadOnlyAdmin)
admin.site.register(ByeRequest, ReadOnlyAdmin)


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["round", "board", "first", "second", "kind", "result"]
    list_filter = ["kind", "result"]
