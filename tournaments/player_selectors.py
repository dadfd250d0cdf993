"""Reads for a player's own page ("my games"): the next pairing, records to submit and sign."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext_lazy

from tournaments.models import Game, Player, Round

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
