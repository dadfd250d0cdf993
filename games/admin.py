"""Django admin for games."""

from django.contrib import admin

from games.models import Game


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["round", "board", "first", "second", "kind", "result"]
    list_filter = ["kind", "result"]
