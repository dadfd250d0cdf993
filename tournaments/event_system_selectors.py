"""Reads for the round robin's whole schedule and the knockout's bracket on the public pages."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch
from django.utils.translation import gettext

from tournaments.models import Game, Player, Registration, Round, RoundPlan, Tournament
from tournaments.page_selectors import game_marks
from tournaments.pairing import BracketTie, berger_round, knockout_rounds, knockout_stages
from tournaments.scoring import PenaltyEffect
from tournaments.selectors import (
    declared_result,
    penalty_effects,
    round_robin_rounds,
    round_robin_table,
    scoring_settings,
)

# Who a knockout game sends on: the first placer, the second, neither ("draw"), or nobody yet.
KNOCKOUT_OUTCOME = {
    Game.Result.FIRST_WIN: "first",
    Game.Result.FIRST_FORFEIT_WIN: "first",
    Game.Result.SECOND_WIN: "second",
    Game.Result.SECOND_FORFEIT_WIN: "second",
    Game.Result.DRAW: "draw",
    Game.Result.DOUBLE_FORFEIT: "draw",
    Game.Result.PENDING: "",
}


def knockout_outcome(
    game: Game, effects: dict[tuple[int, int | None], tuple[PenaltyEffect, ...]]
) -> str:
    """Who a knockout game sends on: the result, or a battle declared lost (Art. 12.4 d)."""
    assert game.second_id is not None
    declared = declared_result(
        effects.get((game.pk, game.first_id), ()), effects.get((game.pk, game.second_id), ())
    )
    return KNOCKOUT_OUTCOME[Game.Result(declared or game.result)]


@dataclass(frozen=True)
class ScheduledBoard:
    """One board of a round robin's round, paired or still to come: the two players' names
    (`second` blank for the free round) and the result's marks once there is one."""

    board: int
    first: str
    second: str
    marks: tuple[str, str] = ("", "")


@dataclass(frozen=True)
class ScheduledRound:
    """A round of the round robin's table: its number, scheduled start and place (once the
    arbiter set them), whether it is paired, and its boards."""

    number: int
    starts_at: datetime | None
    place: str
    paired: bool
    boards: tuple[ScheduledBoard, ...]


def round_robin_schedule(*, tournament: Tournament) -> list[ScheduledRound]:
    """Every round of a round robin's table, from the moment round 1 is published (the
    table is fixed then): the rounds played as stored, the rest as the Berger table will
    pair them with the start and place planned for them. Empty for other systems and
    before round 1."""
    if not tournament.is_round_robin:
        return []
    rounds = {
        r.number: r
        for r in tournament.rounds.exclude(status=Round.Status.DRAFT).prefetch_related(
            Prefetch("games", queryset=Game.objects.select_related("first", "second"))
        )
    }
    if 1 not in rounds:
        return []
    order = list(round_robin_table(tournament=tournament).values_list("player_id", flat=True))
    names = dict(Player.objects.filter(pk__in=order).values_list("pk", "name"))
    settings = scoring_settings(tournament=tournament)
    effects = penalty_effects(tournament=tournament)
    plans = {p.number: p for p in RoundPlan.objects.filter(tournament=tournament)}
    schedule = []
    for number in range(1, round_robin_rounds(tournament=tournament) + 1):
        rnd = rounds.get(number)
        if rnd is None:
            plan = plans.get(number) or RoundPlan(number=number)
            boards = tuple(
                ScheduledBoard(
                    board, names.get(order[a - 1], ""), names.get(order[b - 1], "") if b else ""
                )
                for board, (a, b) in enumerate(berger_round(len(order), number), start=1)
            )
            schedule.append(ScheduledRound(number, plan.starts_at, plan.place, False, boards))
            continue
        stored = []
        for g in sorted(rnd.games.all(), key=lambda g: g.board):
            marks: tuple[str, str] = ("", "")
            if g.kind == Game.Kind.GAME and g.second is not None:
                marks, _ = game_marks(
                    game=g, tournament=tournament, settings=settings, effects=effects
                )
            second = g.second.name if g.second is not None else ""
            stored.append(ScheduledBoard(g.board, g.first.name, second, marks))
        schedule.append(ScheduledRound(number, rnd.starts_at, rnd.place, True, tuple(stored)))
    return schedule


@dataclass(frozen=True)
class BracketSide:
    """One player of a bracket's tie: name, seed (start rank), the tie's points shown game
    by game, and whether they went on."""

    name: str
    seed: int | None
    results: tuple[str, ...]
    won: bool


@dataclass(frozen=True)
class BracketStage:
    """One column of the bracket: its number (1 = the first stage), how many stages the
    bracket has, and its ties as pairs of sides (None: a bye or a place still to be
    decided)."""

    number: int
    stages: int
    ties: tuple[tuple[BracketSide | None, BracketSide | None], ...]
    played: bool


def knockout_decided(*, tournament: Tournament) -> bool:
    """Whether a knockout has its champion (its last stage one decided tie, or nobody left)."""
    stages = knockout_stages(_knockout_rounds_read(tournament))
    return bool(stages) and len(stages[-1]) == 1 and stages[-1][0].winner is not None


def _knockout_rounds_read(tournament: Tournament) -> list[list[tuple[int, int | None, str]]]:
    """The knockout's published rounds as knockout_stages reads them."""
    effects = penalty_effects(tournament=tournament)
    rounds = []
    for rnd in tournament.rounds.exclude(status=Round.Status.DRAFT).prefetch_related(
        Prefetch("games", queryset=Game.objects.order_by("board"))
    ):
        games = [g for g in rnd.games.all() if g.kind != Game.Kind.REQUESTED_BYE]
        rounds.append(
            [
                (g.first_id, g.second_id, knockout_outcome(g, effects) if g.second_id else "")
                for g in games
            ]
        )
    return rounds


def knockout_bracket_stages(*, tournament: Tournament) -> list[BracketStage]:
    """The knockout's bracket: the stages played (replays folded into their stage) and the
    stages still to come as empty places, up to the final."""
    if tournament.pairing_system != Tournament.PairingSystem.KNOCKOUT:
        return []
    stages = knockout_stages(_knockout_rounds_read(tournament))
    if not stages:
        return []
    regs = {
        r.player_id: (r.player.name, r.start_rank)
        for r in Registration.objects.filter(tournament=tournament).select_related("player")
    }
    total = max(len(stages), knockout_rounds(2 * len(stages[0])))
    out = [
        BracketStage(n, total, tuple(_tie_sides(t, regs) for t in stage), True)
        for n, stage in enumerate(stages, start=1)
    ]
    places = len(stages[-1])
    for n in range(len(stages) + 1, total + 1):
        places = (places + 1) // 2
        out.append(BracketStage(n, total, tuple((None, None) for _ in range(places)), False))
    return out


def _tie_sides(
    tie: BracketTie, regs: dict[int, tuple[str, int | None]]
) -> tuple[BracketSide | None, BracketSide | None]:
    """Both sides of a tie with each one's point per game (1, 0, ½ for a tie's draw)."""

    def side(pid: int) -> BracketSide:
        name, seed = regs.get(pid, ("", None))
        marks = []
        for first, _second, outcome in tie.games:
            if outcome == "draw":
                marks.append("=")
            elif outcome:
                marks.append("1" if (outcome == "first") == (first == pid) else "0")
        return BracketSide(name, seed, tuple(marks), tie.winner == pid)

    return side(tie.first), side(tie.second) if tie.second is not None else None


def knockout_rounds_warning(*, players: int, planned: int, wanted: int) -> str:
    """What the arbiter reads when a knockout's rounds set do not fit its field."""
    return gettext(
        "a knockout of %(players)s players takes %(wanted)s rounds, not the %(planned)s set: "
        "the event now has %(wanted)s (a replay of an undecided tie adds one)"
    ) % {"players": players, "wanted": wanted, "planned": planned}


def knockout_rounds_check(*, tournament: Tournament) -> str:
    """Before round 1 of a knockout: a warning when the rounds set do not fit the field
    entered so far (round 1's pairing will set them), else ""."""
    if tournament.pairing_system != Tournament.PairingSystem.KNOCKOUT or tournament.rounds.exists():
        return ""
    players = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.ACTIVE
    ).count()
    wanted = knockout_rounds(players)
    if wanted < 1 or wanted == tournament.rounds_planned:
        return ""
    return gettext(
        "a knockout of %(players)s players takes %(wanted)s rounds, not the %(planned)s set: "
        "pairing round 1 sets them to %(wanted)s"
    ) % {"players": players, "wanted": wanted, "planned": tournament.rounds_planned}
