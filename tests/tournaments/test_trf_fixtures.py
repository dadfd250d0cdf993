"""TRF files shaped as real programs write them (Swiss-Manager, Vega, lichess, JaVaFo,
bbpPairings, TRF-2025; the fixtures under `trf_fixtures/`, written here): each imports with
the warnings its quirks call for, exports back what it read in its own dialect, goes import →
export → import → export unchanged, and its `--shift` export is read by py4swiss (a port of
bbpPairings) and paired by its FIDE Dutch engine."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from django.core.management import call_command
from py4swiss.engines import DutchEngine
from py4swiss.trf import TrfParser

from tournaments.models import Game, Player, Registration, Tournament
from tournaments.services.trf_import import trf_import
from tournaments.trf import read_trf
from tournaments.trf_export import tournament_trf

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parent / "trf_fixtures"
FILES = sorted(p.name for p in FIXTURES.glob("*.trf"))
MINUS_HALF = "Klin Zha scores \u2212½ (Art. 10.1): points recomputed"
# Per file: the start date, the players imported, and a part of each warning expected.
EXPECTED = {
    "ambiguous_date.trf": (
        date(2020, 6, 5),
        4,
        [
            "line 2: the start date '05/06/2020' could be month first too; read day first",
            f"a draw as +½ (its points column); {MINUS_HALF}",
        ],
    ),
    "bbp_generated.trf": (
        None,
        6,
        [
            "no start date (042) in the file",
            "the import's date",
            f"a draw as +½ (BBD, line 4); {MINUS_HALF}",
        ],
    ),
    "javafo_xxs.trf": (
        date(2020, 5, 29),
        6,
        [
            "line 2: the start date 'n/a' fits no date form: kept as text only",
            "line 3: the first round's date 2020/05/29 is taken",
            f"a draw as +½ (XXS, line 6); {MINUS_HALF}",
        ],
    ),
    "lichess_2020.trf": (
        date(2020, 5, 29),
        3,
        [
            "line 8: 'BYE' (start rank 4) stands for the bye (its name)",
            f"a draw as +½ (its points column); {MINUS_HALF}",
        ],
    ),
    "swiss_manager_2010.trf": (
        date(2010, 9, 24),
        7,
        [
            "line 22: 'spielfrei' (start rank 8) stands for the bye (its name)",
            f"a draw as +½ (its points column); {MINUS_HALF}",
        ],
    ),
    "trf2025.trf": (date(2026, 11, 26), 4, [f"a draw as +½ (162, line 9); {MINUS_HALF}"]),
    "vega_2005.trf": (
        date(2005, 7, 28),
        5,
        [
            "line 8: a team line (013) in an individual event: kept for the export",
            f"a draw as +½ (its points column); {MINUS_HALF}",
        ],
    ),
}


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_every_fixture_has_its_expectations():
    assert sorted(EXPECTED) == FILES


@pytest.mark.parametrize("name", FILES)
def test_a_real_world_file_imports_with_its_warnings(name):
    start, players, expected = EXPECTED[name]
    imported = trf_import(text=fixture(name))
    t = imported.tournament
    assert Registration.objects.filter(tournament=t).count() == players
    if start is not None:
        assert t.start_date == start
    assert len(imported.warnings) == len(expected), imported.warnings
    for warning, part in zip(imported.warnings, expected, strict=True):
        assert part in warning, (warning, part)


@pytest.mark.parametrize("name", FILES)
def test_import_export_import_export_is_identical(name):
    first = tournament_trf(tournament=trf_import(text=fixture(name)).tournament)
    again = trf_import(text=first)
    assert tournament_trf(tournament=again.tournament) == first
    shifted = tournament_trf(tournament=again.tournament, shift=True)
    assert tournament_trf(tournament=trf_import(text=first).tournament, shift=True) == shifted


@pytest.mark.parametrize("name", FILES)
def test_the_export_writes_back_what_the_file_said(name):
    original = read_trf(fixture(name))
    exported_text = tournament_trf(tournament=trf_import(text=fixture(name)).tournament)
    exported = read_trf(exported_text)
    assert exported.dialect == original.dialect
    for code in ("012", "022", "032", "042", "052", "092", "102"):
        assert original.lines.get(code) is None or any(
            line.startswith(code) for line in exported_text.splitlines()
        ), code
    for line in original.extra:  # 082, 112, 122, 132, 013, XXC, TRF-2025 records…
        assert line in exported_text.splitlines(), line
    fields = ("name", "rating", "federation", "fide_id", "sex", "title", "birth")
    by_name = {p.name: p for p in exported.players}
    for p in original.players:
        if p.name in by_name:
            got = by_name[p.name]
            assert [getattr(got, f) for f in fields] == [getattr(p, f) for f in fields]


def test_the_header_keeps_its_texts_until_the_arbiter_changes_them():
    t = trf_import(text=fixture("swiss_manager_2010.trf")).tournament
    text = tournament_trf(tournament=t)
    assert "042 24/09/2010" in text and "052 26/09/2010" in text
    assert "092 Individual: Swiss-System" in text and "102 Martin, Pierre (20600123)" in text
    Tournament.objects.filter(pk=t.pk).update(start_date=date(2010, 9, 23), name="Open 2010")
    text = tournament_trf(tournament=Tournament.objects.get(pk=t.pk))
    assert "042 2010/09/23" in text and "012 Open 2010" in text
    assert "052 26/09/2010" in text


def test_forfeits_keep_no_colour_and_the_scoring_line_states_the_points():
    t = trf_import(text=fixture("swiss_manager_2010.trf")).tournament
    text = tournament_trf(tournament=t)
    forfeits = [b for line in text.splitlines() if line.startswith("001") for b in blocks(line)]
    forfeits = [b for b in forfeits if b[2] in "+-" and b[0] != "0000"]
    assert forfeits and all(colour == "-" for _, colour, _ in forfeits)
    assert "XXS WW=1.0 BW=1.0 WD=-0.5 BD=-0.5 WL=0.0 BL=0.0" in text
    shifted = tournament_trf(tournament=t, shift=True)
    assert "XXS WW=1.5 BW=1.5 WD=0.0 BD=0.0 WL=0.5 BL=0.5 ZPB=0.5 HPB=1.0 FPB=1.5" in shifted
    assert "BBD  0.0" in shifted


def test_a_trf_2025_file_comes_back_in_its_dialect():
    imported = trf_import(text=fixture("trf2025.trf"))
    ids = dict(
        Player.objects.filter(registrations__tournament=imported.tournament).values_list(
            "name", "national_id"
        )
    )
    assert ids["Ivanov, Ivan"] == "12345678" and ids["Petrova, Olga"] == ""
    text = tournament_trf(tournament=imported.tournament)
    assert "162  W 1.0    D-0.5    L 0.0    A 0.0    P 1.0" in text
    assert "142 3" in text and "202 BH/C1,BH,SB" in text
    assert "RUS    1 m    Ivanov, Ivan" in text
    vega = trf_import(text=fixture("vega_2005.trf")).tournament
    assert vega.trf_source["dialect"] == "TRF16"
    # A TRF16 export states its points on a 162 record too, for FIDE's tie-break checker.
    assert "162  W 1.0    D-0.5" in tournament_trf(tournament=vega)


def test_a_placeholder_leaves_byes_behind():
    t = trf_import(text=fixture("swiss_manager_2010.trf")).tournament
    names = set(Registration.objects.filter(tournament=t).values_list("player__name", flat=True))
    assert "spielfrei" not in names and len(names) == 7
    byes = Game.objects.filter(round__tournament=t, kind=Game.Kind.BYE)
    assert sorted(byes.values_list("round__number", "first__name")) == [
        (1, "Rossi, Marco"),
        (2, "Garcia, Ana"),
        (3, "Meier, Hans"),
    ]


def blocks(line: str) -> list[tuple[str, str, str]]:
    body = line[89:]
    return [
        (body[i + 2 : i + 6].strip(), body[i + 7], body[i + 9])
        for i in range(0, len(body) - 9, 10)
        if body[i : i + 10].strip()
    ]


@pytest.mark.parametrize("name", FILES)
def test_py4swiss_reads_every_shifted_export_and_pairs_from_it(name, tmp_path):
    t = trf_import(text=fixture(name)).tournament
    for source in (t, trf_import(text=tournament_trf(tournament=t)).tournament):
        path = tmp_path / "shifted.trf"
        path.write_text(tournament_trf(tournament=source, shift=True), encoding="utf-8")
        parsed = TrfParser.parse(path, strict=False)  # validates points, results, colours
        played = max(len(p.results) for p in parsed.player_sections)
        if played < parsed.x_section.number_of_rounds:
            pairs = DutchEngine.generate_pairings(parsed)
            assert pairs


def test_check_prints_what_it_would_do_and_stores_nothing(tmp_path, capsys):
    path = tmp_path / "sm.trf"
    path.write_text(fixture("swiss_manager_2010.trf"), encoding="utf-8")
    call_command("kz", "trf", "import", str(path), "--check", "--json")
    out = json.loads(capsys.readouterr().out)
    assert out["check"] is True and out["slug"] == "open-de-printemps-2010"
    assert (out["players"], out["rounds"], out["byes"], out["dialect"]) == (7, 3, 3, "TRF16")
    assert any("spielfrei" in w for w in out["warnings"])
    call_command("kz", "trf", "import", str(path), "--check")
    text = capsys.readouterr().out
    assert text.startswith("would import 'Open de Printemps 2010' as open-de-printemps-2010")
    assert "nothing stored" in text and "warning: line 22: 'spielfrei'" in text
    assert not Tournament.objects.exists() and not Player.objects.exists()


def test_check_of_a_refused_file_says_which_line(tmp_path, capsys):
    path = tmp_path / "bad.trf"
    path.write_text(fixture("vega_2005.trf").replace("   3 w 1", "   3 w 9", 1), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        call_command("kz", "trf", "import", str(path), "--check", "--json")
    assert exit_.value.code == 1
    assert json.loads(capsys.readouterr().out)["error"].startswith("line 9: round 1: result '9'")
    assert not Tournament.objects.exists()
