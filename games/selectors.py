"""Reads of the games app: a game's latest record, positions of a record for the viewer."""

from __future__ import annotations

from games.models import Game, RecordSubmission
from rules.engines import new_position
from rules.errors import RulesError
from rules.position import Move, Position
from rules.record import read_record
from rules.validate import rules_from_tags


def submission_latest(*, game: Game) -> RecordSubmission | None:
    return game.submissions.order_by("-version", "-id").first()


def record_positions(*, submission: RecordSubmission) -> tuple[list[Position], list[str]]:
    """The legal positions of a record, from the empty board (index 0) to the last legal one,
    and the plies' texts as written (for the viewer's move list)."""
    try:
        record = read_record(bytes(submission.raw).decode("utf-8-sig"))
        rules, first = rules_from_tags(record.tags)
    except (UnicodeDecodeError, RulesError):
        return [Position()], []
    pos = new_position(rules, first)
    positions = [pos.copy()]
    texts = []
    for rp in record.plies:
        if rp.ply is None or pos.outcome is not None:
            break
        move = Move(rp.ply.origin, rp.ply.dest, rp.ply.kind, rp.ply.carry)
        try:
            pos.take_annotations(rp.comments)
            pos.check_move(move)
        except RulesError:
            break
        pos.push(move)
        positions.append(pos.copy())
        texts.append(rp.text)
    return positions, texts


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


def game_rules_expected(*, game: Game) -> tuple[str, frozenset[str], int]:
    """(ruleset, variants, removed warrior kind) a record of this game must be played under:
    the tournament's, with the Italian society's final and Bach'san replay."""
    from tournaments.italian import game_variants

    tournament = game.round.tournament
    variants = game_variants(
        tournament.variants, tournament.ruleset, final=game_is_final(game=game)
    )
    return tournament.ruleset, variants, game.bachsan_removed
