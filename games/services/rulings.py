"""The arbiter's rulings on a battle: the result its record proposes confirmed, an
irregularity (Art. 7), and a time-out under the Italian society's rules."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from games.models import Irregularity, RecordSubmission
from games.selectors import (
    NAMES_CONFIRMED,
    NAMES_PENDING,
    game_first_colour,
    proposed_result,
    record_needs_confirmation,
    submission_latest,
)
from games.services.records import submission_create
from klinzha_site.parsing import reason_check
from klinzha_site.user_types import AnyUser
from rules.record import read_record, write_record
from rules.validate import validate_record
from tournaments.audit import Action, audit_append
from tournaments.italian_procedure import RULESET, TimeoutDecision, timeout_decide
from tournaments.models import Game
from tournaments.pairing import spindle_seed_new
from tournaments.roles import Role, role_require
from tournaments.selectors import game_is_final
from tournaments.services.common import acting_account, published_version_bump
from tournaments.services.results import game_lock, game_result_set


@transaction.atomic
def game_result_confirm(*, game: Game, user: AnyUser | None, result: str | None = None) -> Game:
    """The arbiter confirms the result: the one given, or the one the latest record proposes
    (from the moves or the clocks); taking a record that names other players than the game's
    is the arbiter's confirmation that it is this game's, noted on the record."""
    role_require(user=user, tournament=game.round.tournament, role=Role.ARBITER)
    if result is None:
        sub = (
            game.submissions.filter(status=RecordSubmission.Status.DONE)
            .order_by("-version", "-id")
            .first()
        )
        if sub is not None and sub.version < game.replay_from_version:
            raise ValidationError(
                {"result": gettext("the battle was annulled (7.3): no record of its replay yet")}
            )
        if sub is None or not sub.valid:
            raise ValidationError({"result": gettext("no valid record proposes a result")})
        first = game_first_colour(game=game, submission=sub)
        result = proposed_result(submission=sub, first_colour=first)
        if result is None:
            raise ValidationError({"result": gettext("the record decides no result; enter it")})
        if record_needs_confirmation(submission=sub):
            sub.match_note = (NAMES_CONFIRMED + sub.match_note[len(NAMES_PENDING) :])[:200]
            sub.save(update_fields=["match_note"])
    return game_result_set(game=game, result=result, user=user)


def _restored_record(latest: RecordSubmission, ply: int) -> bytes:
    """The latest record cut before its first illegal ply (Art. 7.3), its ending removed."""
    record = read_record(latest.text)
    record.plies = record.plies[: ply - 1]
    for tag in ("Result", "Termination"):
        record.tags.pop(tag, None)
    record.preamble = (
        *record.preamble,
        f"restored by the arbiter to the position before ply {ply} (Art. 7.3)",
    )
    return write_record(record).encode("utf-8")


@transaction.atomic
def irregularity_declare(
    *, game: Game, kind: str, reason: str, user: AnyUser | None
) -> Irregularity:
    """The arbiter's ruling on an irregularity (Art. 7), taking effect at once:
    - `new_battle` (7.1, an illegal placement): the result is cleared and a new record is
      expected; the old records stay as they were;
    - `restore` (7.3): a new version of the latest record is stored, cut before its first
      illegal ply, so that the battle goes on from the last legal position (its clock
      readings come with it) and is validated again;
    - `draw` (7.3, no legal position can be restored): the battle is declared drawn; under
      the Italian society's rules, which have no draws, the battle is annulled and replayed
      ("la partita viene annullata e se ne giocherà una nuova"): stored as a new battle
      under 7.3, the result cleared, the game's replay counted and its record expected from
      the next version on (annulled_battle_replay)."""
    tournament = game.round.tournament
    role_require(user=user, tournament=tournament, role=Role.ARBITER)
    _irregularity_request_check(kind=kind, reason=reason)
    game = game_lock(game)
    if game.kind != Game.Kind.GAME:
        raise ValidationError({"game": gettext("a bye has no battle")})
    latest = submission_latest(game=game)
    ply = (latest.error or {}).get("ply") if latest is not None and latest.error else None
    new_sub = None
    annul = kind == Irregularity.Kind.DRAW and tournament.ruleset == RULESET
    if kind == Irregularity.Kind.RESTORE:
        ply = _restore_check(latest=latest, ply=ply)
        assert latest is not None  # _restore_check refuses a game without one
        new_sub = submission_create(
            game=game,
            raw=_restored_record(latest, ply),
            source=RecordSubmission.Source.ARBITER,
            user=user,
            ruling=True,
        )
    irregularity = Irregularity.objects.create(
        game=game,
        kind=Irregularity.Kind.NEW_BATTLE if annul else kind,
        article=Irregularity.ARTICLES[kind],
        reason=reason,
        ply=ply,
        from_submission=latest,
        new_submission=new_sub,
        arbiter=acting_account(user),
    )
    replay = annulled_battle_replay(game=game, latest=latest) if annul else {}
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.IRREGULARITY,
        obj=game,
        before={"result": game.result},
        after={
            "kind": kind,
            "article": irregularity.article,
            "ply": ply,
            "reason": reason,
            **replay,
        },
    )
    _irregularity_result_set(game=game, kind=kind, annul=annul, user=user)
    return irregularity


def _irregularity_request_check(*, kind: str, reason: str) -> None:
    """The ruling asked for is one of Art. 7's (a correction has its own service) and says
    what happened."""
    if kind not in Irregularity.Kind.values:
        raise ValidationError({"kind": gettext("unknown irregularity %(kind)r") % {"kind": kind}})
    if kind == Irregularity.Kind.CORRECTION:
        raise ValidationError({"text": gettext("a correction needs the corrected record")})
    reason_check(reason, missing=gettext("say what happened"))


def _restore_check(*, latest: RecordSubmission | None, ply: int | None) -> int:
    """The ply to restore before (7.3): the latest record's first illegal one, which a
    legal position precedes; refused when there is no validated record with one."""
    if latest is None or latest.status != RecordSubmission.Status.DONE:
        raise ValidationError({"kind": gettext("no validated record to restore from")})
    if latest.valid or not ply:
        raise ValidationError(
            {"kind": gettext("the latest record has no illegal ply to go back from")}
        )
    if ply < 2:
        raise ValidationError(
            {
                "kind": gettext(
                    "no legal position precedes the first ply: declare a new battle (7.1)"
                )
            }
        )
    return ply


def _irregularity_result_set(*, game: Game, kind: str, annul: bool, user: AnyUser | None) -> None:
    """The result the ruling leaves: a drawn battle drawn; otherwise (a new battle, a
    restored one, one annulled under the Italian rules) none yet."""
    if annul:
        if game.result:
            game_result_set(game=game, result=Game.Result.PENDING, user=user)
    elif kind == Irregularity.Kind.DRAW:
        game_result_set(game=game, result=Game.Result.DRAW, user=user)
    elif game.result:
        game_result_set(game=game, result=Game.Result.PENDING, user=user)


def annulled_battle_replay(*, game: Game, latest: RecordSubmission | None) -> dict[str, Any]:
    """Italian society: annul the game's battle and schedule its replay, the same pairing in
    the same round (as the Bach'san replay is): annulled battles count nothing, so the
    game's result waits for the replay, whose record starts at the next version."""
    game.battles_annulled += 1
    game.replay_from_version = (latest.version if latest is not None else 0) + 1
    game.save(update_fields=["battles_annulled", "replay_from_version"])
    published_version_bump(game.round.tournament)  # the rounds API shows the replay
    return {
        "effect": "annulled",
        "rule": "italian-society: irregular moves",
        "replay": game.battles_annulled,
        "replay_from_version": game.replay_from_version,
    }


@transaction.atomic
def record_correction_rule(
    *, game: Game, raw: bytes, reason: str, user: AnyUser | None
) -> Irregularity:
    """The arbiter's ruling that corrects the game's record (Art. 7): the one way to a new
    version once both combatants signed (Art. 8.2). The corrected record is stored as the next
    version and validated; the signed one stays with its signatures; the reason is kept and
    audited. The result stands until the arbiter enters or confirms one."""
    tournament = game.round.tournament
    role_require(user=user, tournament=tournament, role=Role.ARBITER)
    reason_check(reason, missing=gettext("say why the record is corrected"))
    if not raw.strip():
        raise ValidationError({"text": gettext("the corrected record is empty")})
    game = game_lock(game)
    if game.kind != Game.Kind.GAME:
        raise ValidationError({"game": gettext("a bye has no battle")})
    latest = submission_latest(game=game)
    if latest is None:
        raise ValidationError({"game": gettext("no record to correct: submit the first one")})
    new_sub = submission_create(
        game=game, raw=raw, source=RecordSubmission.Source.RULING, user=user, ruling=True
    )
    irregularity = Irregularity.objects.create(
        game=game,
        kind=Irregularity.Kind.CORRECTION,
        article=Irregularity.ARTICLES[Irregularity.Kind.CORRECTION],
        reason=reason,
        from_submission=latest,
        new_submission=new_sub,
        arbiter=acting_account(user),
    )
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.IRREGULARITY,
        obj=game,
        before={"version": latest.version, "signed": latest.locked},
        after={
            "kind": irregularity.kind,
            "article": irregularity.article,
            "version": new_sub.version,
            "reason": reason,
        },
    )
    return irregularity


@transaction.atomic
def game_timeout_decide(*, game: Game, user: AnyUser | None) -> TimeoutDecision:
    """Decide a battle stopped at time-out under the Italian society's rules from its latest
    valid record: the count (a tie: the coin), or in a final the Bach'san replay."""
    role_require(user=user, tournament=game.round.tournament, role=Role.ARBITER)  # before locks
    game = game_lock(game)
    tournament = game.round.tournament
    if tournament.ruleset != RULESET:
        raise ValidationError(
            {
                "ruleset": gettext(
                    "a time-out is decided by the count only under the Italian society's "
                    "ruleset; under the Laws the clock decides (Art. 6.5)"
                )
            }
        )
    if game.kind != Game.Kind.GAME or game.second_id is None:
        raise ValidationError({"game": gettext("only a battle between two players has a time-out")})
    if game.result:
        raise ValidationError({"game": gettext("this game already has a result")})
    sub = submission_latest(game=game)
    if sub is None or sub.status != RecordSubmission.Status.DONE or not sub.valid:
        raise ValidationError(
            {"record": gettext("the count needs a valid record of the battle up to the time-out")}
        )
    if sub.termination:
        raise ValidationError(
            {
                "record": gettext("the moves already ended the battle (%(termination)s)")
                % {"termination": sub.termination}
            }
        )
    verdict = validate_record(read_record(bytes(sub.raw).decode("utf-8-sig")))
    assert verdict.position is not None
    if not game.spindle_seed:
        game.spindle_seed = spindle_seed_new(
            slug=tournament.slug, round_number=game.round.number, board=game.board
        )
    decision = timeout_decide(
        verdict.position,
        seed=f"{game.spindle_seed}/v{sub.version}",
        final=game_is_final(game=game),
        bachsan=game.bachsan_removed > 0,
    )
    before = {"result": game.result, "bachsan_removed": game.bachsan_removed}
    if decision.how == "bachsan":
        game.bachsan_removed = decision.removed
    game.save(update_fields=["spindle_seed", "bachsan_removed"])
    published_version_bump(tournament)  # the pairings page shows the spindle seeded here
    if decision.winner is not None:
        won_first = decision.winner_name == game_first_colour(game=game, submission=sub)
        result = Game.Result.FIRST_WIN if won_first else Game.Result.SECOND_WIN
        game = game_result_set(game=game, result=result, user=user)
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.TIMEOUT,
        obj=game,
        before=before,
        after={
            "how": decision.how,
            "winner": decision.winner_name,
            "removed": decision.removed,
            "explanation": decision.explanation,
            "seed": f"{game.spindle_seed}/v{sub.version}",
        },
    )
    return decision
