"""The FIDE Dutch reference (py4swiss, a port of bbpPairings) pairing a simulated event's round."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from py4swiss.engines import DutchEngine
from py4swiss.trf import TrfParser

from tournaments.pairing import Pairing, PairingPlayer, RoundPairing
from tournaments.pairing.simulate import Event
from tournaments.trf import TrfGame, TrfPlayer, TrfTournament, write_trf

# bbpPairings reads the shifted point system from BB? lines, JaVaFo and py4swiss from XXS:
# every result gains 1/2, so a draw (-1/2) is 0 and no score is negative.
XXS = "XXS WW=1.5 BW=1.5 WD=0.0 BD=0.0 WL=0.5 BL=0.5 ZPB=0.5 HPB=0.5 FPB=1.5 PAB=1.5 FW=1.5 FL=0.5"
COLOUR = {"F": "w", "S": "b", "-": "-"}


def event_trf(
    event: Event, present: list[PairingPlayer], rounds: int, bye: int | None = None
) -> str:
    """The event so far as a shifted TRF; players not in `present` (and `bye`, given the bye
    beforehand) sit the next round out."""
    t = TrfTournament(name="Simulated Klin Zha event", rounds=rounds)
    for pid, p in event.players.items():
        games = [
            TrfGame(rnd, g.opponent, COLOUR[g.placement], g.code)
            for rnd, g in enumerate(event.history[pid], start=1)
        ]
        # A rank keeps the line full length: py4swiss refuses a line cut short of column 89.
        t.players.append(
            TrfPlayer(p.rank, f"Player {pid}", points=p.score, rank=p.rank, games=games)
        )
    here = {p.id for p in present} - {bye}
    away = [str(pid) for pid in event.players if pid not in here]
    t.extra.append(XXS)
    # XXZ takes a list of start numbers; long lists are split over several lines.
    for i in range(0, len(away), 20):
        t.extra.append("XXZ " + " ".join(away[i : i + 20]))
    return write_trf(t, shift=True)


@dataclass(slots=True)
class ReferenceRun:
    result: RoundPairing
    seconds: float  # the engine's own work: reading the TRF and pairing


def pair_reference(
    event: Event, present: list[PairingPlayer], rounds: int, bye: int | None = None
) -> ReferenceRun:
    """Pair the next round of `event` with py4swiss' FIDE Dutch engine (start rank = id); with
    `bye`, that player has the bye and the engine pairs the others."""
    text = event_trf(event, present, rounds, bye)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "event.trf"
        path.write_text(text, encoding="utf-8")
        start = time.perf_counter()
        trf = TrfParser.parse(path)
        pairs = DutchEngine.generate_pairings(trf)
        seconds = time.perf_counter() - start
    result = RoundPairing(bye=bye)
    for pr in pairs:
        if pr.black == 0:
            result.bye = pr.white
        else:
            result.pairings.append(Pairing(pr.white, pr.black))
    return ReferenceRun(result, seconds)


def bye_outside_lowest_group(present: list[PairingPlayer], bye: int | None) -> bool:
    """Whether a bye goes above the lowest score group of the players allowed one, as FIDE
    C.04.3 (and ours, issue 24) may do where the rest pairs better so."""
    low = min((p.score for p in present if p.bye_allowed), default=None)
    return bye is not None and any(p.id == bye and p.score != low for p in present)


def pair_reference_under_our_rules(
    event: Event, present: list[PairingPlayer], rounds: int, ours: RoundPairing
) -> ReferenceRun:
    """The reference's pairing under our hard rules: told the event has a round more, so that
    its last-round exception for topscorers (FIDE C.04.3 A.7: absolute colour preferences
    set aside) never applies, since our placement limits have none. Its bye goes where the
    Dutch criteria put it, as ours does since issue 24 (before, where it gave the bye above
    the lowest score group it paired again with ours; `ours` is kept for that reading)."""
    del ours
    return pair_reference(event, present, rounds + 1)
