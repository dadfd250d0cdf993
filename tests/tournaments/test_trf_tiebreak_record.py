"""The TRF names the event's tie-breaks by FIDE code on TRF-2025's `202` record (in every
dialect: engines skip it, FIDE's tie-break checker reads it); the import reads `202` (or
`212`, the standings with PTS first) back into the event's list, warning about codes not on
offer, and neither record makes a file TRF-2025."""

from __future__ import annotations

from datetime import date

import pytest

from tests.tournaments.test_trf_import_faithful import BLOCKS, lines, trf
from tournaments import services
from tournaments.services.trf_import import trf_import
from tournaments.trf import TRF16, TRF2025, read_trf
from tournaments.trf_export import tournament_trf

pytestmark = pytest.mark.django_db


def _event(tiebreaks: str):  # type: ignore[no-untyped-def]
    t = services.tournament_create(
        name="Rigel Open",
        slug="rigel-open",
        start_date=date(2026, 3, 1),
        rounds_planned=3,
        tiebreaks=tiebreaks,
    )
    for i, name in enumerate(BLOCKS):
        player = services.player_create(name=name, rating=2000 - 10 * i)
        services.registration_create(tournament=t, player=player)
    services.round_pair(tournament=t)
    return t


@pytest.mark.parametrize("shift", [False, True])
def test_the_export_names_the_tiebreaks_by_fide_code(shift):
    t = _event("BH-C1,SB,SSB,WON,DE")
    text = tournament_trf(tournament=t, shift=shift)
    assert "202 BH/C1,SB,SSB,WON,DE\n" in text
    assert read_trf(text).dialect == TRF16  # an event made here stays TRF16


def test_the_old_names_are_written_as_their_codes():
    t = _event("buchholz,sonneborn_berger,wins")
    assert "202 BH,SSB,WON\n" in tournament_trf(tournament=t)


def test_the_import_takes_the_tiebreaks_and_the_export_gives_them_back():
    text = tournament_trf(tournament=_event("PS,BH-M1,KS"))
    copy = trf_import(text=text)
    assert copy.warnings == []
    assert copy.tournament.tiebreak_list == ["PS", "BH-M1", "KS"]
    assert tournament_trf(tournament=copy.tournament) == text


@pytest.mark.parametrize(
    "records,expected",
    [
        (("202 BH/C1, SB,ARO",), ["BH-C1", "SB", "ARO"]),
        (("212 PTS,DE,WIN",), ["DE", "WIN"]),
        (("212 PTS,DE", "202 BH,WON"), ["BH", "WON"]),  # 202 wins wherever it stands
        (("202 BH,WON", "212 PTS,DE"), ["BH", "WON"]),
    ],
)
def test_202_or_212_sets_the_events_tiebreaks(records, expected):
    text = trf(*lines(), head=records)
    assert read_trf(text).dialect == TRF16  # neither marks the file TRF-2025
    imported = trf_import(text=text)
    assert imported.tournament.tiebreak_list == expected


def test_codes_not_on_offer_are_left_out_with_a_warning():
    imported = trf_import(text=trf(*lines(), head=("202 EDE,BH,SB/C1/P",)))
    assert imported.tournament.tiebreak_list == ["BH"]
    assert any("EDE, SB/C1/P" in w and "line 4" in w for w in imported.warnings)


def test_a_file_without_them_keeps_the_default_list():
    imported = trf_import(text=trf(*lines()))
    assert imported.tournament.tiebreaks == "BH,SSB,WON"


def test_a_trf_2025_file_stays_trf_2025():
    assert read_trf(trf(*lines(), head=("142 3", "202 BH"))).dialect == TRF2025
