"""The kinds of penalty of Art. 11 and 12: the one table that the model, the services, the
standings, the clocks and the pages read."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class Effect(StrEnum):
    """What a penalty does once imposed (and undoes once revoked)."""

    RECORD_ONLY = "record_only"  # on record, nothing else changes
    OPPONENT_TIME = "opponent_time"  # the opponent's clock gains the amount
    OFFENDER_TIME = "offender_time"  # the offender's clock loses the amount
    EXTRA_TIME = "extra_time"  # the player's clock gains the amount
    BATTLE_LOST = "battle_lost"  # the battle counts as lost for the offender
    REDUCE_POINTS = "reduce_points"  # the offender's points in the battle drop by the amount
    RAISE_OPPONENT = "raise_opponent"  # the opponent's points in the battle rise to the maximum
    EXPULSION = "expulsion"  # the offender plays no later round


class Amount(StrEnum):
    NONE = ""
    SECONDS = "seconds"
    POINTS = "points"


@dataclass(frozen=True, slots=True)
class PenaltyKind:
    """One kind of penalty: the value stored, its Article, what it needs and what it does."""

    value: str
    name: str  # the model choice's name
    label: str | Promise
    article: str
    needs_game: bool
    amount: Amount
    chief_only: bool  # decided by the chief arbiter (or the organizer), not any arbiter
    effect: Effect

    @property
    def on_clock(self) -> bool:
        return self.effect in CLOCK_EFFECTS

    @property
    def on_result(self) -> bool:
        return self.effect in RESULT_EFFECTS

    def clock_change(self, seconds: int) -> tuple[bool, int]:
        """(whether the offender's own clock changes, the signed seconds) for a clock
        penalty of `seconds`."""
        if self.effect == Effect.OPPONENT_TIME:
            return False, seconds
        if self.effect == Effect.OFFENDER_TIME:
            return True, -seconds
        if self.effect == Effect.EXTRA_TIME:
            return True, seconds
        raise ValueError(f"{self.value} does not change a clock")


CLOCK_EFFECTS = frozenset({Effect.OPPONENT_TIME, Effect.OFFENDER_TIME, Effect.EXTRA_TIME})
RESULT_EFFECTS = frozenset({Effect.BATTLE_LOST, Effect.REDUCE_POINTS, Effect.RAISE_OPPONENT})

REVOCATION = "revocation"

KINDS: tuple[PenaltyKind, ...] = (
    PenaltyKind(
        "warning", "WARNING", _("a) Warning"), "12.4a", False, Amount.NONE, False,
        Effect.RECORD_ONLY,
    ),
    PenaltyKind(
        "opponent_time", "OPPONENT_TIME", _("b) More time for the opponent"), "12.4b", True,
        Amount.SECONDS, False, Effect.OPPONENT_TIME,
    ),
    PenaltyKind(
        "offender_time", "OFFENDER_TIME", _("c) Less time for the offender"), "12.4c", True,
        Amount.SECONDS, False, Effect.OFFENDER_TIME,
    ),
    PenaltyKind(
        "battle_lost", "BATTLE_LOST", _("d) Battle declared lost"), "12.4d", True, Amount.NONE,
        False, Effect.BATTLE_LOST,
    ),
    PenaltyKind(
        "reduce_points", "REDUCE_POINTS", _("e) Points in the battle reduced"), "12.4e", True,
        Amount.POINTS, False, Effect.REDUCE_POINTS,
    ),
    PenaltyKind(
        "raise_opponent", "RAISE_OPPONENT", _("f) Opponent's points raised to the maximum"),
        "12.4f", True, Amount.NONE, False, Effect.RAISE_OPPONENT,
    ),
    PenaltyKind(
        "expulsion", "EXPULSION", _("g) Expulsion"), "12.4g", False, Amount.NONE, True,
        Effect.EXPULSION,
    ),
    PenaltyKind(
        "extra_time", "EXTRA_TIME", _("12.5 Extra time for outside disturbance"), "12.5", True,
        Amount.SECONDS, False, Effect.EXTRA_TIME,
    ),
    PenaltyKind(
        "dismissal", "DISMISSAL", _("Art. 11 Dismissal from the site"), "11.1", False,
        Amount.NONE, True, Effect.EXPULSION,
    ),
)  # fmt: skip

# A revocation is an entry of its own that undoes the penalty it points at; it keeps that
# penalty's Article, so the generic "12.4" only shows where no penalty is known.
REVOCATION_LABEL = _("Revocation of a penalty")
REVOCATION_ARTICLE = "12.4"

BY_VALUE: dict[str, PenaltyKind] = {k.value: k for k in KINDS}

# The Articles of Art. 12 that change a clock, for the clock-adjustment forms.
CLOCK_ARTICLES: tuple[str, ...] = tuple(k.article for k in KINDS if k.on_clock)


def penalty_kind(value: str) -> PenaltyKind:
    """The kind stored as `value`; KeyError for a revocation or an unknown value."""
    return BY_VALUE[value]


def model_choices() -> list[tuple[str, tuple[str, str | Promise]]]:
    """(name, (value, label)) for the model's Kind choices: every kind, then revocation."""
    return [(k.name, (k.value, k.label)) for k in KINDS] + [
        ("REVOCATION", (REVOCATION, REVOCATION_LABEL))
    ]


def article_of(value: str) -> str:
    return BY_VALUE[value].article if value in BY_VALUE else REVOCATION_ARTICLE
