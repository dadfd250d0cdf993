"""The public pages as chess-results shows them: pairings with start numbers, ratings, points
and 1 – 0 / -½ results, player pages linking games and opponents, standings after any round,
the tie-break legend and crosstable links; read in queries that do not grow with the games."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rules.points import format_points
from tests.tournaments.services.factories import (
    Officials,
    event_make,
    officials_make,
    round_make,
)
from tournaments import services
from tournaments.models import Game
from tournaments.selectors import entrants, round_results, standings_compute
from tournaments.standings import compute_standings

pytestmark = pytest.mark.django_db


def three_rounds():  # type: ignore[no-untyped-def]
    """Ann, Bob, Cid, Dax, Eve: round 1 a win, a draw and a bye; round 2 a forfeit, a win
    and a bye; round 3 a win."""
    t, (a, b, c, d, e) = event_make(
        officials_make(),
        slug="pub-open",
        names=("Ann", "Bob", "Cid", "Dax", "Eve"),
        tiebreaks="buchholz,sonneborn_berger,wins",
    )
    r1 = round_make(t, [(a, b), (c, d), (e, None)])
    results = {1: Game.Result.FIRST_WIN, 2: Game.Result.DRAW}
    for g in r1.games.filter(kind=Game.Kind.GAME):
        services.game_result_set(game=g, result=results[g.board])
    r2 = round_make(t, [(d, a), (b, e), (c, None)])
    results = {1: Game.Result.SECOND_FORFEIT_WIN, 2: Game.Result.FIRST_WIN}
    for g in r2.games.filter(kind=Game.Kind.GAME):
        services.game_result_set(game=g, result=results[g.board])
    r3 = round_make(t, [(a, c), (e, d), (b, None)])
    for g in r3.games.filter(kind=Game.Kind.GAME, board=1):
        services.game_result_set(game=g, result=Game.Result.SECOND_WIN)
    return t, (a, b, c, d, e)


def row_of(page: str, board: int) -> str:
    m = re.search(rf'<tr id="board-{board}">(.*?)</tr>', page, re.S)
    assert m, f"board {board} not shown"
    return re.sub(r"<[^>]+>", "|", m.group(1))


def cells(row: str) -> list[str]:
    return [c.strip() for c in row.split("|") if c.strip()]


def test_pairings_show_start_numbers_ratings_points_and_results_in_points(client):
    t, (a, b, c, d, e) = three_rounds()
    page = client.get(f"/t/{t.slug}/round/1/").content.decode()
    # Board, start no., name, rating, points before, result, points, name, rating, start no.
    assert cells(row_of(page, 1)) == [
        "1",
        "1",
        "Ann",
        "2000",
        "0",
        "1 – 0",
        "0",
        "Bob",
        "1900",
        "2",
    ]
    assert "-½ – -½" in row_of(page, 2)
    assert cells(row_of(page, 3))[:6] == ["3", "5", "Eve", "1600", "0", "1"]  # the bye's point
    page2 = client.get(f"/t/{t.slug}/round/2/").content.decode()
    # Points before round 2: Dax drew (-½), Ann won (1); a forfeit is + / −.
    assert cells(row_of(page2, 1)) == [
        "1",
        "4",
        "Dax",
        "1700",
        "-½",
        "− – +",
        "1",
        "Ann",
        "2000",
        "1",
    ]
    assert f'href="/p/{d.pk}/"' in page2 and f'href="/p/{a.pk}/"' in page2
    game = Game.objects.get(round__tournament=t, round__number=2, board=1)
    assert f'href="/g/{game.pk}/"' in page2


def test_standings_after_each_round_equal_a_recomputation_at_that_round(client):
    t, _ = three_rounds()
    results, _ = round_results(tournament=t)
    for n in (1, 2, 3):
        shown = standings_compute(tournament=t, after_round=n)
        again = compute_standings(
            entrants(tournament=t),
            [r for r in results if r.round <= n],
            tiebreaks=t.tiebreak_list,
            rounds_completed=n,
        )
        assert [(r.entrant.id, r.score, r.tiebreaks) for r in shown] == [
            (r.entrant.id, r.score, r.tiebreaks) for r in again
        ]
        page = client.get(f"/t/{t.slug}/standings/?round={n}").content.decode()
        assert f"after round {n}" in page
        table = page[page.index('id="standings"') : page.index("</table>")]
        names = re.findall(r'href="/p/\d+/">([^<]+)<', table)
        assert names == [r.entrant.name for r in again]
        scores = re.findall(r'<td class="num score">([^<]*)<', table)
        assert scores == [format_points(r.score) for r in again]
        # Each row: rating and start number before the score, as chess-results lists them.
        shown_rows = re.findall(
            r'<td class="num">(\d+)</td><td class="num">(\d*)</td>\s*<td class="num score">', table
        )
        assert shown_rows == [(str(r.entrant.rating), str(r.entrant.start_rank)) for r in again]
    detail = client.get(f"/t/{t.slug}/").content.decode()
    for n in (1, 2, 3):
        assert f'href="/t/{t.slug}/standings/?round={n}"' in detail
    # After round 1 differs from the current standings: the page shows the round's own.
    one = [r.score for r in standings_compute(tournament=t, after_round=1)]
    assert one != [r.score for r in standings_compute(tournament=t)]


def test_standings_round_parameter_refuses_bad_input(client):
    t, _ = three_rounds()
    assert client.get(f"/t/{t.slug}/standings/?round=x").status_code == 400
    assert client.get(f"/t/{t.slug}/standings/?round=²").status_code == 400
    assert client.get(f"/t/{t.slug}/standings/?round=9").status_code == 404
    assert client.get(f"/t/{t.slug}/standings/?round=").status_code == 200


def test_legend_explains_each_tiebreak_and_the_sonneborn_berger_shift(client):
    t, _ = three_rounds()
    for path in ("standings/", "standings/?round=2", "crosstable/"):
        page = client.get(f"/t/{t.slug}/{path}").content.decode()
        legend = page[page.index('id="legend"') :]
        # Each column by its FIDE code, then one line: its name and what it counts.
        for code, name in (
            ("BH", "Buchholz"),
            ("SSB", "Shifted Sonneborn-Berger"),
            ("WON", "Number of Games Won"),
        ):
            assert f"<dt>{code}</dt><dd>{name}: " in legend, (path, code)
        table = page[: page.index('id="legend"')]
        assert all(f'<th class="num">{code}</th>' in table for code in ("BH", "SSB", "WON"))
        # ½ per round: after 2 rounds +1, after 3 rounds +1½.
        shift = "+1 after 2 rounds" if path.endswith("2") else "+1½ after 3 rounds"
        assert shift in legend, path


def test_crosstable_and_player_pages_link_players_and_games(client):
    t, (a, b, c, d, e) = three_rounds()
    page = client.get(f"/t/{t.slug}/crosstable/").content.decode()
    for p in (a, b, c, d, e):
        assert f'href="/p/{p.pk}/">{p.name}</a>' in page
    page = client.get(f"/p/{a.pk}/").content.decode()
    table = page[page.index('id="player-games"') :]
    for opp in (b, d, c):
        assert f'href="/p/{opp.pk}/">{opp.name}</a>' in table
    for g in Game.objects.filter(round__tournament=t).filter(first=a) | Game.objects.filter(
        round__tournament=t, second=a
    ):
        assert f'href="/g/{g.pk}/"' in table
    text = re.sub(r"<[^>]+>", "|", table)
    # Ann: won round 1, won round 2 by forfeit (placed second), lost round 3.
    assert "1 – 0" in text and "+ – −" in text and "0 – 1" in text


def queries(client, path: str) -> int:  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(path).status_code == 200, path
    return len(ctx.captured_queries)


def event_of(n: int, slug: str):  # type: ignore[no-untyped-def]
    names = tuple(f"{slug} {i}" for i in range(n))
    t, players = event_make(
        officials_make() if slug == "q-a" else _others(), slug=slug, names=names
    )
    for rnd in range(2):
        pairs = [(players[i], players[i + 1]) for i in range(0, n, 2)]
        if rnd:
            pairs = [(b, a) for a, b in pairs]
        r = round_make(t, pairs)
        for g in r.games.all():
            services.game_result_set(
                game=g, result=Game.Result.DRAW if g.board % 2 else "first_win"
            )
    return t, players


def _others():  # type: ignore[no-untyped-def]
    User = get_user_model()
    return Officials(*(User.objects.create_user(f"{n}-b") for n in ("o", "c", "a", "a2", "s")))


def test_public_pages_read_in_queries_that_do_not_grow_with_the_games(client):
    small, sp = event_of(4, "q-a")
    big, bp = event_of(12, "q-b")
    for path in ("round/2/", "standings/", "standings/?round=1", "crosstable/"):
        assert queries(client, f"/t/{big.slug}/{path}") == queries(
            client, f"/t/{small.slug}/{path}"
        ), path
    assert queries(client, f"/p/{bp[0].pk}/") == queries(client, f"/p/{sp[0].pk}/")
