"""Whole events played through the services and the database, for the property tests of
`test_event_properties.py`: an arbiter who pairs round after round (Swiss, round robin,
knockout), lets players withdraw, expels some, takes late entries, grants requested byes,
enters results (forfeits and draws among them) and imposes penalties, while the checks here
compare every stored round, the crosstable and the standings with what the rules
(`../shared/spec/tournaments.md`) say they must be.

Every decision is drawn from a Hypothesis `draw` (`data.draw`), so a failing event shrinks
to a short one. The oracles are plain: a brute-force matching says whether a Swiss round
can be paired without a rematch; a bracket model of our own says what the next knockout
round is; a scoring model of our own recomputes every score from the games, the penalties
and the settings."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cache as memoized
from typing import Any

import pytest
from django.core.cache import cache
from django.db.models import Count
from hypothesis import event
from hypothesis import strategies as st

from klinzha_site.errors import Conflict
from tournaments import selectors, services
from tournaments.models import ByeRequest, Game, Penalty, Registration, Round, Tournament
from tournaments.pairing import berger_round, knockout_bracket
from tournaments.standings import scores_after

Draw = Callable[[st.SearchStrategy[Any]], Any]

SWISS = Tournament.PairingSystem.SWISS
ROUND_ROBIN = Tournament.PairingSystem.ROUND_ROBIN
DOUBLE_ROUND_ROBIN = Tournament.PairingSystem.DOUBLE_ROUND_ROBIN
KNOCKOUT = Tournament.PairingSystem.KNOCKOUT
ROUND_ROBINS = (ROUND_ROBIN, DOUBLE_ROUND_ROBIN)
ACTIVE = Registration.Status.ACTIVE

# Why round_pair may refuse a round (Conflict, HTTP 409), by a phrase of its message.
REASONS = {
    "pending": "has no result yet on",
    "few": "a round needs two",
    "blocked": "cannot be paired: no pairing without",
    "decided": "the knockout is decided",
    "planned": "raise the number of rounds",
    "complete": "every pair has met",
}
RESULTS = (
    Game.Result.FIRST_WIN,
    Game.Result.SECOND_WIN,
    Game.Result.DRAW,
    Game.Result.FIRST_FORFEIT_WIN,
    Game.Result.SECOND_FORFEIT_WIN,
    Game.Result.DOUBLE_FORFEIT,
)
GAME_PENALTIES = ("warning", "battle_lost", "reduce_points", "raise_opponent")

_slugs = itertools.count(1)


def reason_of(exc: Conflict) -> str | None:
    text = " ".join(exc.messages)
    return next((key for key, phrase in REASONS.items() if phrase in text), None)


def event_create(system: str, n: int, rounds: int, **settings: Any) -> Tournament:
    """A fresh tournament (a slug never used before) with `n` players registered, start
    ranks 1..n by falling rating. The standings cache is emptied: rolled-back examples may
    leave entries under a primary key the database hands out again."""
    cache.clear()
    slug = f"sim-{system.replace('_', '-')}-{next(_slugs)}"
    t = services.tournament_create(
        name=slug,
        slug=slug,
        start_date=date(2026, 11, 1),
        pairing_system=system,
        rounds_planned=rounds,
        **settings,
    )
    for i in range(n):
        player = services.player_create(name=f"{slug} P{i + 1:02d}", rating=2400 - 10 * i)
        services.registration_create(tournament=t, player=player)
    return t


def berger_length(n: int, system: str) -> int:
    return (n + n % 2 - 1) * (2 if system == DOUBLE_ROUND_ROBIN else 1)


# --- what is stored --------------------------------------------------------------------


def regs_of(t: Tournament) -> list[Registration]:
    return list(
        Registration.objects.filter(tournament=t).select_related("player").order_by("start_rank")
    )


def field_of(t: Tournament, number: int) -> list[int]:
    """The players round `number` is for: active, entered by then, by start rank."""
    return list(
        Registration.objects.filter(tournament=t, status=ACTIVE, first_round__lte=number)
        .order_by("start_rank", "id")
        .values_list("player_id", flat=True)
    )


def left_ids(t: Tournament) -> set[int]:
    return set(
        Registration.objects.filter(tournament=t)
        .exclude(status=ACTIVE)
        .values_list("player_id", flat=True)
    )


def games_of(rnd: Round) -> list[Game]:
    return list(rnd.games.order_by("board"))


def earlier_games(t: Tournament, number: int) -> list[Game]:
    return list(
        Game.objects.filter(round__tournament=t, round__number__lt=number).order_by(
            "round__number", "board"
        )
    )


def requested_for(t: Tournament, number: int) -> set[int]:
    return set(
        ByeRequest.objects.filter(registration__tournament=t, round_number=number).values_list(
            "registration__player_id", flat=True
        )
    )


def check_no_empty_round(t: Tournament) -> None:
    empty = Round.objects.filter(tournament=t).annotate(n=Count("games")).filter(n=0)
    assert not empty.exists(), f"empty rounds stored: {[r.number for r in empty]}"


def check_once_each(rnd: Round) -> Counter[int]:
    """Nobody is in two games of a round; a game has two players, a bye or free round one."""
    seen: Counter[int] = Counter()
    for g in games_of(rnd):
        if g.kind == Game.Kind.GAME:
            assert g.second_id is not None and g.second_id != g.first_id, g
            seen.update((g.first_id, g.second_id))
        else:
            assert g.second_id is None, g
            seen[g.first_id] += 1
    twice = sorted(pid for pid, k in seen.items() if k > 1)
    assert not twice, f"round {rnd.number}: players {twice} are in more than one game"
    return seen


# --- a Swiss round can be paired when a matching without a rematch exists ---------------


def matchable(ids: Sequence[int], met: dict[int, set[int]]) -> bool:
    """Whether `ids` can all be paired with nobody meeting an earlier opponent."""
    n = len(ids)
    adj = [
        sum(1 << j for j in range(n) if j != i and ids[j] not in met.get(ids[i], ()))
        for i in range(n)
    ]

    @memoized
    def go(mask: int) -> bool:
        if not mask:
            return True
        low = mask & -mask
        i = low.bit_length() - 1
        rest = mask ^ low
        options = adj[i] & rest
        while options:
            bit = options & -options
            if go(rest ^ bit):
                return True
            options ^= bit
        return False

    return go((1 << n) - 1)


def bye_candidates(ids: Sequence[int], met: dict[int, set[int]]) -> list[int]:
    """The players of an odd field whose pairing bye lets the rest pair without a rematch."""
    return [c for c in ids if matchable([p for p in ids if p != c], met)]


def opponents_before(t: Tournament, number: int) -> tuple[dict[int, set[int]], set[int]]:
    """Who met whom before round `number`, and who may not have a pairing bye: those who had
    one or won by forfeit (FIDE C.04.3 C2)."""
    met: dict[int, set[int]] = {}
    byes: set[int] = set()
    for g in earlier_games(t, number):
        if g.kind == Game.Kind.BYE:
            byes.add(g.first_id)
        if g.result == Game.Result.FIRST_FORFEIT_WIN:
            byes.add(g.first_id)
        if g.result == Game.Result.SECOND_FORFEIT_WIN and g.second_id is not None:
            byes.add(g.second_id)
        if g.second_id is not None:
            met.setdefault(g.first_id, set()).add(g.second_id)
            met.setdefault(g.second_id, set()).add(g.first_id)
    return met, byes


def swiss_to_pair(t: Tournament, number: int) -> list[int]:
    asked = requested_for(t, number)
    return [p for p in field_of(t, number) if p not in asked]


def swiss_feasible(t: Tournament, number: int) -> bool:
    ids = swiss_to_pair(t, number)
    met, _ = opponents_before(t, number)
    if len(ids) % 2 == 0:
        return matchable(ids, met)
    return bool(bye_candidates(ids, met))


# --- our own knockout bracket ------------------------------------------------------------

WINNER = {
    Game.Result.FIRST_WIN: "first",
    Game.Result.FIRST_FORFEIT_WIN: "first",
    Game.Result.SECOND_WIN: "second",
    Game.Result.SECOND_FORFEIT_WIN: "second",
}

Tie = tuple[int, int | None]


def counted_result(game: Game) -> str:
    """The result that sends a player on: a battle declared lost (Art. 12.4 d, not revoked)
    decides it whatever was entered."""
    lost = Penalty.objects.filter(game=game, kind="battle_lost", revoked_by__isnull=True)
    losers = set(lost.values_list("player_id", flat=True))
    if game.first_id in losers:  # the first's penalty is read first, as the service does
        return Game.Result.SECOND_WIN
    if game.second_id in losers:
        return Game.Result.FIRST_WIN
    return game.result


@dataclass
class Bracket:
    """The current stage's ties in bracket order and every game of the stage so far; the
    tie goes to whoever won more of its games (a draw or double forfeit wins nobody
    anything), an undecided tie is replayed, then winners of neighbouring ties meet."""

    stage: list[Tie] = field(default_factory=list)
    games: list[tuple[int, int, str]] = field(default_factory=list)

    def start(self, ties: list[Tie]) -> None:
        self.stage, self.games = list(ties), []

    def record(self, games: Iterable[Game]) -> None:
        self.games += [(g.first_id, g.second_id, counted_result(g)) for g in games if g.second_id]

    def winner(self, tie: Tie) -> int | None:
        a, b = tie
        if b is None:
            return a
        wins: Counter[int] = Counter()
        for first, second, result in self.games:
            if {first, second} == {a, b} and result in WINNER:
                wins[first if WINNER[result] == "first" else second] += 1
        if wins[a] != wins[b]:
            return a if wins[a] > wins[b] else b
        return None

    def last_first(self, tie: Tie) -> int:
        return next((f for f, s, _ in reversed(self.games) if {f, s} == set(tie)), tie[0])

    def next(self, gone: set[int] | frozenset[int] = frozenset()) -> tuple[str, list[Tie]]:
        """What comes next; an undecided tie of two who are `gone` sends nobody on, and the
        next stage leaves out ties of players all gone."""
        undecided = [tie for tie in self.stage if self.winner(tie) is None and not set(tie) <= gone]
        if undecided:
            return "replay", undecided
        winners = [w for w in map(self.winner, self.stage) if w is not None]
        if len(winners) == 1:
            return "done", [(winners[0], None)]
        ties: list[Tie] = [(winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)]
        if len(winners) % 2:
            ties.append((winners[-1], None))
        return "next", [tie for tie in ties if not set(tie) - {None} <= gone]

    def alive(self) -> set[int]:
        out: set[int] = set()
        for tie in self.stage:
            w = self.winner(tie)
            out |= {w} if w is not None else {p for p in tie if p is not None}
        return out


# --- our own scoring ---------------------------------------------------------------------

PLAYED = ("win", "loss", "draw")
POINTS = {"win": 1.0, "loss": 0.0, "draw": -0.5, "fwin": 1.0, "floss": 0.0, "dff": 0.0}
SIDES = {
    Game.Result.FIRST_WIN: ("win", "loss"),
    Game.Result.SECOND_WIN: ("loss", "win"),
    Game.Result.DRAW: ("draw", "draw"),
    Game.Result.FIRST_FORFEIT_WIN: ("fwin", "floss"),
    Game.Result.SECOND_FORFEIT_WIN: ("floss", "fwin"),
    Game.Result.DOUBLE_FORFEIT: ("dff", "dff"),
}


def side_points(outcome: str, mine: list[str], theirs: list[str]) -> tuple[str, float]:
    """tournaments.md: d) the offender loses, the opponent wins; e) the offender's points
    drop by ½ each; f) the offender's opponent gets at least a win's point."""
    if "battle_lost" in mine:
        outcome = "loss" if outcome in PLAYED else "floss"
    elif "battle_lost" in theirs:
        outcome = "win" if outcome in PLAYED else "fwin"
    points = POINTS[outcome] - 0.5 * mine.count("reduce_points")
    if "raise_opponent" in theirs:
        points = max(points, 1.0)
    return outcome, points


@dataclass(frozen=True)
class Scored:
    round: int
    player: int
    opponent: int | None
    outcome: str
    points: float


def expected_scores(t: Tournament, penalties: Sequence[tuple[int, int, str]]) -> dict[int, float]:
    """Every player's score as the spec makes it, from the stored games, the penalties we
    imposed ((game, offender, kind), none revoked) and the settings: draws −½ to each side,
    forfeits 1/0, a pairing bye 1, a requested bye 0, the free round by its setting, missed
    rounds of a late entrant by theirs, a round robin's early withdrawal annulled."""
    t.refresh_from_db()
    kinds: dict[tuple[int, int], list[str]] = {}
    for game_id, pid, kind in penalties:
        kinds.setdefault((game_id, pid), []).append(kind)
    rows: list[Scored] = []
    games = Game.objects.filter(round__tournament=t, round__status=Round.Status.PUBLISHED)
    last = 0
    for g in games.select_related("round"):
        number = g.round.number
        last = max(last, number)
        if g.kind != Game.Kind.GAME:
            points = {
                Game.Kind.BYE: float(t.bye_points),
                Game.Kind.REQUESTED_BYE: float(t.requested_bye_points),
                Game.Kind.FREE: float(t.bye_points) if t.free_round == "bye" else 0.0,
            }[Game.Kind(g.kind)]
            rows.append(Scored(number, g.first_id, None, g.kind, points))
            continue
        mine, theirs = kinds.get((g.pk, g.first_id), []), kinds.get((g.pk, g.second_id), [])
        result = g.result
        if not result:
            if "battle_lost" in mine:
                result = Game.Result.SECOND_WIN
            elif "battle_lost" in theirs:
                result = Game.Result.FIRST_WIN
            else:
                continue
        a, b = SIDES[Game.Result(result)]
        rows.append(Scored(number, g.first_id, g.second_id, *side_points(a, mine, theirs)))
        rows.append(Scored(number, g.second_id, g.first_id, *side_points(b, theirs, mine)))
    late = float(t.late_entry_points)
    for reg in Registration.objects.filter(tournament=t, first_round__gt=1):
        for number in range(1, min(reg.first_round, last + 1)):
            rows.append(Scored(number, reg.player_id, None, "late", late))
    annulled: set[int] = set()
    if t.pairing_system in ROUND_ROBINS and t.withdrawal_results == "annul_before_half":
        # the table is round 1's field: those who left before round 1 are not in it
        table = sum(
            1
            for r in Registration.objects.filter(tournament=t, first_round=1)
            if r.status == ACTIVE or r.last_round
        )
        games_each = (table - 1) * (2 if t.pairing_system == DOUBLE_ROUND_ROBIN else 1)
        played = Counter(r.player for r in rows if r.outcome in PLAYED)
        annulled = {pid for pid in left_ids(t) if 2 * played[pid] < games_each}
    scores: dict[int, float] = {}
    for r in rows:
        if r.player in annulled or r.opponent in annulled:
            continue
        scores[r.player] = scores.get(r.player, 0.0) + r.points
    return scores


def check_standings(t: Tournament, penalties: Sequence[tuple[int, int, str]]) -> None:
    """The crosstable adds up, the standings are its order, both agree with our own
    scoring, and players who left before any round are in neither."""
    table = selectors.crosstable_json(tournament=t)
    standings = selectors.standings_compute(tournament=t)
    rounds = Round.objects.filter(tournament=t, status=Round.Status.PUBLISHED).count()
    assert table["rounds"] == rounds
    rows = table["rows"]
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    for row in rows:
        assert len(row["rounds"]) == rounds
        total = sum(c["points"] for c in row["rounds"] if c["result"] and c["counted"])
        assert abs(total - row["score"]) < 1e-9, (row["name"], total, row["score"], row["rounds"])
    scores = [r["score"] for r in rows]
    assert scores == sorted(scores, reverse=True), scores
    assert [(s.rank, s.entrant.name, s.score) for s in standings] == [
        (r["rank"], r["name"], r["score"]) for r in rows
    ]
    # The points before each round its pairings print, read from the standings of now.
    for number in range(1, rounds + 1):
        before = selectors.standings_compute(tournament=t, after_round=number)
        assert scores_after(standings, number) == {s.entrant.id: s.score for s in before}
    in_a_round = set()
    for g in Game.objects.filter(round__tournament=t, round__status=Round.Status.PUBLISHED):
        in_a_round |= {g.first_id, g.second_id} - {None}
    regs = regs_of(t)
    shown = {r.player_id for r in regs if r.status == ACTIVE or r.player_id in in_a_round}
    names = {r.player_id: r.player.name for r in regs}
    assert sorted(r["name"] for r in rows) == sorted(names[p] for p in shown)
    never = {r.player.name for r in regs if r.status != ACTIVE and r.player_id not in in_a_round}
    assert not never & {r["name"] for r in rows}, "players who left before any round are shown"
    expected = expected_scores(t, penalties)
    by_name = {r["name"]: r["score"] for r in rows}
    for pid in shown:
        want = expected.get(pid, 0.0)
        assert abs(by_name[names[pid]] - want) < 1e-9, (names[pid], by_name[names[pid]], want)
    check_no_empty_round(t)


# --- the arbiter ---------------------------------------------------------------------------


@dataclass
class Sim:
    """One event run by a simulated arbiter. `leave_from` is the first round before which
    players may withdraw or be expelled (1: before round 1 too); `bye_requests` lets players
    of a Swiss or round robin ask for byes. Two guards keep clear of bugs the xfail tests
    describe: `guard_byes` cancels a leaving player's requested byes first, and in a
    knockout `guard_walkovers` lets a player still in the bracket leave only while nobody
    else still in it has left (so two players who left never meet)."""

    draw: Draw
    t: Tournament
    leave_from: int = 1
    bye_requests: bool = True
    guard_walkovers: bool = True
    guard_byes: bool = True
    # Called before each round is paired (with the round's number): a scenario's own moves.
    hook: Callable[[Sim, int], None] | None = None
    penalties: list[tuple[int, int, str]] = field(default_factory=list)
    table: list[int] = field(default_factory=list)
    bracket: Bracket = field(default_factory=Bracket)
    meetings: Counter[frozenset[int]] = field(default_factory=Counter)
    ended_by: str = ""
    rounds_paired: int = 0
    done: Counter[str] = field(default_factory=Counter)  # what happened, for the statistics
    # What the pairing starts from, kept before it runs: the scores, the bracket's next step.
    scores_before: dict[int, float] = field(default_factory=dict)
    next_expected: tuple[str, list[Tie]] = ("", [])

    @property
    def system(self) -> str:
        return str(self.t.pairing_system)

    def chance(self, percent: int) -> bool:
        """True `percent` times in a hundred; shrinks towards False."""
        return bool(self.draw(st.integers(0, 99)) >= 100 - percent)

    # The event --------------------------------------------------------------------------

    def statistics(self) -> None:
        """What the event had, for `pytest --hypothesis-show-statistics`."""
        event(f"ended by: {self.ended_by}, after {self.rounds_paired} rounds")
        for what in sorted(self.done):
            event(f"had: {what}")

    def run(self) -> None:
        number = 1
        while True:
            self.between_rounds(number)
            rnd = self.pair(number)
            if rnd is None:
                break
            self.rounds_paired = number
            self.check_round(rnd)
            self.play(rnd)
            check_standings(self.t, self.penalties)
            number += 1
        check_standings(self.t, self.penalties)
        self.statistics()

    def between_rounds(self, number: int) -> None:
        t = self.t
        regs = [r for r in regs_of(t) if r.status == ACTIVE]
        if number >= self.leave_from:
            for reg in regs:
                if self.chance(8) and self.may_leave(reg):
                    self.leave(reg, number)
        if number > 1 and self.chance(30):
            self.late_entry(number)
        if self.system != SWISS and regs and self.chance(10):
            # a round robin's table and a knockout's bracket take no requested byes
            with pytest.raises(Conflict):
                services.bye_request_create(registration=regs[0], round_number=number)
        if self.bye_requests and self.system == SWISS and number <= t.rounds_planned:
            for reg in regs_of(t):
                if reg.status == ACTIVE and self.chance(8):
                    asked = min(number + self.draw(st.integers(0, 1)), t.rounds_planned)
                    if reg.first_round <= asked:
                        services.bye_request_create(registration=reg, round_number=asked)
                        self.done["bye request"] += 1
        self.maybe_revoke_expulsion()
        if self.hook is not None:
            self.hook(self, number)

    def may_leave(self, reg: Registration) -> bool:
        if self.system != KNOCKOUT or not self.guard_walkovers or not self.rounds_paired:
            return True
        alive = self.bracket.alive()
        return reg.player_id not in alive or not alive & left_ids(self.t)

    def leave(self, reg: Registration, number: int) -> None:
        if self.guard_byes:
            for bye in ByeRequest.objects.filter(registration=reg, round_number__gte=number):
                services.bye_request_cancel(registration=reg, round_number=bye.round_number)
        if self.chance(35):
            services.penalty_impose(
                tournament=self.t, player=reg.player, kind="expulsion", reason="sim", user=None
            )
            reg.refresh_from_db()
            assert reg.status == Registration.Status.EXPELLED
            with_undo = False
            self.done["expulsion"] += 1
        else:
            reg = services.registration_withdraw(registration=reg)
            assert reg.status == Registration.Status.WITHDRAWN
            with_undo = self.chance(15)
            self.done["withdrawal"] += 1
        assert reg.last_round == number - 1
        if with_undo:
            reg = services.registration_withdrawal_undo(registration=reg)
            assert reg.status == ACTIVE and reg.last_round is None

    def maybe_revoke_expulsion(self) -> None:
        expelled = Registration.objects.filter(
            tournament=self.t, status=Registration.Status.EXPELLED
        )
        for reg in expelled:
            if self.chance(10):
                penalty = self.t.penalties.get(
                    player=reg.player, kind="expulsion", revoked_by__isnull=True
                )
                services.penalty_revoke(penalty=penalty, reason="sim", user=None)
                reg.refresh_from_db()
                assert reg.status == ACTIVE
                self.done["expulsion revoked"] += 1

    def late_entry(self, number: int) -> None:
        t = self.t
        player = services.player_create(name=f"{t.slug} L{number}", rating=1500)
        if self.system == SWISS:
            reg = services.registration_create(tournament=t, player=player)
            assert reg.first_round == number
            assert reg.start_rank == Registration.objects.filter(tournament=t).count()
            self.done["late entry"] += 1
            return
        try:
            services.registration_create(tournament=t, player=player)
        except Conflict as exc:
            assert "no late entry" in " ".join(exc.messages)
        else:
            raise AssertionError(f"a late entry into a {self.system} was accepted")
        assert not Registration.objects.filter(tournament=t, player=player).exists()

    # Pairing ----------------------------------------------------------------------------

    def expected_refusal(self, number: int) -> str | None:
        """Why round `number` must be refused, or None when it must be paired."""
        t = self.t
        if self.table and number > berger_length(len(self.table), self.system):
            return "complete"  # a finished table says so, whatever the planned rounds
        if self.system == KNOCKOUT and number > 1 and self.bracket.next(left_ids(t))[0] == "done":
            # so does a knockout with its champion, also when the others of the bracket left
            return "decided"
        if number > t.rounds_planned and self.system != KNOCKOUT:
            return "planned"  # a knockout goes on past its rounds until it is decided
        if len(field_of(t, number)) < 2:
            return "few"
        if self.system == SWISS and not swiss_feasible(t, number):
            return "blocked"
        if self.system == KNOCKOUT and number > 1:
            kind, ties = self.bracket.next(left_ids(t))
            if kind == "done" or not ties:
                return "decided"  # nobody left to play: every tie is of players who left
        return None

    def pair(self, number: int) -> Round | None:
        expected = self.expected_refusal(number)
        standings = selectors.standings_compute(tournament=self.t)
        self.scores_before = {row.entrant.id: row.score for row in standings}
        if self.system == KNOCKOUT and number > 1:
            self.next_expected = self.bracket.next(left_ids(self.t))
        before = Round.objects.filter(tournament=self.t).count()
        try:
            rnd = services.round_pair(tournament=self.t)
        except Conflict as exc:
            assert Round.objects.filter(tournament=self.t).count() == before, "a refusal stored"
            got = reason_of(exc)
            assert got is not None, f"round {number} refused for no known reason: {exc.messages}"
            assert got == expected, f"round {number}: refused ({exc.messages}), expected {expected}"
            self.ended_by = got
            return None
        assert expected is None, f"round {number} was paired, expected a refusal: {expected}"
        assert rnd.number == number and rnd.status == Round.Status.PUBLISHED
        return rnd

    def try_pair_pending(self, number: int) -> None:
        """A result still pending: the next round is refused and nothing is stored."""
        before = Round.objects.filter(tournament=self.t).count()
        try:
            services.round_pair(tournament=self.t)
        except Conflict as exc:
            assert reason_of(exc) == "pending", exc.messages
        else:
            raise AssertionError(f"round {number + 1} was paired over a pending result")
        assert Round.objects.filter(tournament=self.t).count() == before

    # Results and penalties ----------------------------------------------------------------

    def play(self, rnd: Round) -> None:
        games = [g for g in games_of(rnd) if g.kind == Game.Kind.GAME]
        for g in games:
            if self.chance(12):
                self.penalize(g)
        pending = [g for g in games if not g.result]
        # A battle declared lost (Art. 12.4 d) decides a game still pending: it cannot be
        # the one held back to show the refusal.
        open_games = [
            g
            for g in pending
            if not Penalty.objects.filter(
                game=g, kind="battle_lost", revoked_by__isnull=True
            ).exists()
        ]
        hold = None
        if open_games and rnd.number < self.t.rounds_planned and self.chance(15):
            hold = open_games[-1]
        for g in pending:
            if g is not hold:
                self.result(g)
        if hold is not None:
            self.try_pair_pending(rnd.number)
            self.done["refused: pending"] += 1
            self.result(hold)
        for g in games:
            if self.chance(6):
                self.penalize(g)
            if self.chance(4):
                self.result(g)  # a correction
        if self.system == KNOCKOUT:
            self.bracket.record(Game.objects.filter(round=rnd, kind=Game.Kind.GAME))

    def result(self, game: Game) -> None:
        result = self.draw(st.sampled_from(RESULTS))
        game = services.game_result_set(game=game, result=result)
        assert game.result == result
        self.done[result] += 1

    def penalize(self, game: Game) -> None:
        kind = self.draw(st.sampled_from(GAME_PENALTIES))
        offender = game.first if self.draw(st.booleans()) else game.second
        assert offender is not None
        services.penalty_impose(
            tournament=self.t,
            player=offender,
            kind=kind,
            reason="sim",
            user=None,
            game=game,
            amount="0.5" if kind == "reduce_points" else None,
        )
        self.penalties.append((game.pk, offender.pk, kind))
        self.done[kind] += 1

    # Checks of a round just paired -------------------------------------------------------

    def check_round(self, rnd: Round) -> None:
        check_no_empty_round(self.t)
        check_once_each(rnd)
        if self.system == SWISS:
            self.check_swiss(rnd)
        elif self.system in ROUND_ROBINS:
            self.check_berger(rnd)
        else:
            self.check_knockout(rnd)
        for g in games_of(rnd):
            if g.kind == Game.Kind.GAME:
                self.meetings[frozenset((g.first_id, g.second_id))] += 1

    def check_swiss(self, rnd: Round) -> None:
        t, number = self.t, rnd.number
        games = games_of(rnd)
        field_ids = field_of(t, number)
        seen = check_once_each(rnd)
        assert set(seen) == set(field_ids), (
            f"round {number}: not the field: missing {set(field_ids) - set(seen)}, "
            f"extra {set(seen) - set(field_ids)}"
        )
        asked = {g.first_id for g in games if g.kind == Game.Kind.REQUESTED_BYE}
        assert asked == requested_for(t, number) & set(field_ids)
        byes = [g.first_id for g in games if g.kind == Game.Kind.BYE]
        assert len(byes) == (len(field_ids) - len(asked)) % 2
        assert not any(g.kind == Game.Kind.FREE for g in games)
        met, had_bye = opponents_before(t, number)
        for g in games:
            if g.kind == Game.Kind.GAME:
                assert g.second_id not in met.get(g.first_id, ()), f"rematch in round {number}"
        if byes:
            # At most one pairing bye each where possible (none after a forfeit win), to a
            # player whose bye lets the rest pair; above the lowest score group only with
            # the explanation's reason (the Dutch criteria pair the rest better so).
            scores = self.scores_before
            ids = [p for p in field_ids if p not in asked]
            fresh = [c for c in bye_candidates(ids, met) if c not in had_bye]
            if byes[0] in had_bye:
                assert not fresh, f"round {number}: a second bye though {fresh} could have it"
            else:
                assert byes[0] in fresh
                low = min(scores.get(c, 0.0) for c in fresh)
                if scores.get(byes[0], 0.0) != low:
                    why = next(line for line in rnd.explanation if line.startswith("bye:"))
                    assert "above the lowest score group" in why, f"round {number}: {why}"

    def check_berger(self, rnd: Round) -> None:
        t, number = self.t, rnd.number
        if number == 1:
            self.table = field_of(t, 1)
        n = len(self.table)
        gone = left_ids(t)
        want = []
        for a, b in berger_round(n, number):
            first = self.table[a - 1]
            if b:
                want.append((Game.Kind.GAME, first, self.table[b - 1]))
            elif first not in gone:
                want.append((Game.Kind.FREE, first, None))
        got = [(g.kind, g.first_id, g.second_id) for g in games_of(rnd)]
        assert sorted(got, key=str) == sorted(want, key=str), f"round {number}: not Berger"
        for g in games_of(rnd):
            if g.kind != Game.Kind.GAME:
                continue
            a, b = g.first_id in gone, g.second_id in gone
            settled = {
                (True, True): Game.Result.DOUBLE_FORFEIT,
                (True, False): Game.Result.SECOND_FORFEIT_WIN,
                (False, True): Game.Result.FIRST_FORFEIT_WIN,
                (False, False): Game.Result.PENDING,
            }[a, b]
            assert g.result == settled, (number, g.board, g.result, settled)
            pair = frozenset((g.first_id, g.second_id))
            assert self.meetings[pair] < (2 if self.system == DOUBLE_ROUND_ROBIN else 1)

    def check_knockout(self, rnd: Round) -> None:
        t, number = self.t, rnd.number
        games = games_of(rnd)
        gone = left_ids(t)
        assert all(g.kind in (Game.Kind.GAME, Game.Kind.BYE) for g in games)
        got = [(g.first_id, g.second_id) for g in games]
        if number == 1:
            seeds = field_of(t, 1)
            size = 1 << max(len(seeds) - 1, 0).bit_length()
            byes = [a for a, b in got if b is None]
            assert sorted(byes) == sorted(seeds[: size - len(seeds)]), "byes not to top seeds"
            assert got == knockout_bracket(seeds)
            self.bracket.start(got)
            return
        kind, ties = self.next_expected
        gone = left_ids(self.t)
        # a tie of two who have left is not played: nobody goes on from it
        ties = [tie for tie in ties if not set(tie) - {None} <= gone]
        if kind == "replay":
            assert {frozenset(p) for p in got} == {frozenset(p) for p in ties}
            for a, b in got:
                assert b is not None
                assert a != self.bracket.last_first((a, b)), "a replay keeps the placement"
        else:
            assert got == ties, f"round {number}: {got} is not the next stage {ties}"
            for a, b in got:
                assert b is None or self.meetings[frozenset((a, b))] == 0, "stages rematch"
            self.bracket.start(got)
        for g in games:
            # Nobody who has left is in a later round but as the loser of a walkover.
            if g.first_id in gone and g.second_id not in gone and g.second_id is not None:
                assert g.result == Game.Result.SECOND_FORFEIT_WIN
            elif g.second_id in gone and g.first_id not in gone:
                assert g.result == Game.Result.FIRST_FORFEIT_WIN
            elif {g.first_id, g.second_id} - {None} <= gone:
                raise AssertionError(f"round {number}: {g} has only players who left")
            else:
                assert g.result == Game.Result.PENDING
