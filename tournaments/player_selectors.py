"""Reads for a player's own page ("my games"): the next pairing, records to submit and sign,
the events they are in with the byes and withdrawal they may ask for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q
from django.utils.translation import gettext_lazy

from tournaments.models import Game, Player, Registration, Round, Tournament

# Results of a battle never played: no record is asked for.
FORFEITS = frozenset(
    {
        Game.Result.FIRST_FORFEIT_WIN,
        Game.Result.SECOND_FORFEIT_WIN,
        Game.Result.DOUBLE_FORFEIT,
    }
)


# A result from each side (the first placer's words, the second's), translated when shown.
OUTCOME_WORDS: dict[str, tuple[Any, Any]] = {
    Game.Result.FIRST_WIN: (gettext_lazy("won"), gettext_lazy("lost")),
    Game.Result.SECOND_WIN: (gettext_lazy("lost"), gettext_lazy("won")),
    Game.Result.DRAW: (gettext_lazy("drew"), gettext_lazy("drew")),
    Game.Result.FIRST_FORFEIT_WIN: (
        gettext_lazy("won by forfeit"),
        gettext_lazy("lost by forfeit"),
    ),
    Game.Result.SECOND_FORFEIT_WIN: (
        gettext_lazy("lost by forfeit"),
        gettext_lazy("won by forfeit"),
    ),
    Game.Result.DOUBLE_FORFEIT: (
        gettext_lazy("both lost by forfeit"),
        gettext_lazy("both lost by forfeit"),
    ),
}


@dataclass(frozen=True)
class MyGame:
    """One of the player's games as their page shows it."""

    game: Game
    opponent: Player | None
    places_first: bool
    # The latest record's version (0: none submitted) and whether this player signed it.
    record_version: int
    record_valid: bool | None
    signed: bool
    final: bool

    @property
    def to_submit(self) -> bool:
        """A battle without a record, whether or not its result is entered (the record is
        what the result is checked against); a forfeit was never played, so it has none."""
        return (
            self.game.kind == Game.Kind.GAME
            and self.record_version == 0
            and self.game.result not in FORFEITS
        )

    @property
    def outcome(self) -> str:
        """The result from this player's side: won, lost, drew (by forfeit where it was)."""
        words = OUTCOME_WORDS.get(self.game.result)
        if words is None:
            return ""
        return str(words[0] if self.places_first else words[1])

    @property
    def to_sign(self) -> bool:
        """Art. 8.2: each combatant signs the latest version of the record."""
        return self.game.kind == Game.Kind.GAME and self.record_version > 0 and not self.signed


def my_games(*, player: Player) -> list[MyGame]:
    """The player's games of published rounds, latest round first. The records are the
    games app's (`Game.submissions`, their `signatures`), read through the relations so
    that this layer imports nothing above it."""
    games = (
        Game.objects.filter(Q(first=player) | Q(second=player))
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round__tournament", "first", "second")
        .order_by("-round__tournament__start_date", "-round__number", "board")
    )
    role = {True: "first", False: "second"}
    rows = []
    for game in games:
        first = game.first_id == player.pk
        latest = (
            game.submissions.order_by("-version", "-id").values("pk", "version", "valid").first()
        )
        roles: set[str] = set()
        if latest is not None:
            roles = set(
                game.submissions.get(pk=latest["pk"]).signatures.values_list("role", flat=True)
            )
        rows.append(
            MyGame(
                game=game,
                opponent=game.second if first else game.first,
                places_first=first,
                record_version=latest["version"] if latest else 0,
                record_valid=latest["valid"] if latest else None,
                signed=role[first] in roles,
                final={"first", "second"} <= roles,
            )
        )
    return rows


def next_pairing(rows: list[MyGame]) -> MyGame | None:
    """The earliest game still without a result: the one to play next."""
    pending = [r for r in rows if r.game.kind == Game.Kind.GAME and not r.game.result]
    pending.sort(key=lambda r: (r.game.round.tournament_id, r.game.round.number, r.game.board))
    return pending[0] if pending else None


@dataclass(frozen=True)
class MyEntry:
    """An event the player is active in, as their page offers its requests: the rounds a
    bye may be asked for (a Swiss event's rounds not paired yet), the byes asked for
    (round, confirmed by an arbiter), and whether a withdrawal is asked."""

    registration: Registration
    bye_rounds: list[int]
    byes: list[tuple[int, bool]]
    withdrawal_asked: bool


def my_entries(*, player: Player) -> list[MyEntry]:
    """The player's active registrations in events with rounds still to pair."""
    regs = list(
        Registration.objects.filter(player=player, status=Registration.Status.ACTIVE)
        .select_related("tournament")
        .prefetch_related("bye_requests")
        .order_by("tournament__start_date", "tournament_id")
    )
    paired = dict(
        Round.objects.filter(tournament_id__in=[r.tournament_id for r in regs])
        .values("tournament_id")
        .annotate(n=Count("id"))
        .values_list("tournament_id", "n")
    )
    rows = []
    for reg in regs:
        t = reg.tournament
        done = paired.get(t.pk, 0)
        if done >= t.rounds_planned:
            continue
        swiss = t.pairing_system == Tournament.PairingSystem.SWISS
        first = max(done + 1, reg.first_round)
        byes = sorted((b.round_number, b.confirmed) for b in reg.bye_requests.all())
        asked = {n for n, _ in byes}
        rows.append(
            MyEntry(
                registration=reg,
                bye_rounds=(
                    [n for n in range(first, t.rounds_planned + 1) if n not in asked]
                    if swiss
                    else []
                ),
                byes=[(n, c) for n, c in byes if n > done],
                withdrawal_asked=reg.withdrawal_asked_at is not None,
            )
        )
    return rows
