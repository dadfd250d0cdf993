"""API routes."""

from rest_framework.routers import DefaultRouter

from games.api import RecordViewSet
from tournaments import api

router = DefaultRouter()
router.register("tournaments", api.TournamentViewSet)
router.register("players", api.PlayerViewSet)
router.register("clubs", api.ClubViewSet)
router.register("games", api.GameViewSet)
router.register("records", RecordViewSet)
urlpatterns = router.urls
