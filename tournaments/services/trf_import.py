"""A tournament created from a TRF file: its players, played rounds and forbidden pairs."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.db.models import Field
from django.utils import timezone, translation
from django.utils.text import slugify

from klinzha_site.user_types import AnyUser
from rules.points import format_points
from tournaments.models import ForbiddenPair, Game, Player, Registration, Round, Tournament
from tournaments.selectors import standings_compute
from tournaments.services.common import published_version_bump
from tournaments.services.entrants import player_create
from tournaments.services.events import tournament_create
from tournaments.tiebreaks import code_of
from tournaments.trf import (
    CHESS,
    KLIN_ZHA,
    PENDING,
    TrfError,
    TrfGame,
    TrfPlayer,
    TrfScoring,
    TrfTournament,
    declared_scoring,
    event_dates,
    late_zero_byes_drop,
    placeholders_drop,
    player_span,
    read_trf,
    rounds_played,
    uncoloured_forfeits,
)
from tournaments.trf.declared_points import scoring_note

TRF_FIRST_RESULT = {
    "1": Game.Result.FIRST_WIN,
    "W": Game.Result.FIRST_WIN,
    "0": Game.Result.SECOND_WIN,
    "L": Game.Result.SECOND_WIN,
    "=": Game.Result.DRAW,
    "D": Game.Result.DRAW,
    "+": Game.Result.FIRST_FORFEIT_WIN,
    PENDING: Game.Result.PENDING,
}
# A requested bye's own points by its code; `+` without an opponent is a forfeit win nobody
# lost, so a full point.
REQUESTED_BYE_POINTS = {"H": Decimal("0.5"), "F": Decimal(1), "Z": Decimal(0), "+": Decimal(1)}
# Round numbers and rounds planned are small integers on every database Django supports.
ROUNDS_MAX = 32767
# What a pairing-allocated bye may be worth when the file's points are all that say so: a
# win's, half a point, nothing, or a draw's. Anything else is a points column in error.
BYE_VALUES = (Decimal(1), Decimal("0.5"), Decimal(0), Decimal("-0.5"))
ROUND_ROBINS = (Tournament.PairingSystem.ROUND_ROBIN, Tournament.PairingSystem.DOUBLE_ROUND_ROBIN)
EPSILON = 1e-6


@dataclass(frozen=True, slots=True)
class TrfImport:
    """The tournament a TRF file made, and what the import had to correct in it."""

    tournament: Tournament
    warnings: list[str]
    # The warning that the file's scoring is not Klin Zha's (also among `warnings`), or "".
    scoring: str = ""


@dataclass(frozen=True, slots=True)
class TrfCheck:
    """What importing a file would make (nothing stored), and the import's warnings."""

    summary: dict[str, object]
    warnings: list[str]
    scoring: str = ""  # as TrfImport.scoring


def trf_import_check(*, text: str, organizer: AnyUser | None = None) -> TrfCheck:
    """What `trf_import` would do with `text`, stored nowhere: the import runs whole in a
    transaction rolled back at its end (TrfError as the import raises it)."""
    with transaction.atomic():
        imported = trf_import(text=text, organizer=organizer)
        summary = _summary(imported.tournament)
        transaction.set_rollback(True)
    return TrfCheck(summary, imported.warnings, imported.scoring)


def _summary(t: Tournament) -> dict[str, object]:
    """The tournament an import made, in figures."""
    regs = Registration.objects.filter(tournament=t)
    games = Game.objects.filter(round__tournament=t)
    return {
        "name": t.name,
        "slug": t.slug,
        "dialect": t.trf_source.get("dialect", ""),
        "start_date": t.start_date.isoformat(),
        "end_date": t.end_date.isoformat() if t.end_date else None,
        "pairing_system": t.pairing_system,
        "rounds_planned": t.rounds_planned,
        "rounds": Round.objects.filter(tournament=t).count(),
        "players": regs.count(),
        "withdrawn": regs.exclude(status=Registration.Status.ACTIVE).count(),
        "games": games.filter(kind=Game.Kind.GAME).count(),
        "byes": games.exclude(kind=Game.Kind.GAME).count(),
        "forbidden_pairs": ForbiddenPair.objects.filter(tournament=t).count(),
        "bye_points": float(t.bye_points),
    }


def tournament_import_trf(*, text: str, organizer: AnyUser | None = None) -> Tournament:
    """Create a tournament with its players and played rounds from a TRF file."""
    return trf_import(text=text, organizer=organizer).tournament


@transaction.atomic
def trf_import(*, text: str, organizer: AnyUser | None = None) -> TrfImport:
    """Create a tournament from a TRF file (TrfError names the line of a file refused),
    with warnings for what the import read leniently or corrected: the file's notes (a
    team line), placeholders for the bye, dates, its scoring, its points column."""
    trf = read_trf(text)
    notes = [*trf.notes, *placeholders_drop(trf)]
    _limits_check(trf)
    system = _pairing_system(trf.tournament_type)
    robin = system in ROUND_ROBINS
    if not robin:  # a round robin's Z is its free round
        late_zero_byes_drop(trf)
    played = rounds_played(trf)
    free_is_bye = robin and any(g.code == "U" for p in trf.players for g in p.games)
    declared = declared_scoring(trf)
    slug = _slug(trf.name)
    dates = event_dates(
        start_text=trf.start_date,
        end_text=trf.end_date,
        lines=trf.lines,
        round_dates=[line for line in trf.extra if line.startswith("132")],
        today=timezone.now().date(),
    )
    notes += dates.notes
    tiebreaks, tiebreak_notes = _tiebreaks_read(trf)
    notes += tiebreak_notes
    tournament = tournament_create(
        name=trf.name or slug,
        slug=slug,
        start_date=dates.start,
        end_date=dates.end,
        venue=trf.city,
        rounds_planned=max(trf.rounds, 1),
        pairing_system=system,
        free_round=Tournament.FreeRound.BYE if free_is_bye else Tournament.FreeRound.DID_NOT_PLAY,
        bye_points=_declared_bye(declared),
        organizer=organizer,
        **({"tiebreaks": ",".join(tiebreaks)} if tiebreaks else {}),
    )
    player_of: dict[int, Player] = {}
    for tp in sorted(trf.players, key=lambda p: p.start_rank):
        span = player_span(trf, tp)
        ids = _identity(tp)
        player = player_create(
            name=tp.name,
            rating=tp.rating,
            federation=tp.federation,
            tournament=tournament,
            fide_id=ids["fide_id"],
            national_id=ids["national_id"],
            title=ids["title"],
            sex=ids["sex"],
            birth_date=ids["birth_date"],
        )
        Registration.objects.create(
            tournament=tournament,
            player=player,
            start_rank=tp.start_rank,
            rating=tp.rating,
            first_round=span.first_round,
            status=Registration.Status.ACTIVE
            if span.withdrawn_after is None
            else Registration.Status.WITHDRAWN,
            last_round=span.withdrawn_after,
        )
        player_of[tp.start_rank] = player
    importer = _Rounds(trf, tournament, player_of, free_is_bye, robin)
    for rnd in range(1, played + 1):
        importer.round_import(rnd)
    for a, b in trf.forbidden:
        first, second = sorted((player_of[a], player_of[b]), key=lambda p: p.pk)
        ForbiddenPair.objects.create(tournament=tournament, first=first, second=second)
    tournament.trf_source = _source(trf=trf, tournament=tournament)
    tournament.save(update_fields=["trf_source"])
    published_version_bump(tournament)
    scoring, wrong = _points_check(trf, tournament, player_of, importer.byes, declared)
    return TrfImport(tournament, notes + ([scoring] if scoring else []) + wrong, scoring)


def _tiebreaks_read(trf: TrfTournament) -> tuple[list[str], list[str]]:
    """The file's tie-breaks (202/212) by our codes, those on offer in its order, and a
    warning naming the others (left out); none read: the event keeps the default list."""
    codes: list[str] = []
    unknown: list[str] = []
    for text in trf.tiebreaks:
        try:
            code = code_of(text.upper())
        except ValueError:
            unknown.append(text)
            continue
        if code not in codes:
            codes.append(code)
    if not unknown:
        return codes, []
    number = trf.lines.get("202", trf.lines.get("212"))
    return codes, [f"line {number}: tie-breaks not on offer here, left out: {', '.join(unknown)}"]


def _identity(tp: TrfPlayer) -> dict[str, str]:
    """The player's ids, title, sex and birth date as the file writes them, cut to the
    fields' lengths (the columns are those lengths or less)."""
    values = {"fide_id": tp.fide_id, "national_id": tp.national_id, "title": tp.title}
    values.update({"sex": tp.sex, "birth_date": tp.birth})
    return {k: v[: _max_length(Player, k)] for k, v in values.items()}


def _max_length(model: type[Player], name: str) -> int:
    column = model._meta.get_field(name)
    return (column.max_length if isinstance(column, Field) else None) or 0


def _source(*, trf: TrfTournament, tournament: Tournament) -> dict[str, object]:
    """What the export needs to write the file back as it came (Tournament.trf_source)."""
    header = {"012": trf.name, "022": trf.city, "032": trf.federation}
    header.update({"042": trf.start_date, "052": trf.end_date, "092": trf.tournament_type})
    header["102"] = trf.chief_arbiter
    end = tournament.end_date
    derived = {"012": tournament.name, "022": tournament.venue}
    derived.update(
        {"042": tournament.start_date.isoformat(), "052": end.isoformat() if end else ""}
    )
    derived["092"] = tournament.pairing_system
    return {
        "dialect": trf.dialect,
        "header": {code: text for code, text in header.items() if text},
        "derived": derived,
        "lines": list(trf.extra),
        # Forfeits the file gave no colour on either side, [round, rank, rank]: written back
        # so; the export gives every other forfeit its scheduled placement.
        "uncoloured_forfeits": uncoloured_forfeits(trf),
    }


def _slug(name: str) -> str:
    base = slugify(name)[:60] or "imported"
    slug = base
    n = 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _limits_check(trf: TrfTournament) -> None:
    """What the file holds must fit the fields it goes to; TrfError names the line."""
    played = rounds_played(trf)
    if played >= ROUNDS_MAX:  # a late entrant would join in the round after
        longest = max(trf.players, key=lambda p: max((g.round for g in p.games), default=0))
        raise TrfError(f"line {longest.line}: {played} rounds; a tournament has fewer")
    if trf.rounds > ROUNDS_MAX:
        number = trf.lines["XXR"]
        raise TrfError(f"line {number}: {trf.rounds} rounds; a tournament has {ROUNDS_MAX} at most")
    for code, value, field in (("012", trf.name, "name"), ("022", trf.city, "venue")):
        column = Tournament._meta.get_field(field)
        limit = column.max_length if isinstance(column, Field) else None
        if limit is not None and len(value) > limit:
            raise TrfError(f"line {trf.lines[code]}: longer than {limit} characters")


def _pairing_system(text: str) -> str:
    """The pairing system the `092` line names as the export writes it (any language the
    site speaks, or the stored value); Swiss for anything else."""
    wanted = text.strip().casefold()
    with translation.override("en"):
        names = {str(label).casefold(): value for value, label in Tournament.PairingSystem.choices}
    names.update(
        {str(label).casefold(): value for value, label in Tournament.PairingSystem.choices}
    )
    names.update({value: value for value in Tournament.PairingSystem.values})
    return names.get(wanted, Tournament.PairingSystem.SWISS)


def _declared_bye(declared: TrfScoring | None) -> Decimal:
    """The tournament's bye points: what a scoring the file declares gives a pairing bye
    above a loss (so a shifted file counts too), else the default."""
    default = Tournament._meta.get_field("bye_points").default
    if declared is None or declared.pairing_bye is None:
        return Decimal(default)
    value = _bye_decimal(declared.pairing_bye - declared.loss)
    return Decimal(default) if value is None else value


def _bye_decimal(value: float) -> Decimal | None:
    return next((v for v in BYE_VALUES if abs(float(v) - value) < EPSILON), None)


class _Rounds:
    """The played rounds stored one by one, keeping each player's pairing-allocated byes
    for the points check."""

    def __init__(
        self,
        trf: TrfTournament,
        tournament: Tournament,
        player_of: dict[int, Player],
        free_is_bye: bool,
        robin: bool,
    ) -> None:
        self.trf, self.tournament, self.player_of = trf, tournament, player_of
        self.free_is_bye, self.robin = free_is_bye, robin
        self.entry = {p.start_rank: {g.round: g for g in p.games} for p in trf.players}
        self.byes: dict[int, list[Game]] = {}

    def round_import(self, rnd: int) -> None:
        round_ = Round.objects.create(tournament=self.tournament, number=rnd)
        board = 0
        done: set[int] = set()
        for tp in sorted(self.trf.players, key=lambda p: p.start_rank):
            g = self.entry[tp.start_rank].get(rnd)
            if g is None or tp.start_rank in done:
                continue
            game = self._game(round_, tp, g)
            if game is None:
                continue
            board += 1
            game.board = board
            game.save()
            done |= {tp.start_rank, g.opponent or 0}
            if g.code == "U":
                self.byes.setdefault(tp.start_rank, []).append(game)

    def _game(self, round_: Round, tp: TrfPlayer, g: TrfGame) -> Game | None:
        me = self.player_of[tp.start_rank]
        if g.opponent is None:
            return self._bye(round_, g, me)
        other = self.entry[g.opponent][g.round]  # read_trf checked it lists tp back
        first_is_me = g.colour == "w" or (g.colour == "-" and other.colour != "w")
        mine, theirs = (g, other) if first_is_me else (other, g)
        if mine.code == "-":
            result = (
                Game.Result.DOUBLE_FORFEIT if theirs.code == "-" else Game.Result.SECOND_FORFEIT_WIN
            )
        else:
            result = TRF_FIRST_RESULT[mine.code]
        first, second = me, self.player_of[g.opponent]
        if not first_is_me:
            first, second = second, first
        return Game(round=round_, first=first, second=second, result=result)

    def _bye(self, round_: Round, g: TrfGame, me: Player) -> Game | None:
        if self.robin and (g.code == "U" or (g.code == "Z" and not self.free_is_bye)):
            # A round robin has neither pairing-allocated nor requested byes: U or Z is its
            # free round, worth a bye or nothing as the tournament's free-round setting says.
            return Game(round=round_, kind=Game.Kind.FREE, first=me)
        if g.code == "U":
            return Game(round=round_, kind=Game.Kind.BYE, first=me)
        if g.code in REQUESTED_BYE_POINTS:
            points = REQUESTED_BYE_POINTS[g.code]
            return Game(round=round_, kind=Game.Kind.REQUESTED_BYE, first=me, bye_points=points)
        return None  # absent: no game


def _offset(tp: TrfPlayer, scoring: TrfScoring, played: int, bye: float) -> float:
    """How many more points the file's scoring gives the player than Klin Zha's."""
    entry = {g.round: g for g in tp.games}
    return sum(
        scoring.value(entry.get(rnd), bye) - KLIN_ZHA.value(entry.get(rnd), bye)
        for rnd in range(1, played + 1)
    )


def _points_check(
    trf: TrfTournament,
    tournament: Tournament,
    player_of: dict[int, Player],
    byes: dict[int, list[Game]],
    declared: TrfScoring | None,
) -> tuple[str, list[str]]:
    """Compare the points column with the standings the results give. A file that declares
    no scoring is read with Klin Zha's unless a chess scoring (a draw +½) fits more players;
    a pairing bye's own points are taken from the column where only they explain it. Players
    whose column still disagrees are listed: their points are the results'. Returns the
    scoring warning ("" when the file's scoring is Klin Zha's) and the players' warning."""
    played = rounds_played(trf)
    stated = [tp for tp in trf.players if tp.points is not None]
    default_bye = float(tournament.bye_points)

    def bye_of(tp: TrfPlayer) -> float:
        own = [g.bye_points for g in byes.get(tp.start_rank, []) if g.bye_points is not None]
        return float(own[0]) if own else default_bye

    def differences(scoring: TrfScoring) -> dict[int, tuple[float, float]]:
        scores = {row.entrant.id: row.score for row in standings_compute(tournament=tournament)}
        out = {}
        for tp in stated:
            score = scores.get(player_of[tp.start_rank].pk, 0.0)
            expected = score + _offset(tp, scoring, played, bye_of(tp))
            assert tp.points is not None
            out[tp.start_rank] = (tp.points - expected, expected)
        return out

    scoring = declared or KLIN_ZHA
    diffs = differences(scoring)
    if declared is None:
        chess = differences(CHESS)
        without_byes = [tp.start_rank for tp in stated if tp.start_rank not in byes]

        def fits(d: dict[int, tuple[float, float]]) -> tuple[int, int]:
            """Players the scoring explains: first those without a pairing bye (whose
            points no bye's value blurs), then everyone (each bye at its default)."""
            exact = [rank for rank, (off, _) in d.items() if abs(off) < EPSILON]
            return (len(set(exact) & set(without_byes)), len(exact))

        if fits(chess) > fits(diffs):
            scoring, diffs = CHESS, chess
    changed = False
    for rank, games in byes.items():
        if rank in diffs and abs(diffs[rank][0]) >= EPSILON:
            value = _bye_decimal(default_bye + diffs[rank][0] / len(games))
            if value is not None:
                for game in games:
                    game.bye_points = value
                    game.save(update_fields=["bye_points"])
                changed = True
    if changed:
        published_version_bump(tournament)
        diffs = differences(scoring)
    source = _scoring_source(trf) if declared is not None else "its points column"
    return scoring_note(scoring, source), _column_wrong(stated=stated, diffs=diffs)


def _scoring_source(trf: TrfTournament) -> str:
    """Where the file declares its scoring: the record and its line."""
    for code in ("XXS", "162", "BBD", "BBW", "BBL"):
        if code in trf.lines:
            return f"{code}, line {trf.lines[code]}"
    return "its scoring lines"


def _column_wrong(*, stated: list[TrfPlayer], diffs: dict[int, tuple[float, float]]) -> list[str]:
    """A warning naming the players whose points column the results do not give."""
    wrong = [
        f"{tp.name} (start rank {tp.start_rank}: {format_points(tp.points)} in the file, "
        f"{format_points(diffs[tp.start_rank][1])} from the results)"
        for tp in sorted(stated, key=lambda p: p.start_rank)
        if tp.points is not None and abs(diffs[tp.start_rank][0]) >= EPSILON
    ]
    if not wrong:
        return []
    return [
        "the points column disagrees with the results; the points are recomputed from the "
        "results for " + ", ".join(wrong)
    ]
