"""API routes: the resources with every action the apps give them."""

from rest_framework.routers import DefaultRouter

from games.api.views import GameViewSet, RecordViewSet, SigningKeyViewSet, TournamentViewSet
from tournaments.api.check_in import CheckInViewSet
from tournaments.api.players import ClubViewSet, PlayerViewSet
from tournaments.api.ratings import RatingViewSet
from tournaments.api.series import SeriesViewSet

router = DefaultRouter()
router.register("tournaments", TournamentViewSet)
router.register("players", PlayerViewSet)
router.register("clubs", ClubViewSet)
router.register("check-in", CheckInViewSet, basename="check-in")
router.register("ratings", RatingViewSet, basename="rating")
router.register("series", SeriesViewSet)
router.register("games", GameViewSet)
router.register("records", RecordViewSet)
router.register("signing-keys", SigningKeyViewSet, basename="signing-key")
urlpatterns = router.urls
