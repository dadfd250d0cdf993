"""Django admin for organizers."""

from django.contrib import admin

from tournaments.models import ByeRequest, Club, Game, Player, Registration, Round, Tournament


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "start_date", "pairing_system", "rounds_planned"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["arbiters"]
    inlines = [RegistrationInline]
    search_fields = ["name", "slug"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "federation", "rating"]
    search_fields = ["name"]
    list_filter = ["club"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "country"]
    search_fields = ["name"]


admin.site.register(Round)
admin.site.register(ByeRequest)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["round", "board", "first", "second", "kind", "result"]
    list_filter = ["kind", "result"]
