"""Pairing the next round with the tournament's system: Swiss, round robin (Berger) or
knockout (its progress read from the stored rounds)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch

from klinzha_site.errors import Conflict
from tournaments.models import Game, Round, Tournament
from tournaments.pairing import (
    berger_round,
    knockout_bracket,
    knockout_next_round,
    pair_swiss,
)
from tournaments.selectors import pairing_players
from tournaments.services.common import (
    next_round_number,
    pairing_preconditions_check,
    require_arbiter,
    tournament_lock,
)
from tournaments.services.rounds import round_create

Progress = Callable[[float, str], None]

KNOCKOUT_OUTCOME = {
    Game.Result.FIRST_WIN: "first",
    Game.Result.FIRST_FORFEIT_WIN: "first",
    Game.Result.SECOND_WIN: "second",
    Game.Result.SECOND_FORFEIT_WIN: "second",
    Game.Result.DRAW: "draw",
    Game.Result.DOUBLE_FORFEIT: "draw",
    Game.Result.PENDING: "",
}


@transaction.atomic
def round_pair(
    *,
    tournament: Tournament,
    user: Any = None,
    round_number: int | None = None,
    publish: bool = True,
    progress: Progress | None = None,
) -> Round:
    """Pair the next round with the tournament's system and store it. `progress`, if
    given, is called with (fraction done, what is being done) as the pairing goes."""
    require_arbiter(user, tournament)
    tournament_lock(tournament.pk)
    number = next_round_number(tournament)
    if round_number is not None and round_number != number:
        raise ValidationError({"round": f"the next round to pair is round {number}"})
    pairing_preconditions_check(tournament, number)
    players, requested = pairing_players(tournament=tournament, round_number=number)
    system = tournament.pairing_system
    explanation: list[str] = []
    warnings: list[str] = []
    pairs: list[tuple[int, int | None]] = []
    if system == Tournament.PairingSystem.SWISS:
        result = pair_swiss(
            players,
            balanced=tournament.placement_order == Tournament.PlacementOrder.BALANCED,
            round_number=number,
            forbid_same_club=tournament.forbid_same_club,
            accelerated=number <= tournament.accelerated_rounds,
            progress=progress,
        )
        if result.blocked:
            raise Conflict({"round": _swiss_blocked(result.blocked, tournament, number)})
        pairs = [(p.first, p.second) for p in result.pairings]
        if result.bye is not None:
            pairs.append((result.bye, None))
        explanation, warnings = result.explanation, result.warnings
    elif system in (
        Tournament.PairingSystem.ROUND_ROBIN,
        Tournament.PairingSystem.DOUBLE_ROUND_ROBIN,
    ):
        order = [p.id for p in sorted(players, key=lambda p: p.rank)]
        for a, b in berger_round(len(order), number):
            pairs.append((order[a - 1], order[b - 1] if b else None))
        explanation = [f"Berger table round {number} for {len(order)} players"]
    elif number == 1:
        seeds = [p.id for p in sorted(players, key=lambda p: p.rank)]
        pairs = list(knockout_bracket(seeds))
        explanation = ["knockout bracket by seeding; byes to the top seeds"]
    else:
        kind, pairs = _knockout_progress(tournament)
        if kind == "done":
            raise Conflict({"round": "the knockout is decided: no round is left"})
        explanation = [
            "replays of the undecided ties (placement swapped)"
            if kind == "replay"
            else "winners of neighbouring ties meet"
        ]
    rnd = round_create(
        tournament=tournament,
        pairings=pairs,
        requested_byes=requested,
        user=user,
        status=Round.Status.PUBLISHED if publish else Round.Status.DRAFT,
    )
    rnd.explanation = explanation
    rnd.warnings = warnings
    rnd.save(update_fields=["explanation", "warnings"])
    return rnd


def _swiss_blocked(reason: str, tournament: Tournament, number: int) -> str:
    """Why round `number` cannot be paired under the hard rules, and what the arbiter can do."""
    ways = [f"end the event after round {number - 1} (lower the number of rounds)"]
    if tournament.forbid_same_club:
        ways.insert(0, "let players of one club meet (turn off forbid same club)")
    return f"round {number} cannot be paired: {reason}; you can " + ", or ".join(ways)


def _knockout_progress(tournament: Tournament) -> tuple[str, list[tuple[int, int | None]]]:
    """Walk the knockout's stored rounds: each is either a new stage or the replays of the
    stage before; what comes next follows from the last one."""
    rounds = list(
        tournament.rounds.order_by("number").prefetch_related(
            Prefetch("games", queryset=Game.objects.order_by("board"))
        )
    )
    stage: list[tuple[int, int | None]] = []
    played: list[tuple[int, int, str]] = []
    for i, rnd in enumerate(rounds):
        games = [g for g in rnd.games.all() if g.kind != Game.Kind.REQUESTED_BYE]
        if i > 0:
            kind, _ = _knockout_step(stage, played, rnd.number - 1)
            if kind == "next":
                stage, played = [], []
        if not stage:
            stage = [(g.first_id, g.second_id) for g in games]
        played += [
            (g.first_id, g.second_id, KNOCKOUT_OUTCOME[Game.Result(g.result)])
            for g in games
            if g.second_id is not None
        ]
    return _knockout_step(stage, played, rounds[-1].number)


def _knockout_step(
    stage: list[tuple[int, int | None]], played: list[tuple[int, int, str]], number: int
) -> tuple[str, list[tuple[int, int | None]]]:
    try:
        return knockout_next_round(stage, played)
    except ValueError as exc:
        raise ValidationError({"round": f"round {number}: {exc}"}) from None
