"""Reads of the tournament: lists, rounds, standings and crosstables (cached by version)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet

from klinzha_site.build import build_id
from klinzha_site.memo import ProcessMemo, transaction_open
from klinzha_site.single_flight import shared_make
from klinzha_site.user_types import AnyUser
from tournaments.audit import audit_head
from tournaments.models import (
    ByeRequest,
    Game,
    Penalty,
    Player,
    Registration,
    Round,
    Tournament,
)
from tournaments.pairing import spindle_summary
from tournaments.penalty_kinds import KINDS, Effect, penalty_kind
from tournaments.roles import user_can_arbitrate, user_player
from tournaments.scoring import OPPOSITE, Outcome, PenaltyEffect, ScoringSettings, game_points
from tournaments.standings import (
    CROSSTABLE_LEGEND,
    CrossCell,
    Entrant,
    RoundResult,
    StandingRow,
    compute_standings,
    crosstable_rows,
    standings_pack,
    standings_unpack,
    tiebreak_legend_json,
    tiebreaks_json,
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


def tournament_list_officiated(*, user: AnyUser) -> QuerySet[Tournament]:
    """The tournaments a user organizes or arbitrates (every one for staff, none for the
    anonymous), each with `round_count`, the rounds stored so far, counted in the same
    query."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    tournaments = Tournament.objects.all()
    if not user.is_staff:
        tournaments = tournaments.filter(
            Q(organizer=user) | Q(chief_arbiter=user) | Q(arbiters=user)
        ).distinct()
    # distinct: the join with the arbiters would count each round once per arbiter.
    return tournaments.annotate(round_count=Count("rounds", distinct=True))


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
    """Every player's result per round, and the number of completed rounds: penalties
    applied (marked), byes with their own points, the round robin's free round as the
    tournament scores it, late entrants' missed rounds, and the results of a round robin
    player who withdrew before half of their games kept but not counted."""
    settings = scoring_settings(tournament=tournament)
    points_of = {outcome: settings.points(outcome) for outcome in Outcome}
    results: list[RoundResult] = []
    append = results.append
    pending_rounds: set[int] = set()
    # Their default order less its constant part (the tournament's, a join and sort: half the time).
    played = (
        Game.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .order_by("round__number", "board")
    )
    two_person = tournament.result_confirmation
    if two_person:
        # A result awaiting its second person's confirmation does not count yet.
        games = played.filter(kind=Game.Kind.GAME).annotate(
            unconfirmed=Q(result_confirmed_at__isnull=True)
        )
        rows: Iterable[tuple[Any, ...]] = games.values_list(
            "id", "round__number", "first_id", "second_id", "result", "unconfirmed"
        )
    else:
        # Only the columns the scores need: a cold standings of 1,000 players × 11 rounds
        # reads 5,500 of these rows, and converting unused datetimes is most of its time.
        rows = (
            (*row, False)
            for row in played.filter(kind=Game.Kind.GAME).values_list(
                "id", "round__number", "first_id", "second_id", "result"
            )
        )
    effects = penalty_effects(tournament=tournament)
    numbers: set[int] = set()
    free_is_bye = tournament.free_round == Tournament.FreeRound.BYE
    for number, kind, first, own in played.exclude(kind=Game.Kind.GAME).values_list(
        "round__number", "kind", "first_id", "bye_points"
    ):
        numbers.add(number)
        outcome = _BYE_OUTCOME[kind]
        if kind == Game.Kind.FREE and free_is_bye:
            outcome = Outcome.BYE
        points = float(own) if own is not None else points_of[outcome]
        append(RoundResult(number, first, None, outcome, points))
    for game_id, number, first, second, result, unconfirmed in rows:
        numbers.add(number)
        if unconfirmed:
            result = ""
        if effects:
            mine, theirs = effects.get((game_id, first), ()), effects.get((game_id, second), ())
        else:
            mine = theirs = ()
        if not result:
            # A battle declared lost (Art. 12.4 d) decides a game still being played.
            result = declared_result(mine, theirs)
            if not result:
                pending_rounds.add(number)
                continue
        out = FIRST_OUTCOME[result]
        back = OPPOSITE[out]
        if mine or theirs:
            out, p1 = game_points(out, settings, mine, theirs)
            back, p2 = game_points(back, settings, theirs, mine)
            marked = True
        else:
            p1, p2, marked = points_of[out], points_of[back], False
        append(RoundResult(number, first, second, out, p1, True, True, marked))
        append(RoundResult(number, second, first, back, p2, False, True, marked))
    completed = 0
    for n in sorted(numbers):
        if n in pending_rounds:
            break
        completed = n
    results += _late_entry_rounds(tournament, settings, max(numbers, default=0))
    return _annulled(tournament, results), completed


# Per (game, player), the penalties in force on the player's points (penalty_effects).
PenaltyEffects = dict[tuple[int, int | None], tuple[PenaltyEffect, ...]]
_BYE_OUTCOME: dict[str, Outcome] = {
    Game.Kind.BYE: Outcome.BYE,
    Game.Kind.REQUESTED_BYE: Outcome.REQUESTED_BYE,
    Game.Kind.FREE: Outcome.ABSENT,
}


def game_result_counted(
    *, game: Game, tournament: Tournament | None = None, effects: PenaltyEffects | None = None
) -> tuple[str, bool]:
    """(the result that counts for the standings, whether a penalty of Art. 12.4 d, e, f
    marks it, shown with *): a battle declared lost decides the game, pending or not; a
    result awaiting its second person's confirmation does not count yet. A list of games
    passes its `tournament` and the tournament's `penalty_effects` once for all."""
    if game.kind != Game.Kind.GAME or game.second_id is None:
        return game.result, False
    tournament = tournament or game.round.tournament
    if effects is None:
        effects = penalty_effects(tournament=tournament, game=game)
    waits = tournament.result_confirmation and game.result_confirmed_at is None
    return battle_result_counted(
        (game.pk, game.first_id, game.second_id), game.result, waits, effects
    )


def battle_result_counted(
    battle: tuple[int, int, int], result: str, waiting: bool, effects: PenaltyEffects
) -> tuple[str, bool]:
    """game_result_counted on plain values (the ratings read thousands of battles at once)."""
    mine, theirs = effects.get((battle[0], battle[1]), ()), effects.get((battle[0], battle[2]), ())
    return declared_result(mine, theirs) or ("" if waiting else result), bool(mine or theirs)


def declared_result(mine: Sequence[PenaltyEffect], theirs: Sequence[PenaltyEffect]) -> str:
    """The result a battle declared lost (Art. 12.4 d) gives, for the first player's
    penalties `mine` and the second's `theirs`, or "" when none decides it."""
    if any(e.declared_lost for e in mine):
        return Game.Result.SECOND_WIN
    if any(e.declared_lost for e in theirs):
        return Game.Result.FIRST_WIN
    return ""


def _late_entry_rounds(
    tournament: Tournament, settings: ScoringSettings, last: int
) -> list[RoundResult]:
    """A late entrant's missed rounds, worth the tournament's late-entry points each."""
    points = float(tournament.late_entry_points)
    if not points:
        return []
    late = Registration.objects.filter(tournament=tournament, first_round__gt=1)
    return [
        RoundResult(rnd, pid, None, Outcome.REQUESTED_BYE, points)
        for pid, first_round in late.values_list("player_id", "first_round")
        for rnd in range(1, min(first_round, last + 1))
    ]


def round_robin_table(*, tournament: Tournament) -> QuerySet[Registration]:
    """The round robin's table: the field of round 1 by start rank (those who withdrew before
    round 1 left out); it never changes once round 1 is paired."""
    return (
        Registration.objects.filter(tournament=tournament, first_round=1)
        .exclude(~Q(status=Registration.Status.ACTIVE), last_round=0)
        .order_by("start_rank", "id")
    )


def round_robin_rounds(*, tournament: Tournament) -> int:
    """How many rounds the round robin's table has (an odd field sits out once a cycle)."""
    n = round_robin_table(tournament=tournament).count()
    legs = 2 if tournament.pairing_system == Tournament.PairingSystem.DOUBLE_ROUND_ROBIN else 1
    return (n - 1 if n % 2 == 0 else n) * legs


def _annulled(tournament: Tournament, results: list[RoundResult]) -> list[RoundResult]:
    """Round robin, withdrawal setting `annul_before_half`: the results of a player who
    withdrew (or was expelled) having played fewer than half of their scheduled games are
    kept but not counted, theirs and their opponents' against them."""
    if (
        tournament.pairing_system not in ROUND_ROBINS
        or tournament.withdrawal_results != Tournament.WithdrawalResults.ANNUL_BEFORE_HALF
    ):
        return results
    left = set(
        Registration.objects.filter(tournament=tournament)
        .exclude(status=Registration.Status.ACTIVE)
        .values_list("player_id", flat=True)
    )
    if not left:
        return results
    # Each of the table's players meets every other once (twice in a double round robin);
    # an odd table's free rounds are not games.
    field = round_robin_table(tournament=tournament).count()
    legs = 2 if tournament.pairing_system == Tournament.PairingSystem.DOUBLE_ROUND_ROBIN else 1
    games_each = (field - 1) * legs
    played: dict[int, int] = {}
    for r in results:
        if r.player in left and r.outcome.played:
            played[r.player] = played.get(r.player, 0) + 1
    annulled = {pid for pid in left if 2 * played.get(pid, 0) < games_each}
    return [
        r._replace(counted=False) if r.player in annulled or r.opponent in annulled else r
        for r in results
    ]


ROUND_ROBINS = (
    Tournament.PairingSystem.ROUND_ROBIN,
    Tournament.PairingSystem.DOUBLE_ROUND_ROBIN,
)


def entrant_list(*, tournament: Tournament) -> QuerySet[Registration]:
    """The entrants by start rank."""
    return (
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("start_rank", "id")
    )


def entrants(*, tournament: Tournament) -> list[Entrant]:
    """The players the standings show: everyone but those who withdrew (or were expelled)
    before they were in any round; those who left later carry the round they left after."""
    active = Registration.Status.ACTIVE
    regs = Registration.objects.filter(tournament=tournament).values_list(
        "player_id",
        "player__name",
        "rating",
        "player__club__name",
        "start_rank",
        "status",
        "last_round",
    )
    rows = list(regs)
    in_a_round: set[int] = set()
    if any(status != active for *_, status, _last in rows):
        # Only those who left need to be looked up: were they ever in a round?
        games = (
            Game.objects.filter(round__tournament=tournament)
            .exclude(round__status=Round.Status.DRAFT)
            .values_list("first_id", "second_id")
        )
        in_a_round = {pid for pair in games for pid in pair if pid is not None}
    return [
        Entrant(
            pid,
            name,
            rating,
            club or "",
            start_rank or 0,
            None if status == active else (last_round or 0),
        )
        for pid, name, rating, club, start_rank, status, last_round in rows
        if status == active or pid in in_a_round
    ]


def standings_compute(
    *, tournament: Tournament, after_round: int | None = None
) -> tuple[StandingRow, ...]:
    """The standings (after round `after_round` only: rounds 1 to it, as they stood then),
    kept until a result, registration or setting changes, here and shared (made once)."""
    stamp = (
        Tournament.objects.filter(pk=tournament.pk)
        .values_list("published_version", "created_at")
        .first()
    )
    key = (tournament.pk, stamp, after_round)
    rows = _standings_memo.get(key)
    if rows is not None:
        return rows
    if transaction_open() or stamp is None:
        return _standings_make(tournament=tournament, after_round=after_round)
    version = f"t{tournament.pk}:{stamp[1].isoformat()}:v{stamp[0]}:r{after_round or '-'}"
    rows = shared_make(
        key=f"kz:standings:{build_id()}:{version}",
        make=lambda: _standings_make(tournament=tournament, after_round=after_round),
        pack=standings_pack,
        unpack=standings_unpack,
        keep=600,  # every change makes a new key; a quiet event's are soon made again
        wait=1.0,  # they take tens of milliseconds
    )
    _standings_memo.put(key, rows)
    return rows


def _standings_make(*, tournament: Tournament, after_round: int | None) -> tuple[StandingRow, ...]:
    results, completed = round_results(tournament=tournament)
    if after_round is not None:
        results = [r for r in results if r.round <= after_round]
        completed = min(completed, after_round)
    done = max(completed, max((r.round for r in results), default=0))
    field, options = entrants(tournament=tournament), tournament.standings_options
    return tuple(compute_standings(field, results, rounds_completed=done, **options))


# This process's last standings (by tournament, version and creation time: a reused id finds
# no other event's; the round they stop after), shared by every caller and thread (frozen),
# never rows read in a transaction (it may roll back; the next change reuses its version).
_standings_memo: ProcessMemo[tuple[StandingRow, ...]] = ProcessMemo(size=16)


def standings_memo_clear() -> None:
    """Forget the standings this process computed (tests roll the database back under it)."""
    _standings_memo.clear()


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


def crosstable_json(*, tournament: Tournament) -> dict[str, Any]:
    table = crosstable_get(tournament=tournament)
    legend = tiebreak_legend_json(table.tiebreaks)
    return {
        "tournament": tournament.slug,
        "audit_head": audit_head(tournament=tournament),
        "rounds": table.rounds,
        "tiebreaks": list(legend),
        "tiebreak_legend": legend,
        "legend": dict(CROSSTABLE_LEGEND),
        "rows": [
            {
                "rank": row.rank,
                "player": row.entrant.id,
                "start_rank": row.entrant.start_rank,
                "name": row.entrant.name,
                "club": row.entrant.club,
                "rating": row.entrant.rating,
                "withdrawn_after_round": row.entrant.withdrawn_after,
                "rounds": [
                    {
                        "opponent_rank": c.opponent_rank,
                        "placed_first": c.placed_first,
                        "result": c.symbol,
                        "points": c.points if c.symbol else None,
                        "counted": c.counted,
                        "penalized": c.penalized,
                    }
                    for c in cells
                ],
                "score": row.score,
                "tiebreaks": tiebreaks_json(row, table.tiebreaks),
            }
            for row, cells in zip(table.rows, table.cells, strict=True)
        ],
    }


def penalty_effects(*, tournament: Tournament, game: Game | None = None) -> PenaltyEffects:
    """Per (game, player), the effects of penalties in force on that player's points (of one
    `game` only when given)."""
    revoked = Penalty.objects.filter(tournament=tournament, kind=Penalty.Kind.REVOCATION)
    on_result = [k.value for k in KINDS if k.on_result]
    rows = Penalty.objects.filter(tournament=tournament, game__isnull=False, kind__in=on_result)
    if game is not None:
        rows = rows.filter(game=game)
    out: dict[tuple[int, int | None], list[PenaltyEffect]] = {}
    for p in rows.exclude(pk__in=revoked.values("revokes_id")).select_related("game"):
        game = p.game
        assert game is not None  # `rows` holds the penalties given in a game only
        effect = penalty_kind(p.kind).effect
        if effect == Effect.RAISE_OPPONENT:
            target = game.second_id if p.player_id == game.first_id else game.first_id
            out.setdefault((game.pk, target), []).append(PenaltyEffect(raise_to_max=True))
        elif effect == Effect.BATTLE_LOST:
            out.setdefault((game.pk, p.player_id), []).append(PenaltyEffect(declared_lost=True))
        else:
            reduce_by = float(p.amount or 0)
            out.setdefault((game.pk, p.player_id), []).append(PenaltyEffect(reduce_by=reduce_by))
    return {k: tuple(v) for k, v in out.items()}


def expulsion_standing(*, tournament_id: int, player_id: int, besides: int = 0) -> Penalty | None:
    """An expulsion or dismissal (Art. 12.4 g, 11.1) of the player not revoked, other than
    penalty `besides`: while one stands only revoking it brings the player back."""
    kinds = [k.value for k in KINDS if k.effect == Effect.EXPULSION]
    rows = Penalty.objects.filter(tournament=tournament_id, player=player_id, kind__in=kinds)
    return rows.exclude(pk=besides).filter(revoked_by__isnull=True).order_by("pk").first()


def penalty_list(*, tournament: Tournament, user: AnyUser) -> QuerySet[Penalty]:
    """Every penalty for the arbiters; a player's own for a player; none for the public."""
    rows = Penalty.objects.filter(tournament=tournament).select_related(
        "player", "game__round", "arbiter", "revokes"
    )
    if user_can_arbitrate(user=user, tournament=tournament):
        return rows
    player = user_player(user)
    if player is None:
        return rows.none()
    return rows.filter(player=player)


def player_penalties(*, player: Player, user: AnyUser) -> list[Penalty]:
    """A player's penalties, for the player themselves and the arbiters of the tournaments
    they were given in; nobody else sees them."""
    if not user.is_authenticated:
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


def game_is_final(*, game: Game) -> bool:
    """Whether a knockout game is the final: its two players are the only ones not yet
    knocked out (a replay of an earlier tie is not the final)."""
    tournament = game.round.tournament
    if (
        tournament.pairing_system != tournament.PairingSystem.KNOCKOUT
        or game.kind != Game.Kind.GAME
        or game.second_id is None
    ):
        return False
    alive = set(
        tournament.registrations.filter(status="active").values_list("player_id", flat=True)
    )
    earlier = Game.objects.filter(
        round__tournament=tournament, round__number__lt=game.round.number, kind=Game.Kind.GAME
    ).exclude(result="")
    first_lost = {Game.Result.SECOND_WIN, Game.Result.SECOND_FORFEIT_WIN}
    second_lost = {Game.Result.FIRST_WIN, Game.Result.FIRST_FORFEIT_WIN}
    for g in earlier.only("first_id", "second_id", "result"):
        if g.result in first_lost or g.result == Game.Result.DOUBLE_FORFEIT:
            alive.discard(g.first_id)
        if g.result in second_lost or g.result == Game.Result.DOUBLE_FORFEIT:
            alive.discard(g.second_id)
    return alive == {game.first_id, game.second_id}


def game_spindle(game: Game) -> dict[str, Any] | None:
    """A battle's spindle cast and choice (Art. 2.3), or None when none was cast."""
    if not game.spindle_seed or game.spindle_caster_id is None or game.second_id is None:
        return None
    other = game.second_id if game.spindle_caster_id == game.first_id else game.first_id
    return spindle_summary(
        seed=game.spindle_seed,
        casters=(game.spindle_caster_id, other),
        chooser=game.spindle_chooser_id,
        placement=game.spindle_placement,
    )


def bye_request_list(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The requested byes, by round then start rank, with who asked."""
    rows = (
        ByeRequest.objects.filter(registration__tournament=tournament)
        .select_related("registration__player")
        .order_by("round_number", "registration__start_rank", "id")
    )
    return [
        {
            "player": b.registration.player_id,
            "name": b.registration.player.name,
            "start_rank": b.registration.start_rank,
            "round": b.round_number,
            "confirmed": b.confirmed,
        }
        for b in rows
    ]
