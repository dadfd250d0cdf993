"""The rules engine's error types; every one is a ValueError."""

from __future__ import annotations

from rules.messages import message, message_code


class RulesError(ValueError):
    """Base of every error the rules engine raises on bad input; `code` and `params` name
    its catalogued message (rules/messages.py), None and {} for an uncatalogued one."""

    code: str | None = None
    params: dict[str, str] = {}  # noqa: RUF012 - replaced, never mutated

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        first = args[0] if args else None
        if isinstance(first, str):
            self.code, self.params = message_code(first)


class IllegalMoveError(RulesError):
    """A move that breaks a rule, with the rule and the Article it breaks."""

    def __init__(self, reason: str, article: str | None = None) -> None:
        super().__init__(f"{reason} (Art. {article})" if article else reason)
        self.code, self.params = message_code(reason)
        self.reason = reason
        self.article = article

    @classmethod
    def coded(cls, code: str, article: str | None, /, **params: object) -> IllegalMoveError:
        """The error for the catalogued message `code` and its parameters."""
        return cls(message(code, **params), article)


class NotationError(RulesError):
    """A ply or a square that cannot be read."""

    def __init__(self, reason: str, article: str | None = "Appendix C") -> None:
        super().__init__(reason)
        self.reason = reason
        self.article = article

    @classmethod
    def coded(cls, code: str, /, **params: object) -> NotationError:
        """The error for the catalogued message `code` and its parameters."""
        return cls(message(code, **params))


class RecordError(RulesError):
    """A record file that cannot be read as a record at all."""

    @classmethod
    def coded(cls, code: str, /, **params: object) -> RecordError:
        """The error for the catalogued message `code` and its parameters."""
        return cls(message(code, **params))


class PositionStringError(RulesError):
    """A position string that cannot be read."""
