"""Pages of games (those of an unpublished round: its arbiters only)."""

from django.urls import path

from games import live_views, views
from tournaments.permissions import game_visible

app_name = "games"
urlpatterns = [
    path("g/<int:pk>/", game_visible(views.game_detail), name="detail"),
    path("g/<int:pk>/submit/", game_visible(views.game_submit), name="submit"),
    path("g/<int:pk>/status.json", game_visible(views.game_status), name="status"),
    path("g/<int:pk>/board.svg", game_visible(views.game_board), name="board"),
    path("g/<int:pk>/live.svg", game_visible(live_views.game_live_board), name="live-board"),
    path("g/<int:pk>/canonical.txt", game_visible(views.game_canonical), name="canonical"),
    path("g/<int:pk>/sign/", game_visible(views.game_sign), name="sign"),
    path("g/<int:pk>/confirm/", game_visible(views.game_confirm), name="confirm"),
    path("g/<int:pk>/clock/", game_visible(views.game_clock), name="clock"),
    path(
        "g/<int:pk>/clock/<int:adj>/revoke/",
        game_visible(views.game_clock_revoke),
        name="clock-revoke",
    ),
    path("g/<int:pk>/latecomers/", game_visible(views.game_latecomers), name="latecomers"),
    path("keys/", views.key_register, name="keys"),
]
