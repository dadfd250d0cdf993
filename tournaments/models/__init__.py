"""Clubs, players, tournaments with their settings, registrations, rounds and their games,
bye requests, penalties, the audit trail and pairing jobs; one module per topic."""

from tournaments.models.audit import AuditEntry, SiteAudit
from tournaments.models.events import ByeRequest, ForbiddenPair, Registration, Round, Tournament
from tournaments.models.games import Colour, Game, colour_other
from tournaments.models.jobs import PairingJob
from tournaments.models.penalties import Penalty
from tournaments.models.people import Club, Player

__all__ = [
    "Club",
    "Player",
    "Tournament",
    "Registration",
    "Round",
    "ByeRequest",
    "ForbiddenPair",
    "Colour",
    "colour_other",
    "Game",
    "Penalty",
    "AuditEntry",
    "SiteAudit",
    "PairingJob",
]
