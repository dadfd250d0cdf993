"""Rounds and their games: storing a round, publishing or discarding a proposal, editing
proposed pairings by hand."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from klinzha_site.errors import Conflict
from klinzha_site.user_types import AnyUser
from tournaments.audit import Action, audit_append
from tournaments.desk_selectors import HAND_EDITED
from tournaments.models import Game, Registration, Round, RoundPlan, Tournament
from tournaments.pairing import (
    PLACEMENT_CAST,
    Pairing,
    pairing_check,
    spindle_cast,
    spindle_choice_check,
    spindle_choice_default,
    spindle_seed_new,
)
from tournaments.pairing_selectors import pairing_players
from tournaments.selectors import game_spindle
from tournaments.services.common import (
    next_round_check,
    next_round_number,
    pairing_warnings_from_above,
    published_version_bump,
    require_arbiter,
    tournament_lock,
)
from tournaments.services.notifications import notify_round_published
from tournaments.services.results import game_lock
from tournaments.signals import round_published, round_unpublishing


def _games_create(
    *, round: Round, pairings: Sequence[tuple[int, int | None]], requested_byes: Sequence[int]
) -> None:
    """The round's games on boards 1, 2, ...: the pairings (None second: the pairing bye),
    then the requested byes; with spindle placement each battle gets its seed (Art. 2.3)."""
    tournament = round.tournament
    spindle = tournament.placement_order == Tournament.PlacementOrder.SPINDLE
    games = [
        Game(
            round=round,
            board=board,
            kind=Game.Kind.GAME if second is not None else Game.Kind.BYE,
            first_id=first,
            second_id=second,
        )
        for board, (first, second) in enumerate(pairings, start=1)
    ]
    for game in games:
        if spindle and game.second_id is not None:
            _spindle_cast_apply(game, tournament)
    games += [
        Game(round=round, board=board, kind=Game.Kind.REQUESTED_BYE, first_id=pid)
        for board, pid in enumerate(requested_byes, start=len(games) + 1)
    ]
    Game.objects.bulk_create(games)


def _spindle_cast_apply(game: Game, tournament: Tournament) -> None:
    """Art. 2.3: a fresh seed, its cast between the paired combatants (the pairing's first
    casts first), and who places first by the choice assumed until one is declared."""
    game.spindle_seed = spindle_seed_new(
        slug=tournament.slug, round_number=game.round.number, board=game.board
    )
    assert game.second_id is not None  # a bye casts no spindle: the caller leaves it out
    casters = (game.first_id, game.second_id)
    cast = spindle_cast(game.spindle_seed, PLACEMENT_CAST)
    choice = spindle_choice_default(
        cast, booklet=tournament.ruleset == Tournament.Ruleset.ITALIAN_SOCIETY
    )
    game.spindle_caster_id = casters[0]
    game.spindle_chooser_id = None if choice.chooser is None else casters[choice.chooser]
    game.spindle_placement = choice.placement
    game.first_id = casters[choice.first_placer]
    game.second_id = casters[1 - choice.first_placer]


@transaction.atomic
def round_create(
    *,
    tournament: Tournament,
    pairings: Sequence[tuple[int, int | None]],
    requested_byes: Sequence[int] = (),
    user: AnyUser | None = None,
    status: str = Round.Status.PUBLISHED,
) -> Round:
    """Store the next round: (first placer id, second id or None for the pairing bye)."""
    require_arbiter(user, tournament)
    tournament_lock(tournament.pk)
    number = next_round_number(tournament)
    next_round_check(tournament, number)
    if not pairings and not requested_byes:
        raise Conflict(
            {
                "round": gettext("round %(number)s would have no game: nothing is stored")
                % {"number": number}
            }
        )
    seen: set[int] = set()
    for first, second in pairings:
        for pid in (first, second):
            if pid is None:
                continue
            if pid in seen:
                raise ValidationError(
                    {
                        "pairings": gettext("%(names)s is paired twice")
                        % {"names": _names(tournament, [pid])}
                    }
                )
            seen.add(pid)
    plan = RoundPlan.objects.filter(tournament=tournament, number=number).first()
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        status=status,
        starts_at=plan.starts_at if plan else None,
        place=plan.place if plan else "",
    )
    _games_create(round=rnd, pairings=pairings, requested_byes=requested_byes)
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.ROUND_PAIRED,
        obj=rnd,
        after={
            "round": number,
            "pairings": [list(p) for p in pairings],
            "requested_byes": list(requested_byes),
        },
    )
    published_version_bump(tournament)
    if status == Round.Status.PUBLISHED:
        notify_round_published(round=rnd)
    return rnd


def _draft_locked(round: Round, user: AnyUser | None, *, field: str, published: str) -> Round:
    """The round locked, for an arbiter, while it is still a proposal; once published the
    caller's error `published` is raised under `field` ("{number}" is the round's)."""
    require_arbiter(user, round.tournament)
    tournament_lock(round.tournament_id)
    locked = Round.objects.select_for_update().get(pk=round.pk)
    if locked.status != Round.Status.DRAFT:
        raise ValidationError({field: published.format(number=locked.number)})
    return locked


@transaction.atomic
def round_publish(*, round: Round, user: AnyUser | None = None) -> Round:
    """Make a proposed round official: the players see it and results can be entered."""
    locked = _draft_locked(
        round, user, field="round", published="round {number} is published already"
    )
    locked.status = Round.Status.PUBLISHED
    locked.save(update_fields=["status"])
    round_published.send(sender=Round, round=locked, user=user)
    audit_append(
        tournament=locked.tournament,
        user=user,
        action=Action.ROUND_PUBLISHED,
        obj=locked,
        after={"round": locked.number},
    )
    published_version_bump(locked.tournament)
    notify_round_published(round=locked)
    return locked


@transaction.atomic
def round_schedule(
    *, round: Round, starts_at: datetime | None, place: str = "", user: AnyUser | None = None
) -> Round:
    """Set a round's scheduled start and place; latecomers are counted from that start."""
    require_arbiter(user, round.tournament)
    tournament_lock(round.tournament_id)
    locked = Round.objects.select_for_update().get(pk=round.pk)
    before = {"starts_at": locked.starts_at, "place": locked.place}
    locked.starts_at, locked.place = starts_at, place
    locked.full_clean()
    locked.save(update_fields=["starts_at", "place"])
    RoundPlan.objects.update_or_create(
        tournament=locked.tournament,
        number=locked.number,
        defaults={"starts_at": starts_at, "place": place},
    )
    published_version_bump(locked.tournament)  # the pairings page and the rounds API show them
    audit_append(
        tournament=locked.tournament,
        user=user,
        action=Action.ROUND_SCHEDULED,
        obj=locked,
        before=before,
        after={"round": locked.number, "starts_at": starts_at, "place": place},
    )
    return locked


@transaction.atomic
def round_schedule_ahead(
    *,
    tournament: Tournament,
    number: int,
    starts_at: datetime | None,
    place: str = "",
    user: AnyUser | None = None,
) -> Round | RoundPlan:
    """Set round `number`'s scheduled start and place, paired or not yet: a round not yet
    paired keeps them as its plan, and pairing it copies them (a round robin's whole
    schedule is public from round 1)."""
    require_arbiter(user, tournament)
    tournament_lock(tournament.pk)
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is not None:
        return round_schedule(round=rnd, starts_at=starts_at, place=place, user=user)
    if not 1 <= number <= tournament.rounds_planned:
        raise ValidationError(
            {
                "round": gettext("the tournament has %(rounds_planned)s rounds")
                % {"rounds_planned": tournament.rounds_planned}
            }
        )
    plan = RoundPlan.objects.filter(tournament=tournament, number=number).first()
    before = {"starts_at": plan.starts_at, "place": plan.place} if plan else None
    plan = plan or RoundPlan(tournament=tournament, number=number)
    plan.starts_at, plan.place = starts_at, place
    plan.full_clean()
    plan.save()
    published_version_bump(tournament)  # the event's page shows the round robin's schedule
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.ROUND_SCHEDULED,
        obj=plan,
        before=before,
        after={"round": number, "starts_at": starts_at, "place": place},
    )
    return plan


@transaction.atomic
def round_unpublish(*, round: Round, user: AnyUser | None = None) -> Round:
    """Take the last published round back to a proposal while none of its games has a
    result, so that it can be edited, or discarded and paired again."""
    require_arbiter(user, round.tournament)
    tournament_lock(round.tournament_id)
    locked = Round.objects.select_for_update().get(pk=round.pk)
    if locked.status == Round.Status.DRAFT:
        raise Conflict(
            {"round": gettext("round %(number)s is not published") % {"number": locked.number}}
        )
    if locked.number != locked.tournament.rounds.count():
        raise Conflict({"round": gettext("only the last round can be taken back")})
    played = locked.games.exclude(result=Game.Result.PENDING).order_by("board")
    if played.exists():
        boards = ", ".join(str(g.board) for g in played)
        raise Conflict(
            {
                "round": gettext("round %(number)s has results on board %(boards)s: it stands")
                % {"number": locked.number, "boards": boards}
            }
        )
    round_unpublishing.send(sender=Round, round=locked, user=user)
    locked.status = Round.Status.DRAFT
    locked.save(update_fields=["status"])
    audit_append(
        tournament=locked.tournament,
        user=user,
        action=Action.ROUND_UNPUBLISHED,
        obj=locked,
        after={"round": locked.number},
    )
    published_version_bump(locked.tournament)
    return locked


@transaction.atomic
def round_discard(*, round: Round, user: AnyUser | None = None) -> int:
    """Throw away a proposed (unpublished) round, so that it can be paired again."""
    locked = _draft_locked(
        round, user, field="round", published="a published round cannot be discarded"
    )
    if locked.number != locked.tournament.rounds.count():
        raise ValidationError({"round": gettext("only the last round can be discarded")})
    number = locked.number
    audit_append(
        tournament=locked.tournament,
        user=user,
        action=Action.ROUND_DISCARDED,
        obj=locked,
        before={"round": number},
    )
    locked.delete()
    published_version_bump(round.tournament)
    return number


def _names(tournament: Tournament, ids: Sequence[int]) -> str:
    """Players as a person reads them: name and start rank (the id where none is known)."""
    regs = Registration.objects.filter(tournament=tournament, player_id__in=ids)
    known = {
        r.player_id: f"{r.player.name} (#{r.start_rank})" for r in regs.select_related("player")
    }
    return ", ".join(known.get(pid, f"player id {pid}") for pid in ids)


def _pairings_mismatch(tournament: Tournament, given: list[int], expected: list[int]) -> str:
    missing = sorted(set(expected) - set(given))
    extra = sorted(set(given) - set(expected))
    twice = sorted({x for x in given if given.count(x) > 1})
    parts = []
    if missing:
        parts.append(f"missing: {_names(tournament, missing)}")
    if extra:
        parts.append(f"not in this round: {_names(tournament, extra)}")
    if twice:
        parts.append(f"paired twice: {_names(tournament, twice)}")
    return "; ".join(parts) or "the players do not match"


@transaction.atomic
def round_pairings_edit(
    *, round: Round, pairings: Sequence[tuple[int, int | None]], user: AnyUser | None = None
) -> list[str]:
    """Replace a proposed round's pairings by hand: (first placer, second or None for the
    bye). Everyone of the round must appear once; every rule the edit breaks comes back as a
    warning (and is kept on the round) for the arbiter to weigh before publishing."""
    locked = _draft_locked(
        round, user, field="pairings", published="published pairings cannot be edited"
    )
    games = list(locked.games.all())
    requested = [g.first_id for g in games if g.kind == Game.Kind.REQUESTED_BYE]
    before = [[g.first_id, g.second_id] for g in games if g.kind != Game.Kind.REQUESTED_BYE]
    expected = sorted(x for pair in before for x in pair if x is not None)
    given = sorted(x for pair in pairings for x in pair if x is not None)
    if given != expected:
        raise ValidationError({"pairings": _pairings_mismatch(locked.tournament, given, expected)})
    byes = [a for a, b in pairings if b is None]
    if len(byes) > 1:
        raise ValidationError({"pairings": gettext("at most one pairing-allocated bye")})
    players, _ = pairing_players(tournament=locked.tournament, round_number=locked.number)
    warnings = pairing_check(
        players,
        [Pairing(a, b) for a, b in pairings if b is not None],
        byes[0] if byes else None,
        forbid_same_club=locked.tournament.forbid_same_club,
    )
    warnings = [*warnings, *pairing_warnings_from_above(locked.tournament)]
    locked.games.all().delete()
    _games_create(round=locked, pairings=pairings, requested_byes=requested)
    locked.warnings = warnings
    locked.explanation = [*locked.explanation, HAND_EDITED]
    locked.save(update_fields=["warnings", "explanation"])
    published_version_bump(locked.tournament)
    audit_append(
        tournament=locked.tournament,
        user=user,
        action=Action.PAIRINGS_EDITED,
        obj=locked,
        before={"pairings": before},
        after={"pairings": [list(p) for p in pairings], "warnings": warnings},
    )
    return warnings


@transaction.atomic
def game_spindle_choose(
    *, game: Game, chooser: int, placement: str, user: AnyUser | None = None
) -> Game:
    """Record the choice the combatants declared after the cast (Art. 2.3): `chooser` (a
    player id: the option holder, or the other when granted the option) places `placement`
    ("first" or "last"); the game's first placer follows. Only before the battle has a
    record or a result."""
    require_arbiter(user, game.round.tournament)
    locked = game_lock(game)
    tournament = locked.round.tournament
    summary = game_spindle(locked)
    if summary is None:
        raise ValidationError(
            {
                "game": gettext(
                    "no spindle was cast for this game: the event's placement order is "
                    "%(placement_order)s (Art. 2.3)"
                )
                % {"placement_order": tournament.get_placement_order_display()}
            }
        )
    if tournament.ruleset == Tournament.Ruleset.ITALIAN_SOCIETY:
        raise ValidationError(
            {
                "chooser": gettext(
                    "under the Italian society's rules the higher cast places first "
                    "(italian-society: placement): there is no choice to record"
                )
            }
        )
    casters: list[int] = summary["casters"]
    if chooser not in casters:
        raise ValidationError({"chooser": gettext("the chooser must be one of the two combatants")})
    try:
        choice = spindle_choice_check(
            spindle_cast(locked.spindle_seed, PLACEMENT_CAST),
            chooser=casters.index(chooser),
            placement=placement,
        )
    except ValueError as exc:
        raise ValidationError({"placement": str(exc)}) from None
    if locked.result or locked.first_colour_recorded:
        raise Conflict(
            {
                "game": gettext(
                    "the battle has begun (a record or a result exists): the placement order stands"
                )
            }
        )
    before = summary
    locked.spindle_chooser_id = chooser
    locked.spindle_placement = choice.placement
    locked.first_id = casters[choice.first_placer]
    locked.second_id = casters[1 - choice.first_placer]
    locked.save(update_fields=["spindle_chooser", "spindle_placement", "first", "second"])
    published_version_bump(tournament)
    after = game_spindle(locked)
    audit_append(
        tournament=tournament,
        user=user,
        action=Action.SPINDLE_CHOICE,
        obj=locked,
        before={
            "chooser": before["chooser"],
            "choice": before["choice"],
            "first_placer": before["first_placer"],
        },
        after={**(after or {}), "article": "2.3"},
    )
    return locked
