"""Pages of games."""

from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("g/<int:pk>/", views.game_detail, name="detail"),
    path("g/<int:pk>/submit/", views.game_submit, name="submit"),
    path("g/<int:pk>/status.json", views.game_status, name="status"),
    path("g/<int:pk>/board.svg", views.game_board, name="board"),
    path("g/<int:pk>/canonical.txt", views.game_canonical, name="canonical"),
    path("g/<int:pk>/sign/", views.game_sign, name="sign"),
    path("g/<int:pk>/confirm/", views.game_confirm, name="confirm"),
    path("g/<int:pk>/clock/", views.game_clock, name="clock"),
    path("g/<int:pk>/latecomers/", views.game_latecomers, name="latecomers"),
    path("keys/", views.key_register, name="keys"),
]
