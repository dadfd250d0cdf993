"""Public pages of tournaments."""

from django.urls import path

from tournaments import rating_views, views

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
    path("p/<int:pk>/", views.player_detail, name="player"),
    path("ratings/", rating_views.ratings_index, name="ratings"),
    path("ratings/<slug:pool>/", rating_views.rating_list, name="rating-list"),
    path("ratings/<slug:pool>.csv", rating_views.rating_list_csv, name="rating-list-csv"),
    path("ratings/<slug:pool>.json", rating_views.rating_list_json, name="rating-list-json"),
]
