"""Public pages of tournaments."""

from django.urls import path

from tournaments import (
    calendar_views,
    check_in_views,
    club_views,
    live_page_views,
    rating_views,
    series_views,
    views,
)

app_name = "tournaments"
urlpatterns = [
    path("", views.home, name="home"),
    path("t/<slug:slug>/", views.tournament_detail, name="detail"),
    path("t/<slug:slug>/round/<int:number>/", views.round_detail, name="round"),
    path("t/<slug:slug>/standings/", views.standings, name="standings"),
    path("t/<slug:slug>/crosstable/", views.crosstable, name="crosstable"),
    path("t/<slug:slug>/bracket/", views.bracket, name="bracket"),
    path("t/<slug:slug>/crosstable.csv", views.crosstable_csv, name="crosstable-csv"),
    path("t/<slug:slug>/crosstable.json", views.crosstable_json, name="crosstable-json"),
    path("t/<slug:slug>/check-in/", check_in_views.check_in_signed_in, name="check-in-mine"),
    path("check-in/<str:token>/", check_in_views.check_in_by_link, name="check-in"),
    path("t/<slug:slug>/live/", live_page_views.live_version, name="live"),
    path("t/<slug:slug>/display/", views.display, name="display"),
    path("t/<slug:slug>/calendar.ics", calendar_views.event_calendar, name="calendar"),
    path("p/<int:pk>/", views.player_detail, name="player"),
    path("p/<int:pk>/calendar.ics", calendar_views.player_calendar, name="player-calendar"),
    path("ratings/", rating_views.ratings_index, name="ratings"),
    path("ratings/<slug:pool>/", rating_views.rating_list, name="rating-list"),
    path("ratings/<slug:pool>.csv", rating_views.rating_list_csv, name="rating-list-csv"),
    path("ratings/<slug:pool>.json", rating_views.rating_list_json, name="rating-list-json"),
    path("series/", series_views.series_list, name="series-list"),
    path("series/new/", series_views.series_new, name="series-new"),
    path("series/<slug:slug>/", series_views.series_detail, name="series"),
    path("series/<slug:slug>.csv", series_views.series_csv, name="series-csv"),
    path("series/<slug:slug>.json", series_views.series_json_page, name="series-json"),
    path(
        "series/<slug:slug>/accept/<slug:event>/",
        series_views.series_accept,
        name="series-accept",
    ),
    path(
        "series/<slug:slug>/decline/<slug:event>/",
        series_views.series_decline,
        name="series-decline",
    ),
    path(
        "series/<slug:slug>/remove/<slug:event>/",
        series_views.series_remove,
        name="series-remove",
    ),
    path("clubs/", club_views.club_list_page, name="club-list"),
    path("clubs/<int:pk>/", club_views.club_detail, name="club"),
    path("p/<int:pk>/edit/", club_views.player_edit, name="player-edit"),
]
