"""Results of games: entering or correcting one, a round's at once, and the second person's
confirmation."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from klinzha_site.errors import RowsRefused
from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, AuditItem, audit_append, audit_append_many
from tournaments.models import Game, Round, Tournament
from tournaments.services.common import (
    acting_account,
    published_version_bump,
    require_arbiter,
    tournament_lock,
    values_per_query,
)
from tournaments.services.notifications import notify_result_to_confirm

# The booklet's "Partita patta": a draw "in caso di torneo ... non è contemplata".
ITALIAN_NO_DRAW = (
    "the Italian Klin Zha Society's rules have no draws in a tournament (italian-society: "
    'tournament, "Partita patta"): a battle is won, decided by the time-out count, or, '
    "when no position can be restored (7.3), annulled and replayed"
)


def game_lock(game: Game) -> Game:
    """The game's row locked after its tournament's (the one lock order of every service),
    with its round and tournament loaded."""
    tournament_id = Game.objects.values_list("round__tournament_id", flat=True).get(pk=game.pk)
    tournament_lock(tournament_id)
    return (
        Game.objects.select_for_update(of=("self",), no_key=True)
        .select_related("round__tournament")
        .get(pk=game.pk)
    )


def game_arbiter_require(*, game: Game, user: AnyUser | None) -> None:
    """PermissionDenied unless `user` arbitrates the game's tournament (read without a
    lock): checked before game_lock, so a caller without the role takes no row lock."""
    if user is not None:
        require_arbiter(user, Tournament.objects.get(rounds__games__pk=game.pk))


def _result_refusal(*, game: Game, round: Round, tournament: Tournament, result: str) -> str:
    """Why `result` cannot be entered on `game` now ("" when it can): the one home of the
    rules that game_result_set and round_results_enter apply."""
    if result not in Game.Result.values:
        return gettext("unknown result %(result)r") % {"result": result}
    if game.kind != Game.Kind.GAME:
        return gettext("a bye has no result to enter")
    if round.status == Round.Status.DRAFT:
        return gettext("the round is not published yet")
    if result == Game.Result.DRAW and tournament.ruleset == Tournament.Ruleset.ITALIAN_SOCIETY:
        return ITALIAN_NO_DRAW
    return ""


# The fields a result's entry writes.
RESULT_FIELDS = [
    "result",
    "result_entered_by",
    "result_entered_at",
    "result_confirmed_by",
    "result_confirmed_at",
]


def _result_apply(
    *, game: Game, result: str, tournament: Tournament, account: User | None, now: datetime
) -> None:
    """Write `result` on the locked `game` (unsaved): who entered it and when; confirmed at
    once unless the tournament waits for a second account (result_confirmation)."""
    game.result = result
    game.result_entered_by = account
    game.result_entered_at = now
    if tournament.result_confirmation and result and account is not None:
        game.result_confirmed_by, game.result_confirmed_at = None, None
    else:
        game.result_confirmed_by, game.result_confirmed_at = account, now


def _result_audit(*, game: Game, before: str) -> AuditItem:
    return AuditItem(
        action=Action.RESULT, obj=game, before={"result": before}, after={"result": game.result}
    )


@transaction.atomic
def game_result_set(*, game: Game, result: str, user: AnyUser | None = None) -> Game:
    """Enter or correct a result. Entering the same result twice changes nothing. With the
    tournament's result_confirmation on, the result waits for a second account's
    confirmation (game_result_countersign) before it counts. The role is checked before
    any lock; under the locks, the round must still be published."""
    game_arbiter_require(game=game, user=user)
    locked = game_lock(game)
    tournament = locked.round.tournament
    refusal = _result_refusal(game=locked, round=locked.round, tournament=tournament, result=result)
    if refusal:
        raise ValidationError({"result": refusal})
    if locked.result == result:
        return locked
    before = locked.result
    account = acting_account(user)
    _result_apply(
        game=locked, result=result, tournament=tournament, account=account, now=timezone.now()
    )
    locked.save(update_fields=RESULT_FIELDS)
    audit_append_many(
        tournament=tournament, user=user, items=[_result_audit(game=locked, before=before)]
    )
    published_version_bump(tournament)
    if locked.result and locked.result_confirmed_at is None:
        notify_result_to_confirm(game=locked, entered_by=account)
    return locked


@transaction.atomic
def game_result_countersign(*, game: Game, user: AnyUser | None) -> Game:
    """The second person's confirmation of an entered result: never the account that
    entered it. The role is checked before any lock."""
    game_arbiter_require(game=game, user=user)
    locked = game_lock(game)
    tournament = locked.round.tournament
    if not locked.result:
        raise ValidationError({"result": gettext("no result has been entered")})
    if locked.result_confirmed_at is not None:
        raise ValidationError({"result": gettext("the result is confirmed already")})
    if locked.result_entered_by_id == getattr(user, "pk", None):
        raise ValidationError(
            {
                "result": gettext(
                    "a result is confirmed by a second person, not by the one who entered it"
                )
            }
        )
    locked.result_confirmed_by = acting_account(user)
    locked.result_confirmed_at = timezone.now()
    locked.save(update_fields=["result_confirmed_by", "result_confirmed_at"])
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.RESULT_CONFIRMED,
        obj=locked,
        after={"result": locked.result},
    )
    published_version_bump(tournament)
    return locked


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One result of a round's batch: its game by `board` or by id (`game`)."""

    key: int  # its index in the request's list, or its board: how a refusal names it
    result: str
    board: int | None = None
    game: int | None = None


def _rows_check(
    *, rows: Sequence[ResultRow], round: Round, tournament: Tournament, games: list[Game]
) -> tuple[list[tuple[Game, str]], dict[int, dict[str, list[str]]]]:
    """Each row's game and result, and why a row is refused: no such game in the round,
    the game given twice, or game_result_set's rules (_result_refusal)."""
    by_board = {g.board: g for g in games}
    by_id = {g.pk: g for g in games}
    named: list[tuple[Game, str]] = []
    errors: dict[int, dict[str, list[str]]] = {}
    seen: set[int] = set()
    for row in rows:
        field = "board" if row.game is None else "game"
        game = by_board.get(row.board or 0) if row.game is None else by_id.get(row.game)
        if game is None:
            text = (
                gettext("round %(number)s has no board %(board)s")
                if row.game is None
                else gettext("game %(game)s is not of round %(number)s")
            )
            where = {"number": round.number, "board": row.board, "game": row.game}
            errors[row.key] = {field: [text % where]}
            continue
        if game.pk in seen:
            errors[row.key] = {field: [gettext("given twice")]}
            continue
        seen.add(game.pk)
        refusal = _result_refusal(game=game, round=round, tournament=tournament, result=row.result)
        if refusal:
            errors[row.key] = {"result": [refusal]}
        named.append((game, row.result))
    return named, errors


@dataclass(frozen=True, slots=True)
class ResultsEntered:
    games: list[Game]  # every game a row named, in the rows' order
    changed: list[Game]  # those whose result changed


def _results_store(games: list[Game]) -> None:
    """Store the results written on `games`: one UPDATE for each set of values (a few: the
    results differ, who and when do not), rather than one a game or a CASE of thousands."""
    attnames = [f.attname for f in Game._meta.concrete_fields if f.name in RESULT_FIELDS]
    groups: dict[tuple[object, ...], list[int]] = defaultdict(list)
    for game in games:
        groups[tuple(getattr(game, a) for a in attnames)].append(game.pk)
    step = values_per_query()
    for values, ids in groups.items():
        for start in range(0, len(ids), step):
            Game.objects.filter(pk__in=ids[start : start + step]).update(
                **dict(zip(attnames, values, strict=True))
            )


@transaction.atomic
def round_results_enter(
    *,
    round: Round,
    rows: Sequence[ResultRow],
    user: AnyUser | None = None,
    label: str = "row",
    named: bool = True,
) -> ResultsEntered:
    """A round's results entered at once, under game_result_set's rules, in one
    transaction: every refused row is named with its field (RowsRefused, keyed by the
    row's key) and then nothing is stored, so a typo never leaves half a round entered.
    One audit entry a game whose result changes, one version bump for the batch. The role
    is checked before any lock; under the locks (the tournament, then the round's games in
    id order) the round is read again."""
    tournament = round.tournament
    require_arbiter(user, tournament)
    tournament = tournament_lock(round.tournament_id)
    current = Round.objects.filter(pk=round.pk).first()
    if current is None:  # discarded while we waited for the lock
        raise ValidationError({"round": gettext("no round %(number)s") % {"number": round.number}})
    games = list(
        Game.objects.select_for_update(of=("self",), no_key=True)
        .filter(round=current)
        .order_by("pk")
    )
    named_games, errors = _rows_check(rows=rows, round=current, tournament=tournament, games=games)
    if errors:
        raise RowsRefused(errors, label=label, named=named)
    account = acting_account(user)
    now = timezone.now()
    changed: list[Game] = []
    audit: list[AuditItem] = []
    for game, result in named_games:
        if game.result == result:
            continue
        before = game.result
        _result_apply(game=game, result=result, tournament=tournament, account=account, now=now)
        changed.append(game)
        audit.append(_result_audit(game=game, before=before))
    if changed:
        _results_store(changed)
        audit_append_many(tournament=tournament, user=user, items=audit)
        published_version_bump(tournament)
    for game in changed:
        if game.result and game.result_confirmed_at is None:
            game.round = current
            notify_result_to_confirm(game=game, entered_by=account)
    return ResultsEntered(games=[game for game, _ in named_games], changed=changed)


def round_results_set(
    *, round: Round, results: Mapping[int, str], user: AnyUser | None = None
) -> list[Game]:
    """The console's grid: results by board, through round_results_enter; every refused
    board is named (ValidationError keyed "board N") and then no board is saved."""
    rows = [ResultRow(key=board, board=board, result=results[board]) for board in sorted(results)]
    entered = round_results_enter(round=round, rows=rows, user=user, label="board", named=False)
    return entered.games
