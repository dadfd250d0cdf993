"""Pairing the next round with the tournament's system: Swiss, round robin (Berger) or
knockout (its progress read from the stored rounds)."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext

from klinzha_site.errors import Conflict
from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, audit_append
from tournaments.event_system_selectors import knockout_outcome, knockout_rounds_warning
from tournaments.models import Game, Registration, Round, Tournament
from tournaments.pairing import (
    berger_round,
    knockout_bracket,
    knockout_next_round,
    knockout_rounds,
    pair_swiss,
)
from tournaments.pairing_selectors import pairing_players
from tournaments.selectors import (
    ROUND_ROBINS,
    penalty_effects,
    round_robin_table,
)
from tournaments.services.common import (
    next_round_number,
    pairing_preconditions_check,
    pairing_warnings_from_above,
    require_arbiter,
    tournament_lock,
)
from tournaments.services.rounds import round_create
from tournaments.signals import round_published

Progress = Callable[[float, str], None]


@transaction.atomic
def round_pair(
    *,
    tournament: Tournament,
    user: AnyUser | None = None,
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
        raise ValidationError(
            {"round": gettext("the next round to pair is round %(number)s") % {"number": number}}
        )
    knockout_next = None
    extended: list[str] = []
    if tournament.pairing_system == Tournament.PairingSystem.KNOCKOUT and number > 1:
        knockout_next = _knockout_decided_check(tournament)
        if knockout_next is not None and number > tournament.rounds_planned:
            extended = _knockout_rounds_extend(tournament, user, number)
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
        # The table is the field of round 1 and never changes: a player who has left
        # keeps their place, and their games become the opponents' forfeit wins.
        order = list(round_robin_table(tournament=tournament).values_list("player_id", flat=True))
        for a, b in berger_round(len(order), number):
            pairs.append((order[a - 1], order[b - 1] if b else None))
        requested = []  # the table has no requested byes: a missed game is a forfeit
        explanation = [f"Berger table round {number} for {len(order)} players"]
    elif number == 1:
        seeds = [p.id for p in sorted(players, key=lambda p: p.rank)]
        pairs = list(knockout_bracket(seeds))
        explanation = ["knockout bracket by seeding; byes to the top seeds"]
        warnings = _knockout_rounds_fit(tournament, user, len(seeds))
    else:
        pairs, explanation = _knockout_later(tournament, number, knockout_next)
    rnd = round_create(
        tournament=tournament,
        pairings=pairs,
        requested_byes=requested,
        user=user,
        status=Round.Status.PUBLISHED if publish else Round.Status.DRAFT,
    )
    rnd.explanation = explanation
    rnd.warnings = [*warnings, *extended, *pairing_warnings_from_above(tournament)]
    rnd.save(update_fields=["explanation", "warnings"])
    if system != Tournament.PairingSystem.SWISS:
        _withdrawn_games_settle(rnd, user, free_rounds=system in ROUND_ROBINS)
    _published_announce(rnd, user, published=publish)
    return rnd


def _published_announce(rnd: Round, user: AnyUser | None, *, published: bool) -> None:
    """A round paired and published at once: the apps above hear of it as of one published
    later (games opens the battles of an event played online), its forfeits settled first."""
    if published:
        round_published.send(sender=Round, round=rnd, user=user)


def _knockout_later(
    tournament: Tournament,
    number: int,
    knockout_next: tuple[str, list[tuple[int, int | None]]] | None,
) -> tuple[list[tuple[int, int | None]], list[str]]:
    """A knockout's round after the first: the replays of its undecided ties or its next
    stage, with the explanation; refused once it is decided."""
    kind, pairs = knockout_next or _knockout_progress(tournament)
    if kind == "done":
        raise Conflict({"round": gettext("the knockout is decided: no round is left")})
    if not pairs:
        raise Conflict(
            {
                "round": gettext(
                    "the knockout is decided: every player still in it has left before round "
                    "%(number)s, so no round is left"
                )
                % {"number": number}
            }
        )
    explanation = [
        "replays of the undecided ties (placement swapped)"
        if kind == "replay"
        else "winners of neighbouring ties meet"
    ]
    return pairs, explanation


def _knockout_rounds_fit(tournament: Tournament, user: AnyUser | None, players: int) -> list[str]:
    """A knockout takes its number of rounds from its field, ceil(log2 n), as round 1 is
    paired: a number set otherwise is changed (audited), with a warning that says so."""
    wanted = knockout_rounds(players)
    if wanted < 1 or tournament.rounds_planned == wanted:
        return []
    before = tournament.rounds_planned
    _rounds_planned_set(tournament, user, wanted)
    return [knockout_rounds_warning(players=players, planned=before, wanted=wanted)]


def _knockout_rounds_extend(tournament: Tournament, user: AnyUser | None, number: int) -> list[str]:
    """A knockout not yet decided goes on past its rounds (a replay of an undecided tie, or
    a bracket set smaller than its field): the rounds become `number`, audited and told."""
    _rounds_planned_set(tournament, user, number)
    return [
        gettext("the knockout is not decided after %(before)s rounds: it now has %(number)s")
        % {"before": number - 1, "number": number}
    ]


def _rounds_planned_set(tournament: Tournament, user: AnyUser | None, rounds: int) -> None:
    before = tournament.rounds_planned
    tournament.rounds_planned = rounds
    tournament.save(update_fields=["rounds_planned"])
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.SETTINGS,
        obj=tournament,
        before={"rounds_planned": before},
        after={"rounds_planned": rounds},
    )


def _knockout_decided_check(
    tournament: Tournament,
) -> tuple[str, list[tuple[int, int | None]]] | None:
    """A decided knockout says so before any other refusal (more rounds would not help);
    otherwise the knockout's next step, read once for the pairing, or None while a result
    is pending (the preconditions then name the boards)."""
    try:
        progress = _knockout_progress(tournament)
    except ValidationError:
        return None
    if progress[0] == "done":
        raise Conflict({"round": gettext("the knockout is decided: no round is left")})
    return progress


def _withdrawn_games_settle(rnd: Round, user: AnyUser | None, *, free_rounds: bool) -> None:
    """In a fixed table or a bracket, a game against a player who has left is the other's
    forfeit win (a knockout walkover), and a round robin's sit-out is its free round."""
    left = set(
        Registration.objects.filter(tournament=rnd.tournament)
        .exclude(status=Registration.Status.ACTIVE)
        .values_list("player_id", flat=True)
    )
    for game in rnd.games.select_related("first", "second"):
        if game.kind == Game.Kind.BYE and free_rounds:
            if game.first_id in left:
                game.delete()  # nobody sits out a free round they left
            else:
                game.kind = Game.Kind.FREE
                game.save(update_fields=["kind"])
            continue
        if game.kind != Game.Kind.GAME or not {game.first_id, game.second_id} & left:
            continue
        if {game.first_id, game.second_id} <= left:
            result = Game.Result.DOUBLE_FORFEIT
        elif game.first_id in left:
            result = Game.Result.SECOND_FORFEIT_WIN
        else:
            result = Game.Result.FIRST_FORFEIT_WIN
        game.result = result
        game.result_entered_at = game.result_confirmed_at = timezone.now()
        game.save(update_fields=["result", "result_entered_at", "result_confirmed_at"])
        who = " and ".join(p.name for p in (game.first, game.second) if p and p.pk in left)
        audit_append(
            tournament=rnd.tournament,
            user=user,
            action=Action.RESULT,
            obj=game,
            before={"result": ""},
            after={
                "result": result,
                "reason": f"{who} withdrew: round {rnd.number} board {game.board} is a forfeit",
            },
        )


def _swiss_blocked(reason: str, tournament: Tournament, number: int) -> str:
    """Why round `number` cannot be paired under the hard rules, and what the arbiter can do."""
    ways = [f"end the event after round {number - 1} (lower the number of rounds)"]
    if tournament.forbid_same_club:
        ways.insert(0, "let players of one club meet (turn off forbid same club)")
    if tournament.forbidden_pairs.exists():
        ways.insert(0, "remove a forbidden pair")
    return f"round {number} cannot be paired: {reason}; you can " + ", or ".join(ways)


def _knockout_progress(tournament: Tournament) -> tuple[str, list[tuple[int, int | None]]]:
    """Walk the knockout's stored rounds: a round whose games are all ties of the current
    stage replays them; any other round starts a new stage. What comes next follows from
    the last stage, leaving out players who have left: a tie of two who have both left is
    not played and sends nobody on (FIDE's practice: both are eliminated)."""
    rounds = list(
        tournament.rounds.order_by("number").prefetch_related(
            Prefetch("games", queryset=Game.objects.order_by("board"))
        )
    )
    effects = penalty_effects(tournament=tournament)
    stage: list[tuple[int, int | None]] = []
    played: list[tuple[int, int, str]] = []
    for rnd in rounds:
        games = [g for g in rnd.games.all() if g.kind != Game.Kind.REQUESTED_BYE]
        ties = {frozenset(t) for t in stage}
        met = [frozenset((g.first_id, g.second_id)) for g in games if g.second_id is not None]
        if not stage or not met or not all(pair in ties for pair in met):
            stage, played = [(g.first_id, g.second_id) for g in games], []
        played += [
            (g.first_id, g.second_id, knockout_outcome(g, effects))
            for g in games
            if g.second_id is not None
        ]
    left = frozenset(
        Registration.objects.filter(tournament=tournament)
        .exclude(status=Registration.Status.ACTIVE)
        .values_list("player_id", flat=True)
    )
    return _knockout_step(stage, played, rounds[-1].number, left)


def _knockout_step(
    stage: list[tuple[int, int | None]],
    played: list[tuple[int, int, str]],
    number: int,
    left: frozenset[int],
) -> tuple[str, list[tuple[int, int | None]]]:
    try:
        return knockout_next_round(stage, played, left)
    except ValueError as exc:
        raise ValidationError(
            {"round": gettext("round %(number)s: %(exc)s") % {"number": number, "exc": exc}}
        ) from None
