"""Writes of battles played online, one transaction each under the battle's row lock: open,
a ply (exactly once, by its number), resignation, draw offers, the flag, and the end writing
the record and the result (docs/online-play.md)."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.live_models import LiveBattle, LivePly
from games.live_selectors import (
    battle_live,
    battle_side_of,
    clock_left_ms,
    clocks_now,
    time_control_of,
)
from games.models import RecordSignature, RecordSubmission
from games.selectors import game_rules_expected
from games.services.records import submission_create
from games.site_key import SiteKeyMissing, site_key_check, site_sign
from klinzha_site.user_types import AnyUser
from rules.errors import IllegalMoveError
from rules.live import LiveBattle as Battle
from rules.live import PlyRefused
from rules.live_clock import ply_charge, reading_seconds
from rules.pieces import COLOR_NAMES
from rules.record import write_record
from tournaments.models import Colour, Game, Round
from tournaments.services.results import game_result_set

logger = logging.getLogger(__name__)

# The flag sweep's name, as the beat schedule (settings.CELERY_BEAT_SCHEDULE) spells it.
LIVE_FLAGS_SWEEP_TASK = "games.live_flags_sweep"


class LiveRefusal(Exception):
    """A message the battle refuses: `code` (stale, turn, over, paused, not_player, rules,
    draw, ...), and for a ply the rules refuse its number, Article and the validator's
    message. Nothing was changed."""

    def __init__(
        self, code: str, message: str, *, ply: int | None = None, article: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ply = ply
        self.article = article

    def error(self) -> dict[str, Any]:
        """The protocol's `error` object."""
        return {"ply": self.ply, "article": self.article, "message": self.message}


@dataclass(frozen=True, slots=True)
class Ended:
    """How a battle ended: the record format's result and termination, the record written."""

    result: str
    termination: str
    record_id: int | None


@dataclass(frozen=True, slots=True)
class MovePlayed:
    """A ply the server played: its number and text, the clocks after it, the legal plies of
    the next mover, and the ending when it ended the battle (or the mover's flag fell)."""

    n: int
    ply: str
    clocks: dict[str, int | None]
    legal: list[str]
    ended: Ended | None = None
    draw_withdrawn: bool = False
    warnings: list[str] = field(default_factory=list)
    # False when the mover's flag fell before the ply came: the battle ended, unplayed.
    played: bool = True
    # The colour to act next, whose clock runs now.
    turn: str = ""


# --- opening ------------------------------------------------------------------------------------


def _tags_of_game(*, game: Game, first_colour: str) -> dict[str, str]:
    """The record's start tags for a tournament game: the event, the names, the rules."""
    tournament = game.round.tournament
    expected = game_rules_expected(game=game)
    first_name = game.first.name
    second_name = game.second.name if game.second else ""
    green, gold = (
        (first_name, second_name) if first_colour == Colour.GREEN else (second_name, first_name)
    )
    tags = {
        "Event": tournament.name,
        "Round": str(game.round.number),
        "Green": green,
        "Gold": gold,
        "FirstPlacement": first_colour,
        "Ruleset": expected.ruleset,
    }
    if expected.variants:
        tags["Variants"] = ", ".join(sorted(expected.variants))
    if expected.time_control:
        tags["TimeControl"] = expected.time_control
    for tag, value in (("Clouds", tournament.clouds), ("Crown", tournament.crown)):
        if value.strip():
            tags[tag] = value.strip()
    return tags


@transaction.atomic
def live_battle_open(*, game: Game, now: datetime | None = None) -> LiveBattle:
    """Open `game` for play on the site: its players' accounts by colour, its start tags;
    the first placer's clock runs from now (Art. 6.8). ValidationError when its round is not
    published, the game has no two players with accounts or its rules cannot be played
    online."""
    if game.round.status == Round.Status.DRAFT:
        raise ValidationError({"game": gettext("the round is not published yet")})
    try:
        site_key_check()
    except SiteKeyMissing as exc:
        raise ValidationError({"game": str(exc)}) from None
    if game.second is None or game.first.user_id is None or game.second.user_id is None:
        raise ValidationError({"game": gettext("an online battle needs two players with accounts")})
    first_colour = game.first_colour_or_green
    tags = _tags_of_game(game=game, first_colour=first_colour)
    try:
        Battle(tags)
    except IllegalMoveError as exc:
        raise ValidationError({"game": str(exc)}) from None
    first_user, second_user = game.first.user, game.second.user
    green, gold = (
        (first_user, second_user) if first_colour == Colour.GREEN else (second_user, first_user)
    )
    battle, _ = LiveBattle.objects.get_or_create(
        game=game,
        defaults={
            "green": green,
            "gold": gold,
            "tags": tags,
            "turn_started_at": now or timezone.now(),
        },
    )
    return battle


# --- the lock and who acts ----------------------------------------------------------------------


def _locked(battle_id: int) -> LiveBattle:
    """The battle's row, locked until the transaction ends."""
    return LiveBattle.objects.select_for_update().get(pk=battle_id)


def _player_side(*, battle: LiveBattle, user: AnyUser) -> int:
    """The side `user` plays; LiveRefusal `not_player` for anyone else."""
    side = battle_side_of(battle=battle, user=user)
    if side is None:
        raise LiveRefusal("not_player", gettext("only the battle's two players play it"))
    return side


def _require_under_way(battle: LiveBattle) -> None:
    """LiveRefusal unless the battle is waiting for its first ply or playing."""
    if battle.status == LiveBattle.Status.OVER:
        raise LiveRefusal("over", gettext("the battle is over"))
    if battle.status == LiveBattle.Status.PAUSED:
        raise LiveRefusal("paused", gettext("the arbiter has paused the battle"))


# --- a ply --------------------------------------------------------------------------------------


@transaction.atomic
def live_move_play(
    *,
    battle_id: int,
    user: AnyUser,
    n: int,
    ply: str,
    lag_ms: int = 0,
    now: datetime | None = None,
) -> MovePlayed:
    """Play ply number `n` (1-based) for `user`, exactly once: a stale or repeated `n` is
    refused (`stale`), as is a ply out of turn or one the rules refuse (the validator's ply
    number, Article and message); the mover's clock is charged (lag compensated) and its
    flag falls when its time ran out before the ply came (Art. 6)."""
    now = now or timezone.now()
    battle = _locked(battle_id)
    _require_under_way(battle)
    side = _player_side(battle=battle, user=user)
    texts = list(battle.plies.order_by("n").values_list("text", flat=True))
    if n != len(texts) + 1:
        raise LiveRefusal(
            "stale",
            gettext("ply %(n)s is not the next: the next is %(next)s")
            % {"n": n, "next": len(texts) + 1},
            ply=n,
        )
    live = Battle.replay(battle.tags, texts)
    if live.side != side:
        raise LiveRefusal("turn", gettext("it is not your turn"), ply=n)
    return _ply_apply(battle=battle, live=live, user=user, ply=ply, lag_ms=lag_ms, now=now)


def _ply_apply(
    *, battle: LiveBattle, live: Battle, user: AnyUser, ply: str, lag_ms: int, now: datetime
) -> MovePlayed:
    """Play `ply` on the locked battle (its turn and flag checked), store it with its clock
    reading and end the battle when the ply decides it."""
    side = live.side
    colour = COLOR_NAMES[side]
    elapsed = int((now - battle.turn_started_at).total_seconds() * 1000)
    charge = ply_charge(
        time_control_of(battle),
        elapsed_ms=elapsed,
        lag_ms=lag_ms,
        quota_ms=getattr(battle, f"{colour}_quota_ms"),
        completed=live.completed[side],
        used_ms=getattr(battle, f"{colour}_used_ms"),
        completes_move=live.next_completes_move(),
    )
    if charge.flagged:
        # Its time ran out before the ply came, lag compensated: the flag fell (Art. 6).
        ended = _time_out(battle=battle, live=live)
        clocks = clocks_now(battle=battle, live=live, now=now)
        return MovePlayed(live.next_n, ply, clocks, [], ended, played=False, turn=live.turn)
    try:
        played = live.play(ply)
    except PlyRefused as exc:
        refusal = exc.refusal
        raise LiveRefusal(
            "rules", str(refusal.reason), ply=refusal.ply, article=refusal.article
        ) from None
    setattr(battle, f"{colour}_used_ms", getattr(battle, f"{colour}_used_ms") + charge.charged_ms)
    setattr(battle, f"{colour}_quota_ms", charge.quota_ms)
    LivePly.objects.create(
        battle=battle,
        n=played.n,
        text=played.text,
        side=colour,
        clock_ms=charge.left_ms,
        spent_ms=charge.charged_ms,
        lag_ms=charge.compensated_ms,
        played_by=user if isinstance(user, User) else None,
        played_at=now,
    )
    withdrawn = bool(battle.draw_offered_by) and battle.draw_offered_by != colour
    if withdrawn:
        # A move answers an offer not accepted: it lapses (declined).
        battle.draw_offered_by = ""
    battle.status = LiveBattle.Status.PLAYING
    battle.turn_started_at = now
    ending: Ended | None = None
    outcome = live.outcome
    if outcome is not None:
        ending = _battle_end(
            battle=battle, live=live, result=outcome.winner_name, termination=outcome.termination
        )
    battle.save()
    return MovePlayed(
        played.n,
        played.text,
        clocks_now(battle=battle, live=live, now=now),
        live.legal(),
        ending,
        withdrawn,
        [str(w.reason) for w in played.warnings],
        turn=live.turn,
    )


# --- the flag -----------------------------------------------------------------------------------


def _time_out(*, battle: LiveBattle, live: Battle) -> Ended:
    """End the locked battle on time, the side to act's flag fallen (a tie of the Italian
    count goes to a coin the server tosses)."""
    result, extra = live.time_out(live.side, coin=secrets.choice(("green", "gold")))
    ended = _battle_end(battle=battle, live=live, result=result, termination="time", extra=extra)
    battle.save()
    return ended


def _flag_if_due(*, battle: LiveBattle, live: Battle, now: datetime) -> Ended | None:
    """End the locked battle on time when the side to act's time ran out by `now`."""
    left = clock_left_ms(battle=battle, live=live, now=now)
    if left is None or left > 0 or live.outcome is not None:
        return None
    return _time_out(battle=battle, live=live)


@transaction.atomic
def live_battle_flag(*, battle_id: int, now: datetime | None = None) -> Ended | None:
    """Let the side to act's flag fall when the server's clock says its time ran out (Art.
    6; the socket asks when the clock would fall, and on sync): the ending, or None."""
    battle = _locked(battle_id)
    if battle.status in (LiveBattle.Status.OVER, LiveBattle.Status.PAUSED):
        return None
    live = battle_live(battle=battle)
    return _flag_if_due(battle=battle, live=live, now=now or timezone.now())


def live_flags_sweep(*, now: datetime | None = None) -> list[tuple[int, Ended]]:
    """Let the flags fall in the battles under way whose side to act ran out of time while
    no socket was there to ask (Art. 6, 6.14; the beat schedule's sweep): each battle by
    `live_battle_flag`, in its own transaction under its row lock, so a battle a move or
    another sweep ended first is left alone. The battles it ended, with their endings."""
    now = now or timezone.now()
    under_way = (LiveBattle.Status.WAITING, LiveBattle.Status.PLAYING)
    ids = list(
        LiveBattle.objects.filter(status__in=under_way, tags__has_key="TimeControl")
        .order_by("turn_started_at", "pk")
        .values_list("pk", flat=True)
    )
    ended: list[tuple[int, Ended]] = []
    for battle_id in ids:
        try:
            ending = live_battle_flag(battle_id=battle_id, now=now)
        except Exception:
            # One battle that cannot be replayed must not keep the sweep from the others.
            logger.exception("the flag sweep could not look at live battle %s", battle_id)
            continue
        if ending is not None:
            ended.append((battle_id, ending))
    return ended


# --- resignation and draws ----------------------------------------------------------------------


@transaction.atomic
def live_resign(*, battle_id: int, user: AnyUser) -> Ended:
    """`user` resigns: the other side wins (Art. 9)."""
    battle = _locked(battle_id)
    _require_under_way(battle)
    side = _player_side(battle=battle, user=user)
    live = battle_live(battle=battle)
    ended = _battle_end(
        battle=battle, live=live, result=COLOR_NAMES[1 - side], termination="resignation"
    )
    battle.save()
    return ended


@dataclass(frozen=True, slots=True)
class DrawAnswer:
    """After a draw message: the offer standing (a colour, or "" for none) or the ending."""

    offered_by: str
    ended: Ended | None = None


@transaction.atomic
def live_draw(*, battle_id: int, user: AnyUser, offer: bool) -> DrawAnswer:
    """A draw message: `offer` true offers a draw, or accepts the opponent's standing offer
    (the battle ends by agreement); false withdraws one's own offer or declines the
    opponent's. Refused (`draw`) where the rules have no draws (the Italian society's)."""
    battle = _locked(battle_id)
    _require_under_way(battle)
    colour = COLOR_NAMES[_player_side(battle=battle, user=user)]
    live = battle_live(battle=battle)
    if offer and not live.draws_allowed():
        raise LiveRefusal("draw", gettext("these rules have no draws"))
    standing = battle.draw_offered_by
    if not offer:
        battle.draw_offered_by = ""
    elif standing and standing != colour:
        ended = _battle_end(battle=battle, live=live, result="draw", termination="agreement")
        battle.save()
        return DrawAnswer("", ended)
    else:
        battle.draw_offered_by = colour
    battle.save(update_fields=["draw_offered_by"])
    return DrawAnswer(battle.draw_offered_by)


# --- the end ------------------------------------------------------------------------------------


def _battle_end(
    *,
    battle: LiveBattle,
    live: Battle,
    result: str,
    termination: str,
    extra: dict[str, str] | None = None,
) -> Ended:
    """End the locked battle (the caller saves it): the record written by the server, with
    every ply's clock reading, stored as an online submission and queued for validation like
    any other; the result entered on the tournament game as entered and confirmed."""
    readings = [
        None if ms is None else reading_seconds(ms)
        for ms in battle.plies.order_by("n").values_list("clock_ms", flat=True)
    ]
    record = live.record(result=result, termination=termination, clocks=readings, extra=extra)
    battle.status = LiveBattle.Status.OVER
    battle.result = result
    battle.termination = termination
    battle.draw_offered_by = ""
    battle.ended_at = timezone.now()
    game = battle.game
    if game is not None:
        sub = submission_create(
            game=game,
            raw=write_record(record).encode(),
            source=RecordSubmission.Source.ONLINE,
            filename=f"online-{battle.pk}.kzr",
        )
        battle.record = sub
        _site_signature_add(submission=sub)
        game_result_set(game=game, result=_game_result(game=game, result=result, live=live))
    return Ended(result, termination, battle.record_id)


def _site_signature_add(*, submission: RecordSubmission) -> None:
    """The site's signature of the record it wrote: what makes an online record final. A
    key lost since the battle opened does not undo its ending: the record is kept unsigned
    by the site, and the log says so."""
    try:
        sig = site_sign(bytes(submission.raw).decode("utf-8"))
    except SiteKeyMissing as exc:
        logger.error("record %s of an online battle not signed by the site: %s", submission.pk, exc)
        return
    RecordSignature.objects.create(
        submission=submission,
        role=RecordSignature.Role.SITE,
        public_key=sig.public_key,
        signature=sig.signature,
    )


def _game_result(*, game: Game, result: str, live: Battle) -> str:
    """The tournament game's result for the record's `result` (a colour or draw)."""
    if result == "draw":
        return str(Game.Result.DRAW)
    first_won = result == COLOR_NAMES[live.first]
    return str(Game.Result.FIRST_WIN if first_won else Game.Result.SECOND_WIN)
