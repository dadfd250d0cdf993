"""Writing a TRF file from plain records, in the dialect it came in, plain or for engines.

Points are written with the tournament's own scoring (a draw is −0.5) and scoring lines
state them: `XXS` (JaVaFo's, which engines read) and TRF-2025's `162` (which FIDE's
tie-break checker reads), in every dialect. With `shift`,
for engines made for chess that refuse negative points, every score is raised by ½ a round
and the scoring lines (`BB?` as well) state the shifted points, so every score difference is
unchanged; such an export is written for those engines (py4swiss, a port of bbpPairings, is
the check): every round up to the last played has a block, an absence or a round without an
entry being a zero-point bye (`0000 - Z`, "a known absence"), a forfeit keeps the placement
it was scheduled with (they refuse a game whose two sides give the same colour), each header
record appears once, and titles, sex and birth dates are written only in the forms they
read. A forfeit is written with the colour it is given: its scheduled placement, or `-`
where an imported file gave it none (a plain export only; FIDE's tie-break checker, like
the engines, reads a forfeit only with a colour on each side).
The event's tie-breaks are written, by FIDE code, on TRF-2025's `202` record in every
dialect (engines skip it; FIDE's tie-break checker reads it), modifiers in the checker's
form (`BH/C1`).
"""

from __future__ import annotations

import re

from tournaments.trf.declared_points import (
    KLIN_ZHA,
    TrfScoring,
    bb_lines,
    r162_line,
    xxs_line,
)
from tournaments.trf.file_records import (
    TrfGame,
    TrfPlayer,
    TrfTournament,
    rounds_played,
)

# TRF16 writes titles in letters (g, m, wg…), TRF-2025 and the engines in full (GM, IM…).
_TITLES = {"g": "GM", "m": "IM", "wg": "WGM", "f": "FM", "wm": "WIM", "c": "CM"}
_TITLES.update({"wf": "WFM", "wc": "WCM"})
_TITLES.update({full.lower(): full for full in list(_TITLES.values())})
_SEXES = {"m": "m", "w": "w", "f": "w"}
_BIRTH = re.compile(r"[0-9]{4}(/[0-9]{2}/[0-9]{2})?", re.ASCII)


def _points_text(points: float | None) -> str:
    return "" if points is None else f"{points:4.1f}"


def write_trf(
    t: TrfTournament,
    *,
    shift: bool = False,
    bye_points: float = 1.0,
    scoring: TrfScoring | None = None,
) -> str:
    """The TRF text. With `shift`, points are raised by ½ per round played so far, and the
    scoring lines say so (a pairing bye worth `bye_points` above a loss). `scoring`: the
    points written, stated on a scoring line (None: none, but the BB? lines when shifted)."""
    lines = _header_lines(t=t, shift=shift)
    lines.extend(_settings_lines(t=t, shift=shift, bye_points=bye_points, scoring=scoring))
    raise_by = 0.5 * rounds_played(t) if shift else None
    columns = max((g.round for p in t.players for g in p.games), default=0)
    if shift:
        columns = max(columns, rounds_played(t))
    for p in sorted(t.players, key=lambda p: p.start_rank):
        lines.append(_player_line(p=p, raise_by=raise_by, columns=columns))
    return "\n".join(lines) + "\n"


def _header_lines(*, t: TrfTournament, shift: bool) -> list[str]:
    """The tournament's header records, those it leaves blank left out, then the records
    kept as read (the numbered header ones in their order among them)."""
    records = (
        ("012", t.name),
        ("022", t.city),
        ("032", t.federation),
        ("042", t.start_date),
        ("052", t.end_date),
        ("062", str(len(t.players))),
        ("072", str(sum(1 for p in t.players if p.rating))),
        ("092", t.tournament_type),
        ("102", t.chief_arbiter),
    )
    # The name and the counts are always written.
    lines = [f"{code} {text}" for code, text in records if text or code in ("012", "062", "072")]
    kept = _kept_for_engines(t.extra) if shift else t.extra
    if t.tiebreaks:
        kept = [*kept, tiebreak_line(t.tiebreaks)]
    numbered = sorted((line for line in kept if _is_header(line)), key=lambda line: line[:3])
    lines.extend(numbered)
    lines.extend(line for line in kept if not _is_header(line))
    return lines


def tiebreak_line(codes: list[str]) -> str:
    """`202 BH/C1,SB,WON`: the tie-breaks in order, a modifier after a slash (the form FIDE's
    checker reads; `BH-C1` is the same code), comma-separated without blanks."""
    return "202 " + ",".join(code.replace("-", "/") for code in codes)


def _is_header(line: str) -> bool:
    return line[:3].isdigit() and line[2] == "2"


def _kept_for_engines(extra: list[str]) -> list[str]:
    """The kept records an engine reads without refusing the file: each header record once,
    no team lines, no round dates (py4swiss reads them nine columns apart, where TRF puts
    them ten; they play no part in pairing)."""
    seen: set[str] = set()
    out = []
    for line in extra:
        code = line[:3]
        if code in seen or code in ("013", "132"):
            continue
        if _is_header(line):
            seen.add(code)
        out.append(line)
    return out


def _settings_lines(
    *, t: TrfTournament, shift: bool, bye_points: float, scoring: TrfScoring | None
) -> list[str]:
    """XXR, XXP, XXZ and the scoring lines of the points written."""
    lines = [f"XXR {t.rounds}"]
    lines.extend(f"XXP {a} {b}" for a, b in sorted(t.forbidden))
    out = sorted(t.withdrawn)
    # Long lists are split over several lines, as JaVaFo writes them.
    lines.extend("XXZ " + " ".join(map(str, out[i : i + 20])) for i in range(0, len(out), 20))
    written = (scoring or KLIN_ZHA).shifted(0.5) if shift else scoring
    if scoring is not None and written is not None:
        lines.append(xxs_line(written, bye_points))
        # TRF-2025's own scoring record too, in every dialect: FIDE's tie-break checker
        # reads points from it alone (and refuses a file whose points it does not explain).
        lines.append(r162_line(written, bye_points))
    if shift and written is not None:
        lines.extend(bb_lines(written, bye_points))
    return lines


def _player_line(*, p: TrfPlayer, raise_by: float | None, columns: int) -> str:
    """A player's 001 line: the fixed columns (points raised by `raise_by` when shifted), then
    one block per round up to `columns` (blank where they have no entry), trailing blanks cut."""
    shift = raise_by is not None
    points = p.points
    if points is not None and raise_by is not None:
        points += raise_by
    sex, title, birth, fide_id = p.sex, p.title, p.birth, p.fide_id
    if shift:
        sex = _SEXES.get(sex.lower(), "")
        title = _TITLES.get(title.lower(), "")
        birth = birth if _BIRTH.fullmatch(birth) else ""
        fide_id = fide_id if fide_id.isascii() and fide_id.isdigit() else ""
    head = (
        f"001 {p.start_rank:>4} {sex[:1]:1}{title[:3]:>3} {p.name[:33]:<33} "
        f"{p.rating or '':>4} {p.federation[:3]:>3} {fide_id[:11]:>11} {birth[:10]:>10}"
    )
    head += f"{_points_text(points):>5} {p.rank or '':>4}"
    assert len(head) == 89
    by_round = {g.round: g for g in p.games}
    blocks = [_game_block(g=by_round.get(rnd), shift=shift) for rnd in range(1, columns + 1)]
    return (head + "".join(blocks)).rstrip()


def _game_block(*, g: TrfGame | None, shift: bool) -> str:
    """One round's `  oooo c r` block, ten blanks for no entry (a zero-point bye when
    shifted, as is an absence)."""
    if g is None or g.absent:
        if shift:
            return "  0000 - Z"
        if g is None:
            return "          "
    assert g is not None
    opp = f"{g.opponent:>4}" if g.opponent else "0000"
    return f"  {opp} {g.colour} {g.code or ' '}"
