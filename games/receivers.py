"""The games app's answers to what the tournaments app below it announces."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.disagreement_selectors import disagreement_warnings
from games.services import penalty_clock_effect_apply
from games.services.live_rounds import live_round_open, live_round_take_back
from klinzha_site.user_types import AnyUser
from tournaments.models import Penalty, Round, Tournament
from tournaments.signals import (
    pairing_warnings_wanted,
    penalty_clock_effect,
    round_published,
    round_unpublishing,
)


@receiver(penalty_clock_effect, sender=Penalty, dispatch_uid="games.penalty_clock_effect")
def _penalty_clock_effect(
    *, penalty: Penalty, sign: int, user: AnyUser | None, from_ply: int | None = None, **_: Any
) -> None:
    penalty_clock_effect_apply(penalty=penalty, sign=sign, user=user, from_ply=from_ply)


@receiver(pairing_warnings_wanted, sender=Tournament, dispatch_uid="games.pairing_warnings")
def _pairing_warnings(*, tournament: Tournament, **_: Any) -> list[str]:
    return disagreement_warnings(tournament=tournament)


@receiver(round_published, sender=Round, dispatch_uid="games.round_published")
def _round_published(*, round: Round, **_: Any) -> None:
    live_round_open(round=round)


@receiver(round_unpublishing, sender=Round, dispatch_uid="games.round_unpublishing")
def _round_unpublishing(*, round: Round, **_: Any) -> None:
    live_round_take_back(round=round)
