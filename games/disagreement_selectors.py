"""Reads of the one question: does a game's counted result agree with its final record?"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from games.models import RecordSubmission
from games.selectors import proposed_result, records_final_of
from tournaments.models import Game, Tournament

# The Article a way of ending by the moves is decided under, where the rules name one.
TERMINATION_ARTICLES = {"capture": "5.1.1"}


@dataclass(frozen=True)
class RecordDisagreement:
    """A game whose entered result is not the one its final valid record (Art. 8.2), or that
    record's clock decision, decides, and which no ruling has settled."""

    game: Game
    record: RecordSubmission  # the final one, signed by both combatants
    entered: str  # the Game.Result entered
    decided: str  # the Game.Result the record decides

    @property
    def by_clock(self) -> bool:
        return not self.record.winner

    @property
    def article(self) -> str:
        if self.by_clock:
            return str((self.record.clock or {}).get("article") or "")
        return TERMINATION_ARTICLES.get(self.record.termination, "")

    def record_says(self) -> str:
        """What the record decides, in the reader's language: "green captures the Goal"."""
        if self.by_clock:
            loser = (self.record.clock or {}).get("loser", "")
            return gettext("%(side)s lost on time") % {"side": gettext(loser)}
        if self.record.termination == "capture":
            return gettext("%(side)s captures the Goal") % {"side": gettext(self.record.winner)}
        return gettext("%(side)s wins by %(termination)s") % {
            "side": gettext(self.record.winner),
            "termination": gettext(self.record.termination),
        }

    def describe(self) -> str:
        """record_says with its Article: "green captures the Goal (Art. 5.1.1)"."""
        said = self.record_says()
        return f"{said} (Art. {self.article})" if self.article else said

    def as_dict(self) -> dict[str, Any]:
        """The API's `record_disagreement`."""
        return {
            "entered": self.entered,
            "record_result": self.decided,
            "record": self.record.pk,
            "version": self.record.version,
            "termination": self.record.termination,
            "winner": self.record.winner,
            "clock_decision": (self.record.clock or {}).get("decision", ""),
            "article": self.article,
        }


def result_disagreements(*, games: Iterable[Game]) -> dict[int, RecordDisagreement]:
    """The disagreements among these games, by game id, in a fixed number of queries: an
    entered result that is not what the final valid record decides (by the moves or its
    clocks), unless the arbiter ruled that this result stands against that record."""
    entered = [g for g in games if g.kind == Game.Kind.GAME and g.result]
    finals = records_final_of(game_ids=[g.pk for g in entered])
    found = {}
    for game in entered:
        final = finals.get(game.pk)
        if final is None or not final.valid or final.status != RecordSubmission.Status.DONE:
            continue
        decided = proposed_result(submission=final, first_colour=game.first_colour_or_green)
        if decided is None or decided == game.result or final.result_upheld == game.result:
            continue
        found[game.pk] = RecordDisagreement(game, final, game.result, decided)
    return found


def game_disagreement(*, game: Game) -> RecordDisagreement | None:
    return result_disagreements(games=[game]).get(game.pk)


def tournament_disagreements(*, tournaments: Iterable[Tournament]) -> list[RecordDisagreement]:
    """Every disagreement of these tournaments' published rounds, by event, round and board."""
    games = (
        Game.objects.filter(
            round__tournament__in=list(tournaments),
            kind=Game.Kind.GAME,
            submissions__locked=True,
        )
        .exclude(result=Game.Result.PENDING)
        .distinct()
        .select_related("round__tournament", "first", "second")
        .order_by("round__tournament_id", "round__number", "board")
    )
    return list(result_disagreements(games=games).values())


def disagreement_warnings(*, tournament: Tournament) -> list[str]:
    """The pairing's warning for each disagreement of the event, naming its round and board."""
    return [
        gettext(
            "round %(round)s, board %(board)s (%(game)s): the result entered (%(entered)s) "
            "contradicts the signed record (%(record)s); the arbiter rules on it in the "
            "round's console"
        )
        % {
            "round": d.game.round.number,
            "board": d.game.board,
            "game": d.game,
            "entered": d.game.get_result_display(),
            "record": d.describe(),
        }
        for d in tournament_disagreements(tournaments=[tournament])
    ]
