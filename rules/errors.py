"""The rules engine's error types; every one is a ValueError."""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error the rules engine raises on bad input."""


class IllegalMoveError(RulesError):
    """A move that breaks a rule, with the rule and the Article it breaks."""

    def __init__(self, reason: str, article: str | None = None) -> None:
        super().__init__(f"{reason} (Art. {article})" if article else reason)
        self.reason = reason
        self.article = article


class NotationError(RulesError):
    """A ply or a square that cannot be read."""

    def __init__(self, reason: str, article: str | None = "Appendix C") -> None:
        super().__init__(reason)
        self.reason = reason
        self.article = article


class RecordError(RulesError):
    """A record file that cannot be read as a record at all."""


class PositionStringError(RulesError):
    """A position string that cannot be read."""
