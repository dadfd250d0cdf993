"""Reads of the tournament: lists, rounds, standings and crosstables (cached by version)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Prefetch, Q, QuerySet

from games.models import Game
from tournaments.models import AuditEntry, Penalty, Player, Registration, Round, Tournament
from tournaments.scoring import OPPOSITE, Outcome, PenaltyEffect, ScoringSettings, game_points
from tournaments.standings import (
    CrossCell,
    Entrant,
    RoundResult,
    StandingRow,
    compute_standings,
    crosstable_rows,
)

FIRST_OUTCOME = {
    Game.Result.FIRST_WIN: Outcome.WIN,
    Game.Result.SECOND_WIN: Outcome.LOSS,
    Game.Result.DRAW: Outcome.DRAW,
    Game.Result.FIRST_FORFEIT_WIN: Outcome.FORFEIT_WIN,
    Game.Result.SECOND_FORFEIT_WIN: Outcome.FORFEIT_LOSS,
    Game.Result.DOUBLE_FORFEIT: Outcome.DOUBLE_FORFEIT,
}


def tournament_list() -> QuerySet[Tournament]:
    return Tournament.objects.all()


def tournament_list_officiated(*, user: Any) -> QuerySet[Tournament]:
    """The tournaments a user organizes or arbitrates (every one for staff), each with
    `round_count`, the rounds stored so far, counted in the same query."""
    tournaments = Tournament.objects.all()
    if not user.is_staff:
        tournaments = tournaments.filter(
            Q(organizer=user) | Q(chief_arbiter=user) | Q(arbiters=user)
        ).distinct()
    # distinct: the join with the arbiters would count each round once per arbiter.
    return tournaments.annotate(round_count=Count("rounds", distinct=True))


def tournament_get(*, slug: str) -> Tournament:
    return Tournament.objects.get(slug=slug)


def scoring_settings(*, tournament: Tournament) -> ScoringSettings:
    return ScoringSettings(
        forfeit_win=float(tournament.forfeit_win_points),
        forfeit_loss=float(tournament.forfeit_loss_points),
        bye=float(tournament.bye_points),
        requested_bye=float(tournament.requested_bye_points),
    )


def round_list(*, tournament: Tournament, drafts: bool = False) -> QuerySet[Round]:
    """The rounds with their games; proposed rounds only for the arbiters (`drafts`)."""
    games = Game.objects.select_related("first", "second").order_by("board")
    rounds = tournament.rounds.prefetch_related(Prefetch("games", queryset=games))
    return rounds if drafts else rounds.exclude(status=Round.Status.DRAFT)


def round_results(*, tournament: Tournament) -> tuple[list[RoundResult], int]:
    """Every player's result per round, and the number of completed rounds."""
    settings = scoring_settings(tournament=tournament)
    results: list[RoundResult] = []
    completed = 0
    pending_rounds: set[int] = set()
    rows = (
        Game.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list(
            "id", "round__number", "kind", "first_id", "second_id", "result", "result_confirmed_at"
        )
    )
    effects = penalty_effects(tournament=tournament)
    numbers = set()
    two_person = tournament.result_confirmation
    for game_id, number, kind, first, second, result, confirmed_at in rows:
        numbers.add(number)
        if two_person and confirmed_at is None:
            result = ""
        if kind == Game.Kind.BYE:
            results.append(RoundResult(number, first, None, Outcome.BYE, settings.bye))
            continue
        if kind == Game.Kind.REQUESTED_BYE:
            results.append(
                RoundResult(number, first, None, Outcome.REQUESTED_BYE, settings.requested_bye)
            )
            continue
        if not result:
            pending_rounds.add(number)
            continue
        out = FIRST_OUTCOME[Game.Result(result)]
        back = OPPOSITE[out]
        mine, theirs = effects.get((game_id, first), ()), effects.get((game_id, second), ())
        out, p1 = game_points(out, settings, mine, theirs)
        back, p2 = game_points(back, settings, theirs, mine)
        results.append(RoundResult(number, first, second, out, p1, True))
        results.append(RoundResult(number, second, first, back, p2, False))
    for n in sorted(numbers):
        if n in pending_rounds:
            break
        completed = n
    return results, completed


def entrants(*, tournament: Tournament) -> list[Entrant]:
    regs = Registration.objects.filter(tournament=tournament).select_related("player__club")
    return [
        Entrant(
            r.player_id, r.player.name, r.player.rating, r.player.club.name if r.player.club else ""
        )
        for r in regs
    ]


def standings_compute(*, tournament: Tournament) -> list[StandingRow]:
    """The standings, cached until a result, registration or setting changes."""
    version = (
        Tournament.objects.filter(pk=tournament.pk)
        .values_list("standings_version", flat=True)
        .first()
    )
    key = f"kz:standings:{tournament.pk}:{version}"
    rows: list[StandingRow] | None = cache.get(key)
    if rows is None:
        results, completed = round_results(tournament=tournament)
        rounds_played = max((r.round for r in results), default=0)
        rows = compute_standings(
            entrants(tournament=tournament),
            results,
            tiebreaks=tournament.tiebreak_list,
            rounds_completed=max(completed, rounds_played),
        )
        cache.set(key, rows, 24 * 3600)
    return rows


@dataclass(frozen=True, slots=True)
class Crosstable:
    rows: Sequence[StandingRow]
    cells: Sequence[Sequence[CrossCell]]
    rounds: int
    tiebreaks: Sequence[str]


def crosstable_get(*, tournament: Tournament) -> Crosstable:
    rows = standings_compute(tournament=tournament)
    n = tournament.rounds.exclude(status=Round.Status.DRAFT).count()
    return Crosstable(rows, crosstable_rows(rows, n), n, tournament.tiebreak_list)


def player_games(*, player: Player) -> QuerySet[Game]:
    from django.db.models import Q

    return (
        Game.objects.filter(Q(first=player) | Q(second=player))
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round__tournament", "first", "second")
        .order_by("-round__tournament__start_date", "round__number")
    )


def crosstable_json(*, tournament: Tournament) -> dict[str, Any]:
    table = crosstable_get(tournament=tournament)
    return {
        "tournament": tournament.slug,
        "rounds": table.rounds,
        "tiebreaks": list(table.tiebreaks),
        "rows": [
            {
                "rank": row.rank,
                "name": row.entrant.name,
                "club": row.entrant.club,
                "rating": row.entrant.rating,
                "rounds": [
                    {
                        "opponent_rank": c.opponent_rank,
                        "placed_first": c.placed_first,
                        "result": c.symbol,
                    }
                    for c in cells
                ],
                "score": row.score,
                "tiebreaks": {tb: row.tiebreaks[tb] for tb in table.tiebreaks},
            }
            for row, cells in zip(table.rows, table.cells, strict=True)
        ],
    }


def tournament_trf(*, tournament: Tournament, shift: bool = False) -> str:
    """The tournament as a TRF file (points with its own scoring, or shifted)."""
    from tournaments.trf import TrfGame, TrfPlayer, TrfTournament, write_trf

    regs = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("start_rank", "id")
    )
    rank_of_player = {}
    for i, reg in enumerate(regs, start=1):
        rank_of_player[reg.player_id] = reg.start_rank or i
    rows = {row.entrant.id: row for row in standings_compute(tournament=tournament)}
    codes = {
        Outcome.WIN: "1",
        Outcome.LOSS: "0",
        Outcome.DRAW: "=",
        Outcome.FORFEIT_WIN: "+",
        Outcome.FORFEIT_LOSS: "-",
        Outcome.DOUBLE_FORFEIT: "-",
        Outcome.BYE: "U",
        Outcome.REQUESTED_BYE: "Z",
        Outcome.ABSENT: "Z",
    }
    players = []
    for reg in regs:
        row = rows.get(reg.player_id)
        games = []
        if row is not None:
            for rnd, r in sorted(row.rounds.items()):
                colour = "-" if r.placed_first is None else ("w" if r.placed_first else "b")
                opp = rank_of_player.get(r.opponent) if r.opponent is not None else None
                games.append(TrfGame(rnd, opp, colour if opp else "-", codes[r.outcome]))
        players.append(
            TrfPlayer(
                start_rank=rank_of_player[reg.player_id],
                name=reg.player.name,
                rating=reg.player.rating,
                federation=reg.player.federation,
                points=row.score if row else 0.0,
                rank=row.rank if row else 0,
                games=games,
            )
        )
    trf = TrfTournament(
        name=tournament.name,
        city=tournament.venue,
        start_date=tournament.start_date.strftime("%Y/%m/%d"),
        end_date=tournament.end_date.strftime("%Y/%m/%d") if tournament.end_date else "",
        rounds=tournament.rounds_planned,
        tournament_type=tournament.get_pairing_system_display(),
        players=players,
    )
    return write_trf(trf, shift=shift)


def penalty_effects(*, tournament: Tournament) -> dict[tuple[int, int], tuple[PenaltyEffect, ...]]:
    """Per (game, player), the effects of penalties in force on that player's points."""
    from tournaments.models import Penalty

    revoked = set(
        Penalty.objects.filter(tournament=tournament, kind=Penalty.Kind.REVOCATION).values_list(
            "revokes_id", flat=True
        )
    )
    out: dict[tuple[int, int], list[PenaltyEffect]] = {}
    for p in Penalty.objects.filter(
        tournament=tournament,
        game__isnull=False,
        kind__in=["battle_lost", "reduce_points", "raise_opponent"],
    ).select_related("game"):
        if p.pk in revoked:
            continue
        game = p.game
        if p.kind == "raise_opponent":
            target = game.second_id if p.player_id == game.first_id else game.first_id
            effect = PenaltyEffect(raise_to_max=True)
        elif p.kind == "battle_lost":
            target, effect = p.player_id, PenaltyEffect(declared_lost=True)
        else:
            target, effect = p.player_id, PenaltyEffect(reduce_by=float(p.amount or 0))
        out.setdefault((game.pk, target), []).append(effect)
    return {k: tuple(v) for k, v in out.items()}


def penalty_list(*, tournament: Tournament, user: Any) -> QuerySet[Penalty]:
    """Every penalty for the arbiters; a player's own for a player; none for the public."""
    from tournaments.roles import user_can_arbitrate, user_player

    rows = Penalty.objects.filter(tournament=tournament).select_related(
        "player", "game__round", "arbiter", "revokes"
    )
    if user_can_arbitrate(user=user, tournament=tournament):
        return rows
    player = user_player(user)
    if player is None:
        return rows.none()
    return rows.filter(player=player)


def audit_for_player(*, tournament: Tournament, player_id: int) -> QuerySet[AuditEntry]:
    """The audit entries about one player: their registration, account, games, penalties."""
    from django.db.models import Q

    games = Game.objects.filter(round__tournament=tournament).filter(
        Q(first_id=player_id) | Q(second_id=player_id)
    )
    regs = Registration.objects.filter(tournament=tournament, player_id=player_id)
    penalties = Penalty.objects.filter(tournament=tournament, player_id=player_id)
    ids = {
        "Game": [str(pk) for pk in games.values_list("pk", flat=True)],
        "Registration": [str(pk) for pk in regs.values_list("pk", flat=True)],
        "Penalty": [str(pk) for pk in penalties.values_list("pk", flat=True)],
        "Player": [str(player_id)],
    }
    q = Q()
    for otype, oids in ids.items():
        q |= Q(object_type=otype, object_id__in=oids)
    return tournament.audit.filter(q)


@dataclass(frozen=True)
class ConsoleRow:
    """One game of a round as the arbiter's console shows it."""

    game: Game
    record: Any  # the latest RecordSubmission or None
    signatures: tuple[str, ...]
    penalties: tuple[Penalty, ...]
    proposed: str | None
    awaiting_confirmation: bool


def console_rows(*, round: Round) -> list[ConsoleRow]:
    """Every game of a round with its latest record, verdict, signatures and penalties, in
    a fixed number of queries whatever the round's size."""
    from games.models import RecordSubmission
    from games.services import proposed_result

    subs = RecordSubmission.objects.defer("raw").prefetch_related("signatures")
    games = (
        round.games.select_related("first", "second", "result_entered_by")
        .prefetch_related(
            Prefetch("submissions", queryset=subs.order_by("-version", "-id")),
            Prefetch("penalties", queryset=Penalty.objects.order_by("created_at", "id")),
        )
        .order_by("board")
    )
    two_person = round.tournament.result_confirmation
    rows = []
    for g in games:
        record = next(iter(g.submissions.all()), None)
        proposed = None
        if record is not None and record.valid:
            proposed = proposed_result(submission=record, first_placement=g.first_color or "green")
        rows.append(
            ConsoleRow(
                game=g,
                record=record,
                signatures=tuple(s.role for s in record.signatures.all()) if record else (),
                penalties=tuple(g.penalties.all()),
                proposed=proposed,
                awaiting_confirmation=bool(
                    two_person and g.result and g.result_confirmed_at is None
                ),
            )
        )
    return rows


def player_penalties(*, player: Player, user: Any) -> list[Penalty]:
    """A player's penalties, for the player themselves and the arbiters of the tournaments
    they were given in; nobody else sees them."""
    from tournaments.roles import user_can_arbitrate

    if not getattr(user, "is_authenticated", False):
        return []
    rows = list(
        Penalty.objects.filter(player=player)
        .select_related("tournament", "game__round")
        .order_by("created_at", "id")
    )
    if player.user_id == user.pk:
        return rows
    allowed = {
        t.pk for t in {p.tournament for p in rows} if user_can_arbitrate(user=user, tournament=t)
    }
    return [p for p in rows if p.tournament_id in allowed]


def pairing_job_state(*, job: Any) -> dict[str, Any]:
    """A pairing job's status for the arbiter's page: the row, with the live progress the
    worker keeps in the cache while it runs."""
    from tournaments.services import pairing_progress_key

    progress, message = job.progress, job.message
    if job.status == job.Status.RUNNING:
        live = cache.get(pairing_progress_key(job.pk))
        if live is not None:
            progress, message = live
    return {
        "id": job.pk,
        "round": job.round_number,
        "status": job.status,
        "progress": round(progress * 100),
        "message": message,
    }
