"""TRF interchange: columns, codes, negative points, --shift, import and export round trip."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from tournaments.demo import DEMO_SLUG, demo_load
from tournaments.selectors import standings_compute
from tournaments.standings import standings_json
from tournaments.trf import TrfError, TrfGame, TrfPlayer, TrfTournament, read_trf, write_trf


def sample() -> TrfTournament:
    return TrfTournament(
        name="Test",
        city="Hall",
        start_date="2026/11/01",
        rounds=2,
        players=[
            TrfPlayer(
                1,
                "Ann",
                1600,
                "KLI",
                points=-0.5,
                rank=2,
                games=[TrfGame(1, 2, "w", "="), TrfGame(2, None, "-", "Z")],
            ),
            TrfPlayer(
                2,
                "Bob",
                1500,
                "KLI",
                points=0.5,
                rank=1,
                games=[TrfGame(1, 1, "b", "="), TrfGame(2, None, "-", "U")],
            ),
        ],
    )


def test_columns_and_round_trip():
    text = write_trf(sample())
    line = next(x for x in text.splitlines() if x.startswith("001    1"))
    assert line[4:8] == "   1"
    assert line[14:17] == "Ann"
    assert line[48:52] == "1600"
    assert line[79:84].strip() == "-0.5"  # a draw scores -1/2 with this tournament's scoring
    assert line[91:95] == "   2" and line[96] == "w" and line[98] == "="
    again = read_trf(text)
    assert [(p.start_rank, p.name, p.points, p.games) for p in again.players] == [
        (p.start_rank, p.name, p.points, p.games) for p in sample().players
    ]


def test_shift_keeps_every_difference():
    plain = read_trf(write_trf(sample()))
    shifted_text = write_trf(sample(), shift=True)
    assert "BBW  1.5" in shifted_text and "BBD  0.0" in shifted_text
    assert "BBL  0.5" in shifted_text and "BBU  1.5" in shifted_text
    shifted = read_trf(shifted_text)
    for a, b in zip(plain.players, shifted.players, strict=True):
        assert b.points - a.points == 1.0  # 1/2 x 2 rounds
        assert b.points >= 0


@pytest.mark.parametrize(
    "bad,where",
    [
        ("012 X\n001 abcd      Ann\n", "line 2"),
        ("012 X\n", "no player"),
        ("012 X\n" + "001    1      Ann".ljust(89) + "  0009 w 1\n", "unknown start rank"),
        ("012 X\nXXR two\n001    1      Ann\n", "line 2"),
        ("012 X\n" + "001    1      Ann".ljust(89) + "  0001 q 1\n", "line 2"),
    ],
)
def test_errors_name_the_line(bad, where):
    with pytest.raises(TrfError, match=where):
        read_trf(bad)


@pytest.mark.django_db
def test_export_import_keeps_the_standings(tmp_path, capsys):
    tournament, *_ = demo_load()
    call_command("kz", "trf", "export", DEMO_SLUG)
    text = capsys.readouterr().out
    path = tmp_path / "demo.trf"
    path.write_text(text, encoding="utf-8")
    call_command("kz", "trf", "import", str(path), "--json")
    slug = json.loads(capsys.readouterr().out)["slug"]
    from tournaments.models import Tournament

    copy = Tournament.objects.get(slug=slug)
    tbs = tournament.tiebreak_list
    assert standings_json(standings_compute(tournament=copy), tbs) == standings_json(
        standings_compute(tournament=tournament), tbs
    )
    call_command("kz", "trf", "export", DEMO_SLUG, "--shift")
    shifted = capsys.readouterr().out
    assert "BBW  1.5" in shifted
