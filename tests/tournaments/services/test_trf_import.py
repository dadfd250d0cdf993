"""A tournament created from a TRF file, called directly: its players and start ranks, its
rounds with results (forfeits, double forfeits), byes and placement order from the colours,
the standings that follow, slugs kept unique, and inconsistent pairings refused."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied

from tournaments import selectors, services
from tournaments.models import Game, Player, Registration, Tournament
from tournaments.trf import TrfError

pytestmark = pytest.mark.django_db

Block = tuple[int, str, str]  # (opponent's start rank or 0, colour, result code)


def player_line(rank: int, name: str, rating: int, federation: str, blocks: list[Block]) -> str:
    """A TRF-16 `001` line: start rank in columns 5-8, name 15-47, rating 49-52,
    federation 54-56, then one 10-column block per round from column 92."""
    head = f"001 {rank:>4} {'':1}{'':>3} {name:<33} {rating:>4} {federation:>3} {'':>11} {'':>10}"
    head += f"{'':>5} {'':>4}"
    assert len(head) == 89
    return head + "".join(f"  {opp or '0000':>4} {colour} {code}" for opp, colour, code in blocks)


# Round 1: Ann (first) beats Bob; Dax (first) and Cid draw; Eve has the pairing bye.
# Round 2: Ann wins by forfeit against Cid, who placed first; Bob (first) loses to Eve; Dax
#          asked for a half-point bye.
# Round 3: Ann and Dax both forfeit; Cid (first) beats Bob; Eve is absent.
PLAYERS = [
    (1, "Ann", 1800, "KLI", [(2, "w", "1"), (3, "b", "+"), (4, "w", "-")]),
    (2, "Bob", 1700, "KLI", [(1, "b", "0"), (5, "w", "0"), (3, "b", "L")]),
    (3, "Cid", 1600, "ROM", [(4, "b", "="), (1, "w", "-"), (2, "w", "W")]),
    (4, "Dax", 1500, "", [(3, "w", "="), (0, "-", "H"), (1, "b", "-")]),
    (5, "Eve", 1400, "FED", [(0, "-", "U"), (2, "b", "1"), (0, "-", "-")]),
]


def trf_text(name: str = "Rigel Cup 2026", players=PLAYERS, rounds: int = 3) -> str:  # type: ignore[no-untyped-def]
    lines = [
        f"012 {name}",
        "022 Rigel",
        "042 2026/03/01",
        "052 2026/03/02",
        f"XXR {rounds}",
        *(player_line(*p) for p in players),
    ]
    return "\n".join(lines) + "\n"


def games(t: Tournament, number: int) -> list[tuple[int, str, str, str | None, str]]:
    rows = Game.objects.filter(round__tournament=t, round__number=number).order_by("board")
    return [
        (g.board, g.kind, g.first.name, g.second.name if g.second else None, g.result)
        for g in rows.select_related("first", "second")
    ]


def test_the_tournament_and_its_players(officials):
    t = services.tournament_import_trf(text=trf_text())
    assert (t.name, t.slug, t.venue, t.rounds_planned) == (
        "Rigel Cup 2026",
        "rigel-cup-2026",
        "Rigel",
        3,
    )
    assert (t.start_date, t.end_date, t.organizer) == (date(2026, 3, 1), date(2026, 3, 2), None)
    regs = Registration.objects.filter(tournament=t).select_related("player").order_by("start_rank")
    assert [(r.start_rank, r.player.name, r.player.rating, r.player.federation) for r in regs] == [
        (1, "Ann", 1800, "KLI"),
        (2, "Bob", 1700, "KLI"),
        (3, "Cid", 1600, "ROM"),
        (4, "Dax", 1500, ""),
        (5, "Eve", 1400, "FED"),
    ]
    assert all(r.status == "active" for r in regs)


def test_rounds_results_forfeits_byes_and_colours(officials):
    t = services.tournament_import_trf(text=trf_text())
    assert list(t.rounds.values_list("number", "status")) == [
        (1, "published"),
        (2, "published"),
        (3, "published"),
    ]
    assert games(t, 1) == [
        (1, "game", "Ann", "Bob", "first_win"),
        (2, "game", "Dax", "Cid", "draw"),  # colour w: Dax placed first
        (3, "bye", "Eve", None, ""),
    ]
    assert games(t, 2) == [
        (1, "game", "Cid", "Ann", "second_forfeit_win"),
        (2, "game", "Bob", "Eve", "second_win"),
        (3, "requested_bye", "Dax", None, ""),
    ]
    assert games(t, 3) == [
        (1, "game", "Ann", "Dax", "double_forfeit"),
        (2, "game", "Cid", "Bob", "first_win"),  # W/L codes; Eve absent: no game
    ]


def test_the_standings_follow_from_the_imported_rounds(officials):
    t = services.tournament_import_trf(text=trf_text())
    rows = {r.entrant.name: r.score for r in selectors.standings_compute(tournament=t)}
    # win 1, loss 0, draw -1/2, forfeits 1/0, double forfeit 0, pairing bye 1,
    # absent 0 (tournaments.md); Dax's H is a half-point bye, +1/2 (tournaments/trf.py)
    assert rows == {"Ann": 2, "Bob": 0, "Cid": 0.5, "Dax": 0, "Eve": 2}


def test_slugs_stay_unique(officials):
    first = services.tournament_import_trf(text=trf_text())
    second = services.tournament_import_trf(text=trf_text())
    third = services.tournament_import_trf(text=trf_text())
    assert [first.slug, second.slug, third.slug] == [
        "rigel-cup-2026",
        "rigel-cup-2026-2",
        "rigel-cup-2026-3",
    ]
    assert Tournament.objects.filter(name="Rigel Cup 2026").count() == 3
    # Each import has players of its own.
    assert Player.objects.filter(name="Ann").count() == 3


def test_a_name_without_slug_characters_or_a_long_one(officials):
    t = services.tournament_import_trf(text=trf_text(name="!!!"))
    assert (t.name, t.slug) == ("!!!", "imported")
    long = services.tournament_import_trf(text=trf_text(name="Open " * 20))
    assert len(long.slug) <= 60 and long.slug.startswith("open-open")


def test_planned_rounds_beyond_those_played(officials):
    t = services.tournament_import_trf(text=trf_text(rounds=7))
    assert t.rounds_planned == 7 and t.rounds.count() == 3


def test_the_organizer_given_owns_the_import(officials):
    with pytest.raises(PermissionDenied):
        services.tournament_import_trf(text=trf_text(), organizer=officials.stranger)
    assert not Tournament.objects.exists()
    boss = get_user_model().objects.create_user("boss", password="pw-boss-12345", is_staff=True)
    assert services.tournament_import_trf(text=trf_text(), organizer=boss).organizer == boss


def test_an_inconsistent_pairing_is_refused_and_nothing_is_kept(officials):
    players = [list(p) for p in PLAYERS]
    # In round 2 Bob says he met Cid, who met Ann.
    players[1][4] = [(1, "b", "0"), (3, "w", "0"), (3, "b", "L")]
    with pytest.raises(TrfError, match="round 2: 2 meets 3, who does not meet them"):
        services.tournament_import_trf(text=trf_text(players=[tuple(p) for p in players]))
    assert not Tournament.objects.exists() and not Player.objects.exists()


def test_a_game_the_opponent_does_not_record_is_refused(officials):
    players = [list(p) for p in PLAYERS]
    # Eve left round 2 blank although Bob says he met her.
    players[4][4] = [(0, "-", "U")]
    with pytest.raises(TrfError, match="round 2: 2 meets 5, who does not meet them"):
        services.tournament_import_trf(text=trf_text(players=[tuple(p) for p in players]))
    assert not Tournament.objects.exists()


def test_an_unreadable_file_is_refused(officials):
    with pytest.raises(TrfError, match="no player lines"):
        services.tournament_import_trf(text="012 Empty\n")
    assert not Tournament.objects.exists()
