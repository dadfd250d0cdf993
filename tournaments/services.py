"""Writes of the tournament: each service is one transaction and validates before it saves."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import Game
from tournaments.models import ByeRequest, Club, Player, Registration, Round, Tournament
from tournaments.standings import TIEBREAKS

User = AbstractBaseUser | AnonymousUser


def user_can_arbitrate(*, user: Any, tournament: Tournament) -> bool:
    """Staff, the organizer and the tournament's arbiters may change it."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or tournament.organizer_id == user.pk:
        return True
    return tournament.arbiters.filter(pk=user.pk).exists()


def _require_arbiter(user: Any, tournament: Tournament) -> None:
    if user is not None and not user_can_arbitrate(user=user, tournament=tournament):
        raise PermissionDenied("only this tournament's arbiters may do that")


def _validate_tiebreaks(value: str) -> None:
    for name in (t.strip() for t in value.split(",") if t.strip()):
        if name not in TIEBREAKS:
            raise ValidationError({"tiebreaks": f"unknown tie-break {name!r}"})


@transaction.atomic
def tournament_create(
    *,
    name: str,
    slug: str,
    start_date: date,
    organizer: Any = None,
    **fields: Any,
) -> Tournament:
    tournament = Tournament(name=name, slug=slug, start_date=start_date, **fields)
    if organizer is not None and getattr(organizer, "is_authenticated", False):
        tournament.organizer = organizer
    _validate_tiebreaks(tournament.tiebreaks)
    tournament.full_clean()
    tournament.save()
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, user: Any = None, **fields: Any) -> Tournament:
    """Change settings; those that change results are locked once round 1 is paired."""
    _require_arbiter(user, tournament)
    locked = tournament.rounds.exists()
    errors = {}
    for key, value in fields.items():
        if not hasattr(tournament, key) or key in ("id", "slug", "standings_version"):
            errors[key] = "not a setting that can be changed"
        elif locked and key in Tournament.RESULT_SETTINGS and getattr(tournament, key) != value:
            errors[key] = "locked: round 1 has been paired"
    if errors:
        raise ValidationError(errors)
    before = {key: getattr(tournament, key) for key in fields}
    for key, value in fields.items():
        setattr(tournament, key, value)
    _audit(tournament, user, "settings", tournament, before, fields)
    if "tiebreaks" in fields:
        _validate_tiebreaks(tournament.tiebreaks)
    tournament.full_clean()
    tournament.standings_version = F("standings_version") + 1
    tournament.save()
    tournament.refresh_from_db()
    return tournament


@transaction.atomic
def club_create(*, name: str, **fields: Any) -> Club:
    club = Club(name=name, **fields)
    club.full_clean()
    club.save()
    return club


@transaction.atomic
def player_create(*, name: str, club: Club | None = None, **fields: Any) -> Player:
    player = Player(name=name, club=club, **fields)
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def registration_create(
    *, tournament: Tournament, player: Player, user: Any = None, first_round: int | None = None
) -> Registration:
    """Register a player; after round 1 is paired this is a late entry from the next round."""
    _require_arbiter(user, tournament)
    paired = tournament.rounds.count()
    if first_round is None:
        first_round = paired + 1
    if first_round <= paired:
        raise ValidationError({"first_round": f"round {paired} is already paired"})
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        raise ValidationError({"player": "already registered"})
    rank = tournament.registrations.count() + 1
    reg = Registration(
        tournament=tournament, player=player, first_round=first_round, start_rank=rank
    )
    reg.full_clean()
    reg.save()
    _bump(tournament)
    return reg


@transaction.atomic
def registration_withdraw(
    *, registration: Registration, user: Any = None, expelled: bool = False
) -> Registration:
    """Withdraw (or expel, Art. 12.4 g) from all later rounds; played games stand."""
    reg = Registration.objects.select_for_update().get(pk=registration.pk)
    _require_arbiter(user, reg.tournament)
    reg.status = Registration.Status.EXPELLED if expelled else Registration.Status.WITHDRAWN
    reg.last_round = reg.tournament.rounds.count()
    reg.save(update_fields=["status", "last_round"])
    _audit(reg.tournament, user, "withdrawal", reg, None, {"status": reg.status})
    _bump(reg.tournament)
    return reg


@transaction.atomic
def bye_request_create(
    *, registration: Registration, round_number: int, user: Any = None
) -> ByeRequest:
    _require_arbiter(user, registration.tournament)
    if registration.tournament.rounds.filter(number=round_number).exists():
        raise ValidationError({"round_number": f"round {round_number} is already paired"})
    bye, _ = ByeRequest.objects.get_or_create(registration=registration, round_number=round_number)
    return bye


@transaction.atomic
def round_create(
    *,
    tournament: Tournament,
    pairings: Sequence[tuple[int, int | None]],
    requested_byes: Sequence[int] = (),
    user: Any = None,
    status: str = Round.Status.PUBLISHED,
) -> Round:
    """Store the next round: (first placer id, second id or None for the pairing bye)."""
    _require_arbiter(user, tournament)
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    number = tournament.rounds.count() + 1
    if number > tournament.rounds_planned:
        raise ValidationError({"round": f"the tournament has {tournament.rounds_planned} rounds"})
    seen: set[int] = set()
    for first, second in pairings:
        for pid in (first, second):
            if pid is None:
                continue
            if pid in seen:
                raise ValidationError({"pairings": f"player {pid} is paired twice"})
            seen.add(pid)
    rnd = Round.objects.create(tournament=tournament, number=number, status=status)
    board = 0
    for first, second in pairings:
        board += 1
        kind = Game.Kind.GAME if second is not None else Game.Kind.BYE
        Game.objects.create(round=rnd, board=board, kind=kind, first_id=first, second_id=second)
    for pid in requested_byes:
        board += 1
        Game.objects.create(round=rnd, board=board, kind=Game.Kind.REQUESTED_BYE, first_id=pid)
    _audit(
        tournament,
        user,
        "round_paired",
        rnd,
        None,
        {
            "round": number,
            "pairings": [list(p) for p in pairings],
            "requested_byes": list(requested_byes),
        },
    )
    _bump(tournament)
    return rnd


@transaction.atomic
def game_result_set(*, game: Game, result: str, user: Any = None) -> Game:
    """Enter or correct a result. Entering the same result twice changes nothing."""
    locked = (
        Game.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=game.pk)
    )
    tournament = locked.round.tournament
    _require_arbiter(user, tournament)
    if result not in Game.Result.values:
        raise ValidationError({"result": f"unknown result {result!r}"})
    if locked.kind != Game.Kind.GAME:
        raise ValidationError({"result": "a bye has no result to enter"})
    if locked.result == result:
        return locked
    before = locked.result
    locked.result = result
    locked.result_entered_by = user if getattr(user, "is_authenticated", False) else None
    locked.result_entered_at = timezone.now()
    locked.save(update_fields=["result", "result_entered_by", "result_entered_at"])
    _audit(tournament, user, "result", locked, {"result": before}, {"result": result})
    _bump(tournament)
    return locked


def _bump(tournament: Tournament) -> None:
    """Invalidate cached standings: their cache key carries this version."""
    Tournament.objects.filter(pk=tournament.pk).update(standings_version=F("standings_version") + 1)


TRF_FIRST_RESULT = {
    "1": Game.Result.FIRST_WIN,
    "W": Game.Result.FIRST_WIN,
    "0": Game.Result.SECOND_WIN,
    "L": Game.Result.SECOND_WIN,
    "=": Game.Result.DRAW,
    "D": Game.Result.DRAW,
    "+": Game.Result.FIRST_FORFEIT_WIN,
}


@transaction.atomic
def tournament_import_trf(*, text: str, organizer: Any = None) -> Tournament:
    """Create a tournament with its players and played rounds from a TRF file."""
    from django.utils.text import slugify

    from tournaments.trf import TrfError, read_trf

    trf = read_trf(text)
    start = _trf_date(trf.start_date) or timezone.now().date()
    base = slugify(trf.name)[:60] or "imported"
    slug = base
    n = 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    tournament = tournament_create(
        name=trf.name or slug,
        slug=slug,
        start_date=start,
        end_date=_trf_date(trf.end_date),
        venue=trf.city,
        rounds_planned=max(trf.rounds, 1),
        organizer=organizer,
    )
    player_of: dict[int, Player] = {}
    for tp in sorted(trf.players, key=lambda p: p.start_rank):
        player = player_create(name=tp.name, rating=tp.rating, federation=tp.federation[:3])
        Registration.objects.create(tournament=tournament, player=player, start_rank=tp.start_rank)
        player_of[tp.start_rank] = player
    for rnd in range(1, trf.rounds + 1):
        games = [(tp, g) for tp in trf.players for g in tp.games if g.round == rnd]
        if not games:
            continue
        round_ = Round.objects.create(tournament=tournament, number=rnd)
        board = 0
        done: set[int] = set()
        for tp, g in sorted(games, key=lambda x: x[0].start_rank):
            if tp.start_rank in done:
                continue
            board += 1
            me = player_of[tp.start_rank]
            if g.opponent is None:
                kind = Game.Kind.BYE if g.code == "U" else Game.Kind.REQUESTED_BYE
                if g.code == "-":
                    board -= 1
                    continue  # absent
                Game.objects.create(round=round_, board=board, kind=kind, first=me)
                done.add(tp.start_rank)
                continue
            other = next((og for og in _games_of(trf, g.opponent) if og.round == rnd), None)
            if other is None or other.opponent != tp.start_rank:
                raise TrfError(
                    f"round {rnd}: {tp.start_rank} meets {g.opponent}, who does not meet them"
                )
            first_is_me = g.colour != "b"
            mine, theirs = (g, other) if first_is_me else (other, g)
            if mine.code == "-" and theirs.code == "-":
                result = Game.Result.DOUBLE_FORFEIT
            elif mine.code == "-" and theirs.code == "+":
                result = Game.Result.SECOND_FORFEIT_WIN
            else:
                result = TRF_FIRST_RESULT.get(mine.code, Game.Result.PENDING)
            first, second = (me, player_of[g.opponent])
            if not first_is_me:
                first, second = second, first
            Game.objects.create(
                round=round_, board=board, first=first, second=second, result=result
            )
            done |= {tp.start_rank, g.opponent}
    _bump(tournament)
    return tournament


def _games_of(trf: Any, start_rank: int) -> list[Any]:
    for p in trf.players:
        if p.start_rank == start_rank:
            return list(p.games)
    return []


def _trf_date(text: str) -> date | None:
    import re

    m = re.match(r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", text.strip())
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def pairing_players(*, tournament: Tournament, round_number: int) -> tuple[list[Any], list[int]]:
    """(PairingPlayer for everyone to pair in `round_number`, ids asking for a bye)."""
    from tournaments.pairing import PairingPlayer
    from tournaments.selectors import standings_compute

    scores = {row.entrant.id: row.score for row in standings_compute(tournament=tournament)}
    opponents: dict[int, set[int]] = {}
    placements: dict[int, list[tuple[int, str]]] = {}
    byes: set[int] = set()
    for g in Game.objects.filter(round__tournament=tournament).values(
        "round__number", "kind", "first_id", "second_id"
    ):
        if g["kind"] == Game.Kind.BYE:
            byes.add(g["first_id"])
        if g["second_id"] is not None:
            opponents.setdefault(g["first_id"], set()).add(g["second_id"])
            opponents.setdefault(g["second_id"], set()).add(g["first_id"])
            placements.setdefault(g["first_id"], []).append((g["round__number"], "F"))
            placements.setdefault(g["second_id"], []).append((g["round__number"], "S"))
    requested = set(
        ByeRequest.objects.filter(
            registration__tournament=tournament, round_number=round_number
        ).values_list("registration__player_id", flat=True)
    )
    players = []
    regs = Registration.objects.filter(tournament=tournament).select_related("player__club")
    for i, reg in enumerate(regs.order_by("start_rank", "id"), start=1):
        if reg.status != Registration.Status.ACTIVE or reg.first_round > round_number:
            continue
        if reg.player_id in requested:
            continue
        pid = reg.player_id
        players.append(
            PairingPlayer(
                id=pid,
                rank=reg.start_rank or i,
                score=scores.get(pid, 0.0),
                rating=reg.player.rating,
                opponents=frozenset(opponents.get(pid, ())),
                had_bye=pid in byes,
                placements=tuple(p for _, p in sorted(placements.get(pid, []))),
                club=reg.player.club.name if reg.player.club else "",
            )
        )
    return players, sorted(requested)


@transaction.atomic
def round_pair(
    *,
    tournament: Tournament,
    user: Any = None,
    round_number: int | None = None,
    publish: bool = True,
) -> Round:
    """Pair the next round with the tournament's system and store it."""
    from tournaments.pairing import berger_round, knockout_bracket, pair_swiss

    _require_arbiter(user, tournament)
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    number = tournament.rounds.count() + 1
    if round_number is not None and round_number != number:
        raise ValidationError({"round": f"the next round to pair is round {number}"})
    players, requested = pairing_players(tournament=tournament, round_number=number)
    system = tournament.pairing_system
    explanation: list[str] = []
    warnings: list[str] = []
    pairs: list[tuple[int, int | None]] = []
    if system == Tournament.PairingSystem.SWISS:
        result = pair_swiss(
            players, balanced=tournament.placement_order == "balanced", round_number=number
        )
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
    else:
        seeds = [p.id for p in sorted(players, key=lambda p: (-p.score, p.rank))]
        pairs = list(knockout_bracket(seeds))
        explanation = ["knockout bracket by seeding; byes to the top seeds"]
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
    if tournament.placement_order == Tournament.PlacementOrder.SPINDLE:
        import secrets

        for game in rnd.games.filter(kind=Game.Kind.GAME):
            game.spindle_seed = f"{tournament.slug}/{number}/{game.board}/{secrets.token_hex(8)}"
            game.save(update_fields=["spindle_seed"])
    return rnd


PENALTY_NEEDS_GAME = {
    "opponent_time",
    "offender_time",
    "battle_lost",
    "reduce_points",
    "raise_opponent",
    "extra_time",
}


def _side_in_game(game: Game, player_id: int) -> str:
    """The colour a player had in a game: the record's FirstPlacement names the first
    placer's colour (green when unknown)."""
    first_color = game.first_color
    if not first_color:
        sub = game.submissions.order_by("-version", "-id").first()
        if sub is not None and sub.readable:
            from rules.record import read_record

            first_color = read_record(sub.text).tags.get("FirstPlacement", "green").lower()
    first_color = first_color if first_color in ("green", "gold") else "green"
    other = "gold" if first_color == "green" else "green"
    return first_color if player_id == game.first_id else other


@transaction.atomic
def penalty_impose(
    *,
    tournament: Tournament,
    player: Player,
    kind: str,
    reason: str,
    user: Any,
    game: Game | None = None,
    round_number: int | None = None,
    amount: Any = None,
) -> Any:
    """Record a penalty and take its effect at once (tournaments.md, Art. 12.4, 12.5)."""
    from decimal import Decimal, InvalidOperation

    from tournaments.audit import audit_append
    from tournaments.models import Penalty

    _require_arbiter(user, tournament)
    if kind not in Penalty.Kind.values or kind == Penalty.Kind.REVOCATION:
        raise ValidationError({"kind": f"unknown penalty {kind!r}"})
    if not reason.strip():
        raise ValidationError({"reason": "say why"})
    if not Registration.objects.filter(tournament=tournament, player=player).exists():
        raise ValidationError({"player": "not a combatant of this tournament"})
    if kind in PENALTY_NEEDS_GAME:
        if game is None or game.round.tournament_id != tournament.pk:
            raise ValidationError({"game": "this penalty applies to a game of the tournament"})
        if player.pk not in (game.first_id, game.second_id):
            raise ValidationError({"player": "not a combatant of that game"})
    if kind in ("opponent_time", "offender_time", "extra_time", "reduce_points"):
        try:
            amount = Decimal(str(amount))
        except (InvalidOperation, TypeError, ValueError):
            raise ValidationError({"amount": "a number is needed"}) from None
        if amount <= 0:
            raise ValidationError({"amount": "must be positive"})
    penalty = Penalty.objects.create(
        tournament=tournament,
        player=player,
        game=game,
        kind=kind,
        article=Penalty.ARTICLES[kind],
        reason=reason,
        amount=amount,
        arbiter=user if getattr(user, "is_authenticated", False) else None,
        round_number=round_number or (game.round.number if game else None),
    )
    _penalty_effect(penalty, sign=1, user=user)
    audit_append(
        tournament=tournament,
        user=user,
        action="penalty",
        obj=penalty,
        after={
            "kind": kind,
            "player": player.pk,
            "game": game.pk if game else None,
            "amount": str(amount) if amount is not None else None,
            "reason": reason,
        },
    )
    _bump(tournament)
    return penalty


def _penalty_effect(penalty: Any, *, sign: int, user: Any) -> None:
    """Clock and registration effects; result effects are read by the standings."""
    from games.services import clock_adjustment_add

    kind = penalty.kind
    game = penalty.game
    if kind in ("opponent_time", "offender_time", "extra_time"):
        assert game is not None
        seconds = int(penalty.amount)
        mine = _side_in_game(game, penalty.player_id)
        if kind == "opponent_time":
            side = "gold" if mine == "green" else "green"
        else:
            side = mine
            if kind == "offender_time":
                seconds = -seconds
        clock_adjustment_add(
            game=game,
            side=side,
            seconds=sign * seconds,
            article=penalty.article,
            reason=penalty.reason,
            user=user,
        )
    elif kind in ("expulsion", "dismissal"):
        reg = Registration.objects.get(tournament=penalty.tournament, player=penalty.player)
        if sign > 0:
            registration_withdraw(registration=reg, user=user, expelled=True)
        else:
            reg.status = Registration.Status.ACTIVE
            reg.last_round = None
            reg.save(update_fields=["status", "last_round"])


@transaction.atomic
def penalty_revoke(*, penalty: Any, reason: str, user: Any) -> Any:
    """Undo a penalty with a new entry; the original stays on record."""
    from tournaments.audit import audit_append
    from tournaments.models import Penalty

    _require_arbiter(user, penalty.tournament)
    if penalty.kind == Penalty.Kind.REVOCATION:
        raise ValidationError({"penalty": "a revocation cannot be revoked"})
    if Penalty.objects.filter(revokes=penalty).exists():
        raise ValidationError({"penalty": "already revoked"})
    revocation = Penalty.objects.create(
        tournament=penalty.tournament,
        player=penalty.player,
        game=penalty.game,
        kind=Penalty.Kind.REVOCATION,
        article=penalty.article,
        reason=reason,
        revokes=penalty,
        arbiter=user if getattr(user, "is_authenticated", False) else None,
        round_number=penalty.round_number,
    )
    _penalty_effect(penalty, sign=-1, user=user)
    audit_append(
        tournament=penalty.tournament,
        user=user,
        action="penalty_revoked",
        obj=revocation,
        before={"penalty": penalty.pk},
        after={"reason": reason},
    )
    _bump(penalty.tournament)
    return revocation


def _audit(
    tournament: Tournament, user: Any, action: str, obj: Any, before: Any, after: Any
) -> None:
    from tournaments.audit import audit_append

    audit_append(
        tournament=tournament, user=user, action=action, obj=obj, before=before, after=after
    )
