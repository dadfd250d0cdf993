"""Reads of the games app: a game's latest record, the positions of a record for the
viewer, the colour its first placer had, the result its record proposes, its clock
adjustments, and the arbiter's console rows."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, Q, QuerySet

from games.models import (
    ClockAdjustment,
    Irregularity,
    RecordSignature,
    RecordSubmission,
    SigningKey,
)
from rules.clock import Adjustment
from rules.engines import new_position
from rules.errors import RecordError, RulesError
from rules.position import Move, Position
from rules.record import first_placer_name, read_record, read_tags
from rules.validate import rules_from_tags
from tournaments.event_rules import Parameters, event_parameters
from tournaments.italian_procedure import game_variants
from tournaments.models import Colour, Game, Penalty, Round, Tournament, colour_other
from tournaments.selectors import game_is_final


def submission_latest(*, game: Game) -> RecordSubmission | None:
    return game.submissions.order_by("-version", "-id").first()


def record_positions(*, submission: RecordSubmission) -> tuple[list[Position], list[str]]:
    """The legal positions of a record, from the empty board (index 0) to the last legal one,
    and the plies' texts as written (for the viewer's move list)."""
    positions, texts, _ = record_replay(submission=submission)
    return positions, texts


def record_replay(*, submission: RecordSubmission) -> tuple[list[Position], list[str], list[Move]]:
    """`record_positions` with the moves that led to each position after the first (the
    viewer marks the last one)."""
    try:
        record = read_record(bytes(submission.raw).decode("utf-8-sig"))
        rules, first = rules_from_tags(record.tags)
    except (UnicodeDecodeError, RulesError):
        return [Position()], [], []
    pos = new_position(rules, first)
    positions = [pos.copy()]
    texts = []
    moves = []
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
        moves.append(move)
    return positions, texts, moves


# A record whose Green or Gold tag names someone who is not a player of the game it was
# submitted for is kept, but not taken for that game until an arbiter confirms it: its
# match note starts with one of these (no model field is needed for the mark).
NAMES_PENDING = "awaiting an arbiter's confirmation: "
NAMES_CONFIRMED = "confirmed by an arbiter: "


def name_key(name: str) -> str:
    """A name as records and pairings are compared: spaces collapsed, case folded."""
    return " ".join(name.split()).casefold()


def record_names_mismatch(*, raw: bytes, game: Game) -> str:
    """How the players a record's Green and Gold tags name differ from the game's, or "" when
    they do not (a record naming nobody, or "?", names no one else)."""
    try:
        tags = read_tags(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, RecordError):
        return ""
    named = {c: tags.get(c.title(), "").strip() for c in Colour.values}
    named = {c: n for c, n in named.items() if n and n != "?"}
    players = {name_key(p.name) for p in (game.first, game.second) if p is not None}
    if all(name_key(n) in players for n in named.values()) and len(
        {name_key(n) for n in named.values()}
    ) == len(named):
        return ""
    said = " and ".join(f"{n} ({c})" for c, n in named.items())
    theirs = " – ".join(p.name for p in (game.first, game.second) if p is not None)
    return f"the record names {said}; this game is {theirs}"


def record_needs_confirmation(*, submission: RecordSubmission) -> bool:
    """Whether a record names other players than its game's and no arbiter confirmed it."""
    return submission.match_note.startswith(NAMES_PENDING)


@dataclass(frozen=True)
class Expected:
    """The rules a game's record must be played under: the tournament's ruleset and variants
    (with the Italian society's final and Bach'san replay: `removed`), and the event's own
    rules (Art. 9.1): its time control ("" when it states none, Art. 6.4), whether it allows
    resignation and after how many moves (9.2), the notation it requires ("" for either,
    8.3) and its variants' parameters (13.3, 13.4, 13.6; None when the event fixes none)."""

    ruleset: str
    variants: frozenset[str]
    removed: int = 0
    time_control: str = ""
    resignation_allowed: bool = True
    notation: str = ""
    resignation_after_moves: int = 0
    parameters: Parameters | None = None

    def __iter__(self) -> Iterator[object]:
        # Callers written when this was a (ruleset, variants, removed) tuple unpack it so.
        return iter((self.ruleset, self.variants, self.removed))


def game_rules_expected(*, game: Game) -> Expected:
    """The rules a record of this game must be played under: the tournament's, with the
    Italian society's final and Bach'san replay, and the event's own rules."""
    tournament = game.round.tournament
    variants = game_variants(
        tournament.variants, tournament.ruleset, final=game_is_final(game=game)
    )
    return Expected(
        tournament.ruleset,
        variants,
        game.bachsan_removed,
        time_control=tournament.time_control.strip(),
        resignation_allowed=tournament.resignation_allowed,
        resignation_after_moves=tournament.resignation_after_moves,
        notation=tournament.notation,
        parameters=event_parameters(
            variants=variants,
            clouds=tournament.clouds,
            crown=tournament.crown,
            ablation_limit=tournament.ablation_limit,
        ),
    )


def tags_first_colour(tags: Mapping[str, str]) -> str | None:
    """The colour a record's tags say the first placer had (green when they name none), or
    None when the FirstPlacement tag names no colour."""
    colour = first_placer_name(tags)
    return colour if colour in Colour.values else None


def record_first_colour(*, submission: RecordSubmission) -> str | None:
    """The colour a stored record says the first placer had, or None when it cannot tell."""
    if submission.readable is False:
        return None
    try:
        return tags_first_colour(read_record(submission.text).tags)
    except RecordError:
        return None


def game_first_colour(*, game: Game, submission: RecordSubmission | None = None) -> str:
    """The colour the first placer had: the given record's word, else what the game keeps
    from its first readable record, else the latest record's, else green."""
    if submission is not None:
        colour = record_first_colour(submission=submission)
        if colour is not None:
            return colour
    if game.first_colour_recorded:
        return game.first_colour_recorded
    latest = submission_latest(game=game)
    if latest is not None and latest is not submission:
        colour = record_first_colour(submission=latest)
        if colour is not None:
            return colour
    return Colour.GREEN


def proposed_result(*, submission: RecordSubmission, first_colour: str) -> str | None:
    """The Game.Result the moves or the clocks decide, for the arbiter to confirm."""
    winner = submission.winner
    if not winner and submission.clock and submission.clock.get("decision") == "time":
        loser = submission.clock["loser"]
        winner = colour_other(loser)
    if not winner:
        return None
    return Game.Result.FIRST_WIN if winner == first_colour else Game.Result.SECOND_WIN


def clock_adjustments(*, game: Game) -> tuple[Adjustment, ...]:
    """The arbiter's adjustments of the game's clocks in force, as the clock adjudication takes
    them: a moment in seconds after the round's scheduled start, from which the clocks ran."""
    return clock_adjustments_of(games=[game])[game.pk]


def clock_adjustments_of(*, games: list[Game]) -> dict[int, tuple[Adjustment, ...]]:
    """clock_adjustments of each of `games` (with their rounds), by game id, in one query: a
    worker validating a batch of records reads them for all its games at once."""
    found: dict[int, list[Adjustment]] = {g.pk: [] for g in games}
    starts = {g.pk: g.round.starts_at for g in games}
    in_force = ClockAdjustment.objects.filter(game__in=list(found), revoked_at__isnull=True)
    for a in in_force:
        start = starts[a.game_id]
        found[a.game_id].append(
            Adjustment(
                0 if a.side == Colour.GREEN else 1,
                a.from_ply,
                a.seconds,
                a.article,
                at=int((a.at - start).total_seconds()) if a.at and start else None,
                in_readings=a.in_readings,
            )
        )
    return {pk: tuple(adjustments) for pk, adjustments in found.items()}


def clock_adjustment_list(*, game: Game) -> QuerySet[ClockAdjustment]:
    """Every clock adjustment of the game, revoked ones too, in the order made."""
    return game.clock_adjustments.select_related("created_by", "revoked_by", "penalty").order_by(
        "created_at", "id"
    )


@dataclass(frozen=True)
class ConsoleRow:
    """One game of a round as the arbiter's console shows it."""

    game: Game
    record: RecordSubmission | None  # the latest
    signatures: tuple[str, ...]
    penalties: tuple[Penalty, ...]
    proposed: str | None
    awaiting_confirmation: bool
    # The record names other players than the game's and no arbiter has confirmed it yet.
    names_pending: bool = False


def console_rows(*, round: Round) -> list[ConsoleRow]:
    """Every game of a round with its latest record, verdict, signatures and penalties, in
    a fixed number of queries whatever the round's size."""
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
            proposed = proposed_result(submission=record, first_colour=g.first_colour_or_green)
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
                names_pending=record is not None and record_needs_confirmation(submission=record),
            )
        )
    return rows


def record_final(*, game: Game) -> RecordSubmission | None:
    """The version signed by both combatants that makes the game's record final (Art. 8.2),
    or None. Only the latest version can be signed, so every later version is an arbiter's
    ruling; a ruling that reopens the battle (7.1 a new battle, 7.3 restored to go on) from
    that version or a later one lets the combatants record it again."""
    return records_final_of(game_ids=[game.pk]).get(game.pk)


def records_final_of(*, game_ids: Iterable[int]) -> dict[int, RecordSubmission]:
    """record_final of each of these games that has one, by game id, in two queries."""
    finals: dict[int, RecordSubmission] = {}
    signed = RecordSubmission.objects.filter(game_id__in=list(game_ids), locked=True)
    for sub in signed.order_by("game_id", "-version", "-id"):
        assert sub.game_id is not None  # `signed` holds the records of these games only
        finals.setdefault(sub.game_id, sub)
    reopened = Irregularity.objects.filter(
        game_id__in=list(finals),
        kind__in=[Irregularity.Kind.NEW_BATTLE, Irregularity.Kind.RESTORE],
        from_submission__isnull=False,
    ).values_list("game_id", "from_submission__version")
    for game_id, version in reopened:
        if game_id in finals and version >= finals[game_id].version:
            del finals[game_id]
    return finals


def game_signatures(*, game: Game) -> list[RecordSignature]:
    """Every signature of every version of a game's record, oldest version first."""
    return list(
        RecordSignature.objects.filter(submission__game=game)
        .select_related("submission", "signer")
        .order_by("submission__version", "submission_id", "created_at", "id")
    )


def tournament_records(*, tournament: Tournament) -> list[RecordSubmission]:
    """Every record of a tournament (each version; those no game was found for too) with its
    game and signatures, in round, board and version order (for the signed-record export)."""
    return list(
        RecordSubmission.objects.filter(
            Q(game__round__tournament=tournament) | Q(tournament=tournament)
        )
        .distinct()
        .select_related("game__round", "game__first", "game__second")
        .prefetch_related(
            Prefetch(
                "signatures",
                queryset=RecordSignature.objects.select_related("signer").order_by("role"),
            )
        )
        .order_by("game__round__number", "game__board", "version", "id")
    )


def signing_keys_of(*, users: list[Any]) -> dict[str, list[str]]:
    """The public keys each of these accounts registered, by user name."""
    keys: dict[str, list[str]] = {}
    rows = SigningKey.objects.filter(user__in=users).select_related("user").order_by("id")
    for key in rows:
        keys.setdefault(key.user.get_username(), []).append(key.public_key)
    return keys
