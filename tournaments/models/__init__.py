"""Clubs, players, tournaments with their settings, registrations, rounds and their games,
bye requests, check-in, penalties, the audit trail, pairing jobs, ratings and series; one
module per topic."""

from tournaments.models.audit import AuditEntry, SiteAudit
from tournaments.models.check_in import EVENT_WINDOW, CheckIn, CheckInWindow
from tournaments.models.events import (
    ByeRequest,
    ForbiddenPair,
    RatingBasis,
    Registration,
    Round,
    RoundPlan,
    Tournament,
)
from tournaments.models.games import Colour, Game, colour_other
from tournaments.models.jobs import PairingJob
from tournaments.models.penalties import Penalty
from tournaments.models.people import Club, Player
from tournaments.models.ratings import (
    BattleRating,
    PeriodRating,
    PoolRating,
    RatedEventVersion,
    RatingPeriod,
    RatingPool,
)
from tournaments.models.series import Series, SeriesCategory, SeriesEvent

__all__ = [
    "Club",
    "Player",
    "Tournament",
    "Registration",
    "RatingBasis",
    "Round",
    "RoundPlan",
    "ByeRequest",
    "ForbiddenPair",
    "CheckIn",
    "CheckInWindow",
    "EVENT_WINDOW",
    "Colour",
    "colour_other",
    "Game",
    "Penalty",
    "AuditEntry",
    "SiteAudit",
    "PairingJob",
    "RatingPool",
    "RatingPeriod",
    "RatedEventVersion",
    "PoolRating",
    "PeriodRating",
    "BattleRating",
    "Series",
    "SeriesEvent",
    "SeriesCategory",
]
