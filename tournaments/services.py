"""Writes of the tournament: each service is one transaction and validates before it saves."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F, Prefetch
from django.utils import timezone

from games.models import Game
from tournaments.models import (
    ByeRequest,
    Club,
    PairingJob,
    Player,
    Registration,
    Round,
    Tournament,
)
from tournaments.roles import (
    Role,
    role_require,
    user_can_arbitrate,
    user_is_official,
    user_is_organizer,
)
from tournaments.standings import TIEBREAKS

User = AbstractBaseUser | AnonymousUser


def _require_arbiter(user: Any, tournament: Tournament) -> None:
    role_require(user=user, tournament=tournament, role=Role.ARBITER)


def _require_official(user: Any) -> None:
    if user is not None and not user_is_official(user):
        raise PermissionDenied("only organizers and arbiters may do that")


def _validate_rules(tournament: Tournament) -> None:
    """The variants must be ones the engine plays, and playable with the ruleset."""
    from rules.variants import SUPPORTED_VARIANTS, combination_problem, parse_variants

    names = sorted(parse_variants(tournament.variants))
    unknown = [v for v in names if v not in SUPPORTED_VARIANTS]
    if unknown:
        known = ", ".join(sorted(SUPPORTED_VARIANTS))
        raise ValidationError({"variants": f"unknown variant {unknown[0]!r} (known: {known})"})
    problem = combination_problem(tournament.ruleset, frozenset(names))
    if problem:
        raise ValidationError({"variants": problem})
    tournament.variants = ",".join(names)
    if tournament.ruleset == "italian-society" and not tournament.time_control:
        # The society's battles last twenty minutes: ten on each clock.
        tournament.time_control = "600"


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
    if organizer is not None and not user_is_organizer(organizer):
        raise PermissionDenied("only organizers may create tournaments")
    tournament = Tournament(name=name, slug=slug, start_date=start_date, **fields)
    if organizer is not None and getattr(organizer, "is_authenticated", False):
        tournament.organizer = organizer
    _validate_tiebreaks(tournament.tiebreaks)
    _validate_rules(tournament)
    tournament.full_clean()
    tournament.save()
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, user: Any = None, **fields: Any) -> Tournament:
    """Change settings; those that change results are locked once round 1 is paired.
    The chief arbiter and the organizer may do this; officials are set by officials_set."""
    role_require(user=user, tournament=tournament, role=Role.CHIEF_ARBITER)
    locked = tournament.rounds.exists()
    errors = {}
    for key, value in fields.items():
        if key not in SETTINGS:
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
    _validate_rules(tournament)
    tournament.full_clean()
    tournament.standings_version = F("standings_version") + 1
    tournament.save()
    tournament.refresh_from_db()
    return tournament


SETTINGS = (
    "name",
    "start_date",
    "end_date",
    "venue",
    "ruleset",
    "variants",
    "time_control",
    "pairing_system",
    "rounds_planned",
    "forfeit_win_points",
    "forfeit_loss_points",
    "bye_points",
    "requested_bye_points",
    "tiebreaks",
    "placement_order",
    "local_rules",
    "resignation_allowed",
    "result_confirmation",
    "forbid_same_club",
    "accelerated_rounds",
)


@transaction.atomic
def officials_set(
    *,
    tournament: Tournament,
    user: Any,
    chief_arbiter: Any = None,
    arbiters: Sequence[Any] = (),
) -> Tournament:
    """The organizer names the chief arbiter and the arbiters."""
    role_require(user=user, tournament=tournament, role=Role.ORGANIZER)
    t = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = {
        "chief_arbiter": t.chief_arbiter.get_username() if t.chief_arbiter else None,
        "arbiters": sorted(a.get_username() for a in t.arbiters.all()),
    }
    t.chief_arbiter = chief_arbiter
    t.save(update_fields=["chief_arbiter"])
    t.arbiters.set(arbiters)
    after = {
        "chief_arbiter": chief_arbiter.get_username() if chief_arbiter else None,
        "arbiters": sorted(a.get_username() for a in arbiters),
    }
    if before != after:
        _audit(t, user, "officials", t, before, after)
    return t


@transaction.atomic
def club_create(*, name: str, user: Any = None, **fields: Any) -> Club:
    _require_official(user)
    club = Club(name=name, **fields)
    club.full_clean()
    club.save()
    return club


@transaction.atomic
def player_create(
    *, name: str, club: Club | None = None, user: Any = None, **fields: Any
) -> Player:
    _require_official(user)
    player = Player(name=name, club=club, **fields)
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def player_link_user(*, player: Player, account: Any, user: Any = None) -> Player:
    """Link a player to a user account (or unlink with None), so that they can submit and
    sign their records and see their penalties. Arbiters link players of their events."""
    if user is not None and not getattr(user, "is_staff", False):
        tournaments = list(Tournament.objects.filter(registrations__player=player))
        if tournaments:
            allowed = any(user_can_arbitrate(user=user, tournament=t) for t in tournaments)
        else:
            allowed = user_is_official(user)
        if not allowed:
            raise PermissionDenied("only arbiters of this player's tournaments may do that")
    locked = Player.objects.select_for_update().get(pk=player.pk)
    if account is not None:
        taken = Player.objects.filter(user=account).exclude(pk=locked.pk).first()
        if taken is not None:
            raise ValidationError({"account": f"already linked to player {taken.name}"})
    before = locked.user.get_username() if locked.user else None
    locked.user = account
    locked.save(update_fields=["user"])
    for reg in locked.registrations.select_related("tournament"):
        _audit(
            reg.tournament,
            user,
            "player_account",
            locked,
            {"account": before},
            {"account": account.get_username() if account else None},
        )
    return locked


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


def _next_round_number(tournament: Tournament) -> int:
    return tournament.rounds.count() + 1


def _next_round_check(tournament: Tournament, number: int) -> None:
    """Refuse to add round `number` while a proposed round waits or beyond the plan."""
    draft = tournament.rounds.filter(status=Round.Status.DRAFT).first()
    if draft is not None:
        raise ValidationError(
            {"round": f"round {draft.number} is proposed: publish or discard it first"}
        )
    if number > tournament.rounds_planned:
        raise ValidationError({"round": f"the tournament has {tournament.rounds_planned} rounds"})


def _games_create(
    *, round: Round, pairings: Sequence[tuple[int, int | None]], requested_byes: Sequence[int]
) -> None:
    """The round's games on boards 1, 2, ...: the pairings (None second: the pairing bye),
    then the requested byes."""
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
    games += [
        Game(round=round, board=board, kind=Game.Kind.REQUESTED_BYE, first_id=pid)
        for board, pid in enumerate(requested_byes, start=len(games) + 1)
    ]
    Game.objects.bulk_create(games)


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
    number = _next_round_number(tournament)
    _next_round_check(tournament, number)
    seen: set[int] = set()
    for first, second in pairings:
        for pid in (first, second):
            if pid is None:
                continue
            if pid in seen:
                raise ValidationError({"pairings": f"player {pid} is paired twice"})
            seen.add(pid)
    rnd = Round.objects.create(tournament=tournament, number=number, status=status)
    _games_create(round=rnd, pairings=pairings, requested_byes=requested_byes)
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


def _game_locked(game: Game) -> Game:
    """The game's row locked (not its round's or tournament's), with both loaded."""
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=game.pk)
    )


@transaction.atomic
def game_result_set(*, game: Game, result: str, user: Any = None) -> Game:
    """Enter or correct a result. Entering the same result twice changes nothing. With the
    tournament's result_confirmation on, the result waits for a second account's
    confirmation (game_result_countersign) before it counts."""
    locked = _game_locked(game)
    tournament = locked.round.tournament
    _require_arbiter(user, tournament)
    if result not in Game.Result.values:
        raise ValidationError({"result": f"unknown result {result!r}"})
    if locked.kind != Game.Kind.GAME:
        raise ValidationError({"result": "a bye has no result to enter"})
    if locked.round.status == Round.Status.DRAFT:
        raise ValidationError({"result": "the round is not published yet"})
    if locked.result == result:
        return locked
    before = locked.result
    account = user if getattr(user, "is_authenticated", False) else None
    now = timezone.now()
    locked.result = result
    locked.result_entered_by = account
    locked.result_entered_at = now
    if tournament.result_confirmation and result and account is not None:
        locked.result_confirmed_by, locked.result_confirmed_at = None, None
    else:
        locked.result_confirmed_by, locked.result_confirmed_at = account, now
    locked.save(
        update_fields=[
            "result",
            "result_entered_by",
            "result_entered_at",
            "result_confirmed_by",
            "result_confirmed_at",
        ]
    )
    _audit(tournament, user, "result", locked, {"result": before}, {"result": result})
    _bump(tournament)
    return locked


@transaction.atomic
def game_result_countersign(*, game: Game, user: Any) -> Game:
    """The second person's confirmation of an entered result: never the account that
    entered it."""
    locked = _game_locked(game)
    tournament = locked.round.tournament
    _require_arbiter(user, tournament)
    if not locked.result:
        raise ValidationError({"result": "no result has been entered"})
    if locked.result_confirmed_at is not None:
        raise ValidationError({"result": "the result is confirmed already"})
    if locked.result_entered_by_id == getattr(user, "pk", None):
        raise ValidationError(
            {"result": "a result is confirmed by a second person, not by the one who entered it"}
        )
    locked.result_confirmed_by = user
    locked.result_confirmed_at = timezone.now()
    locked.save(update_fields=["result_confirmed_by", "result_confirmed_at"])
    _audit(tournament, user, "result_confirmed", locked, None, {"result": locked.result})
    _bump(tournament)
    return locked


def _draft_locked(round: Round, user: Any, *, field: str, published: str) -> Round:
    """The round locked, for an arbiter, while it is still a proposal; once published the
    caller's error `published` is raised under `field` ("{number}" is the round's)."""
    _require_arbiter(user, round.tournament)
    locked = Round.objects.select_for_update().get(pk=round.pk)
    if locked.status != Round.Status.DRAFT:
        raise ValidationError({field: published.format(number=locked.number)})
    return locked


@transaction.atomic
def round_publish(*, round: Round, user: Any = None) -> Round:
    """Make a proposed round official: the players see it and results can be entered."""
    locked = _draft_locked(
        round, user, field="round", published="round {number} is published already"
    )
    locked.status = Round.Status.PUBLISHED
    locked.save(update_fields=["status"])
    _audit(locked.tournament, user, "round_published", locked, None, {"round": locked.number})
    _bump(locked.tournament)
    return locked


@transaction.atomic
def round_discard(*, round: Round, user: Any = None) -> int:
    """Throw away a proposed (unpublished) round, so that it can be paired again."""
    locked = _draft_locked(
        round, user, field="round", published="a published round cannot be discarded"
    )
    if locked.number != locked.tournament.rounds.count():
        raise ValidationError({"round": "only the last round can be discarded"})
    number = locked.number
    _audit(locked.tournament, user, "round_discarded", locked, {"round": number}, None)
    locked.delete()
    _bump(round.tournament)
    return number


@transaction.atomic
def round_pairings_edit(
    *, round: Round, pairings: Sequence[tuple[int, int | None]], user: Any = None
) -> list[str]:
    """Replace a proposed round's pairings by hand: (first placer, second or None for the
    bye). Everyone of the round must appear once; every rule the edit breaks comes back as a
    warning (and is kept on the round) for the arbiter to weigh before publishing."""
    from tournaments.pairing import Pairing
    from tournaments.pairing.swiss import pairing_check

    locked = _draft_locked(
        round, user, field="pairings", published="published pairings cannot be edited"
    )
    games = list(locked.games.all())
    requested = [g.first_id for g in games if g.kind == Game.Kind.REQUESTED_BYE]
    before = [[g.first_id, g.second_id] for g in games if g.kind != Game.Kind.REQUESTED_BYE]
    expected = sorted(x for pair in before for x in pair if x is not None)
    given = sorted(x for pair in pairings for x in pair if x is not None)
    if given != expected:
        missing = sorted(set(expected) - set(given))
        extra = sorted(set(given) - set(expected))
        twice = sorted({x for x in given if given.count(x) > 1})
        parts = []
        if missing:
            parts.append(f"missing players {missing}")
        if extra:
            parts.append(f"players not in this round {extra}")
        if twice:
            parts.append(f"players paired twice {twice}")
        raise ValidationError({"pairings": "; ".join(parts) or "the players do not match"})
    byes = [a for a, b in pairings if b is None]
    if len(byes) > 1:
        raise ValidationError({"pairings": "at most one pairing-allocated bye"})
    players, _ = pairing_players(tournament=locked.tournament, round_number=locked.number)
    warnings = pairing_check(
        players,
        [Pairing(a, b) for a, b in pairings if b is not None],
        byes[0] if byes else None,
    )
    locked.games.all().delete()
    _games_create(round=locked, pairings=pairings, requested_byes=requested)
    locked.warnings = warnings
    locked.explanation = [*locked.explanation, "pairings edited by hand"]
    locked.save(update_fields=["warnings", "explanation"])
    _audit(
        locked.tournament,
        user,
        "pairings_edited",
        locked,
        {"pairings": before},
        {"pairings": [list(p) for p in pairings], "warnings": warnings},
    )
    return warnings


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
    earlier = Game.objects.filter(round__tournament=tournament, round__number__lt=round_number)
    for g in earlier.values("round__number", "kind", "first_id", "second_id"):
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
    progress: Any = None,
) -> Round:
    """Pair the next round with the tournament's system and store it. `progress`, if
    given, is called with (fraction done, what is being done) as the pairing goes."""
    from tournaments.pairing import berger_round, knockout_bracket, pair_swiss

    _require_arbiter(user, tournament)
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    number = _next_round_number(tournament)
    if round_number is not None and round_number != number:
        raise ValidationError({"round": f"the next round to pair is round {number}"})
    players, requested = pairing_players(tournament=tournament, round_number=number)
    system = tournament.pairing_system
    explanation: list[str] = []
    warnings: list[str] = []
    pairs: list[tuple[int, int | None]] = []
    if system == Tournament.PairingSystem.SWISS:
        result = pair_swiss(
            players,
            balanced=tournament.placement_order == "balanced",
            round_number=number,
            forbid_same_club=tournament.forbid_same_club,
            accelerated=number <= tournament.accelerated_rounds,
            progress=progress,
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
    elif number == 1:
        seeds = [p.id for p in sorted(players, key=lambda p: p.rank)]
        pairs = list(knockout_bracket(seeds))
        explanation = ["knockout bracket by seeding; byes to the top seeds"]
    else:
        kind, pairs = _knockout_progress(tournament)
        if kind == "done":
            raise ValidationError({"round": "the knockout is decided: no round is left"})
        explanation = [
            "replays of the undecided ties (placement swapped)"
            if kind == "replay"
            else "winners of neighbouring ties meet"
        ]
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


KNOCKOUT_OUTCOME = {
    Game.Result.FIRST_WIN: "first",
    Game.Result.FIRST_FORFEIT_WIN: "first",
    Game.Result.SECOND_WIN: "second",
    Game.Result.SECOND_FORFEIT_WIN: "second",
    Game.Result.DRAW: "draw",
    Game.Result.DOUBLE_FORFEIT: "draw",
    Game.Result.PENDING: "",
}


def _knockout_progress(tournament: Tournament) -> tuple[str, list[tuple[int, int | None]]]:
    """Walk the knockout's stored rounds: each is either a new stage or the replays of the
    stage before; what comes next follows from the last one."""
    rounds = list(
        tournament.rounds.order_by("number").prefetch_related(
            Prefetch("games", queryset=Game.objects.order_by("board"))
        )
    )
    stage: list[tuple[int, int | None]] = []
    played: list[tuple[int, int, str]] = []
    for i, rnd in enumerate(rounds):
        games = [g for g in rnd.games.all() if g.kind != Game.Kind.REQUESTED_BYE]
        if i > 0:
            kind, _ = _knockout_step(stage, played, rnd.number - 1)
            if kind == "next":
                stage, played = [], []
        if not stage:
            stage = [(g.first_id, g.second_id) for g in games]
        played += [
            (g.first_id, g.second_id, KNOCKOUT_OUTCOME[Game.Result(g.result)])
            for g in games
            if g.second_id is not None
        ]
    return _knockout_step(stage, played, rounds[-1].number)


def _knockout_step(
    stage: list[tuple[int, int | None]], played: list[tuple[int, int, str]], number: int
) -> tuple[str, list[tuple[int, int | None]]]:
    from tournaments.pairing import knockout_next_round

    try:
        return knockout_next_round(stage, played)
    except ValueError as exc:
        raise ValidationError({"round": f"round {number}: {exc}"}) from None


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

    # Expulsion and dismissal end a player's event: the chief arbiter's decision.
    needed = Role.CHIEF_ARBITER if kind in ("expulsion", "dismissal") else Role.ARBITER
    role_require(user=user, tournament=tournament, role=needed)
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


# Fields at least this large are paired by a worker, with progress on the arbiter's page.
PAIR_IN_WORKER_FROM = 200


@transaction.atomic
def pairing_job_create(*, tournament: Tournament, user: Any = None) -> PairingJob:
    """Queue the pairing of the next round in a worker (once committed)."""
    _require_arbiter(user, tournament)
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    busy = tournament.pairing_jobs.filter(
        status__in=[PairingJob.Status.QUEUED, PairingJob.Status.RUNNING]
    ).first()
    if busy is not None:
        raise ValidationError({"round": f"round {busy.round_number} is being paired already"})
    number = _next_round_number(tournament)
    _next_round_check(tournament, number)
    job = PairingJob.objects.create(
        tournament=tournament,
        round_number=number,
        requested_by=user if getattr(user, "is_authenticated", False) else None,
    )
    transaction.on_commit(lambda: _pairing_job_enqueue(job.pk))
    return job


def _pairing_job_enqueue(job_id: int) -> None:
    from tournaments.tasks import pair_round_task

    try:
        pair_round_task.apply_async(args=[job_id], retry=False)
    except Exception as exc:  # noqa: BLE001 - a broker failure is shown on the job
        from django.conf import settings

        if settings.CELERY_TASK_ALWAYS_EAGER:
            raise
        PairingJob.objects.filter(pk=job_id).update(
            status=PairingJob.Status.FAILED, message=f"no worker could be reached: {exc}"
        )


def pairing_progress_key(job_id: int) -> str:
    return f"kz:pairing-job:{job_id}"


def pairing_job_run(*, job_id: int) -> PairingJob:
    """Pair the job's round as a proposal, writing progress as it goes (idempotent: a
    finished job is left alone)."""
    job = PairingJob.objects.select_related("tournament", "requested_by").get(pk=job_id)
    if job.status in (PairingJob.Status.DONE, PairingJob.Status.FAILED):
        return job
    PairingJob.objects.filter(pk=job.pk).update(status=PairingJob.Status.RUNNING)
    last = [0.0]

    def progress(fraction: float, what: str) -> None:
        # The pairing runs inside round_pair's transaction, where a row update would stay
        # invisible until the end: progress goes to the cache (Redis when workers run
        # apart), at most every 2 %.
        if fraction - last[0] >= 0.02 or fraction == 0:
            last[0] = fraction
            cache.set(pairing_progress_key(job.pk), (fraction, what), 3600)

    try:
        rnd = round_pair(
            tournament=job.tournament,
            user=job.requested_by,
            round_number=job.round_number,
            publish=False,
            progress=progress,
        )
    except (ValidationError, PermissionDenied) as exc:
        PairingJob.objects.filter(pk=job.pk).update(
            status=PairingJob.Status.FAILED,
            message="; ".join(getattr(exc, "messages", [str(exc)])),
            finished_at=timezone.now(),
        )
    else:
        PairingJob.objects.filter(pk=job.pk).update(
            status=PairingJob.Status.DONE,
            progress=1.0,
            message=f"round {rnd.number} proposed",
            finished_at=timezone.now(),
        )
    job.refresh_from_db()
    return job
