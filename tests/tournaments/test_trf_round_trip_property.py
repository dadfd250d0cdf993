"""Property: any file of the shapes real programs write (chess or Klin Zha points or none,
dates in any common form, TRF16 or TRF-2025 records, forfeits with and without colour,
byes of every kind, absences, player ids, titles, sex and birth dates) goes import → export
→ import → export unchanged, and py4swiss reads its `--shift` export."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from py4swiss.trf import TrfParser

from tournaments.services.trf_import import trf_import
from tournaments.trf import TrfGame, TrfPlayer, TrfTournament, write_trf
from tournaments.trf_export import tournament_trf

DATES = ["2026/03/01", "24/09/2010", "28. 07. 2005", "May 29, 2020", "26/11/26", "05/06/20", "?"]
CHESS = {"1": 1.0, "0": 0.0, "=": 0.5, "+": 1.0, "-": 0.0, "U": 1.0, "H": 0.5, "F": 1.0, "Z": 0.0}
KLIN = {**CHESS, "=": -0.5}
OTHER = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}
RECORDS = ["032 KLI", "102 Martok, Son of Urthog", "112 Kor", "122 90'+30\"", "082 0"]
RECORDS_2025 = ["142 6", "202 BH/C1,SB", "###"]


@st.composite
def tournaments(draw: st.DrawFn) -> str:
    n = draw(st.integers(2, 8))
    rounds = draw(st.integers(1, 4))
    games: dict[int, list[TrfGame]] = {rank: [] for rank in range(1, n + 1)}
    for rnd in range(1, rounds + 1):
        order = draw(st.permutations(list(range(1, n + 1))))
        absent = draw(st.sets(st.sampled_from(order), max_size=max(0, n - 2)))
        playing = [rank for rank in order if rank not in absent]
        if len(playing) % 2:
            games[playing.pop()].append(TrfGame(rnd, None, "-", draw(st.sampled_from("UHFZ"))))
        for rank in absent:
            games[rank].append(TrfGame(rnd, None, "-", "-"))
        for a, b in zip(playing[::2], playing[1::2], strict=True):
            code = draw(st.sampled_from(["1", "0", "=", "+", "-", "--"]))
            coloured = code[0] not in "+-" or draw(st.booleans())
            ca, cb = ("w", "b") if coloured else ("-", "-")
            theirs = "-" if code == "--" else OTHER[code]
            games[a].append(TrfGame(rnd, b, ca, code[0]))
            games[b].append(TrfGame(rnd, a, cb, theirs))
    scoring = draw(st.sampled_from([CHESS, KLIN, None]))
    players = [
        TrfPlayer(
            start_rank=rank,
            name=f"Player {rank}",
            rating=draw(st.sampled_from([0, 1500, 2450])),
            federation=draw(st.sampled_from(["", "ITA", "GER"])),
            fide_id=draw(st.sampled_from(["", "1100123", "4600045"])),
            sex=draw(st.sampled_from(["", "m", "w", "f"])),
            title=draw(st.sampled_from(["", "g", "wf", "GM", "IM"])),
            birth=draw(st.sampled_from(["", "1985", "1985/03/12", "1999/00/00", "12.03.1985"])),
            points=None if scoring is None else sum(scoring[g.code] for g in games[rank]),
            games=games[rank],
        )
        for rank in range(1, n + 1)
    ]
    extra = draw(st.lists(st.sampled_from(RECORDS + RECORDS_2025), unique=True))
    t = TrfTournament(
        name="Property Open",
        start_date=draw(st.sampled_from(DATES)),
        rounds=rounds + draw(st.integers(0, 2)),
        players=players,
        extra=[line for line in extra if line != "###"],
    )
    text = write_trf(t)
    return ("### a TRF-2025 comment\n" + text) if "###" in extra else text


@pytest.mark.django_db
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(tournaments())
def test_import_export_import_export_is_identical_and_py4swiss_reads_the_shift(text: str) -> None:
    with transaction.atomic():
        first = tournament_trf(tournament=trf_import(text=text).tournament)
        again = trf_import(text=first).tournament
        assert tournament_trf(tournament=again) == first
        shifted = tournament_trf(tournament=again, shift=True)
        transaction.set_rollback(True)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "shifted.trf"
        path.write_text(shifted, encoding="utf-8")
        TrfParser.parse(path, strict=False)  # raises on anything it refuses
