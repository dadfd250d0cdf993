"""The points a TRF file counts per result: what its `BB?`, `XXS` or `162` lines declare,
and the lines that state the points an export writes.

`H` is a half-point bye worth +½, half a win: not a draw's −½, which would punish a player
for asking. `F` is worth a win (1), `Z` nothing, `U` (the pairing-allocated bye) what the
tournament gives it. `BB?` lines (bbpPairings), `XXS` (JaVaFo) or `162` (TRF-2025) declare
a file's scoring, `H` then being ½ above a loss (BBL) unless `XXS HPB=` says otherwise, and
`U` its own points above a loss.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace

from tournaments.trf.file_records import KIND, TrfError, TrfGame, TrfTournament

_NUMBER = re.compile(r"-?[0-9]{1,6}(\.[0-9]{1,6})?", re.ASCII)
# A TRF-2025 `162` record: a result letter and its points, as often as needed.
_162_ITEM = re.compile(r"([WDLAPX])\s*(-?[0-9]{1,3}(?:\.[0-9]{1,3})?)", re.ASCII)


@dataclass(frozen=True, slots=True)
class TrfScoring:
    """Points per result as a file counts them. A pairing-allocated bye counts its own
    points above a loss (shifted like the rest): `pairing_bye` is only what the file
    declares for it (None: nothing), the bye each U game gets unless its player's points
    column says otherwise."""

    win: float = 1.0
    draw: float = -0.5
    loss: float = 0.0
    forfeit_win: float = 1.0
    forfeit_loss: float = 0.0
    half_bye: float = 0.5
    full_bye: float = 1.0
    zero_bye: float = 0.0
    pairing_bye: float | None = None
    absent: float = 0.0  # `0000 - -`
    unpaired: float = 0.0  # no entry at all, in a round played by others
    pending: float = 0.0

    def value(self, g: TrfGame | None, pairing_bye: float) -> float:
        """The points of one round's entry (None: no entry), a U bye being worth
        `pairing_bye` Klin Zha points."""
        if g is None:
            return self.unpaired
        if g.opponent is None:
            byes = {"H": self.half_bye, "F": self.full_bye, "Z": self.zero_bye}
            byes.update({"+": self.forfeit_win, "-": self.absent})
            if g.code == "U":
                return pairing_bye + self.loss
            return byes[g.code]
        kind = KIND[g.code]
        values = {"win": self.win, "draw": self.draw, "loss": self.loss}
        values.update({"forfeit win": self.forfeit_win, "forfeit loss": self.forfeit_loss})
        return values.get(kind, self.pending)

    def shifted(self, by: float) -> TrfScoring:
        """Every result worth `by` more (the pairing bye, counted above a loss, stays)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        raised = {k: v + by for k, v in values.items() if k != "pairing_bye" and v is not None}
        return replace(self, **raised)


KLIN_ZHA = TrfScoring()  # tournaments.md, and H as decided above
CHESS = TrfScoring(draw=0.5)  # a file from a chess program

# Declared values: bbpPairings' BB? lines, JaVaFo's XXS codes and TRF-2025's 162 letters,
# to TrfScoring's fields.
BB = {
    "BBW": ("win", "forfeit_win", "full_bye"),
    "BBD": ("draw",),
    "BBL": ("loss", "pending"),
    "BBZ": ("zero_bye", "unpaired"),
    "BBF": ("forfeit_loss", "absent"),
    "BBU": ("pairing_bye",),
}
XXS = {
    "WW": ("win",),
    "BW": ("win",),
    "WD": ("draw",),
    "BD": ("draw",),
    "WL": ("loss", "pending"),
    "BL": ("loss", "pending"),
    "ZPB": ("zero_bye", "unpaired"),
    "HPB": ("half_bye",),
    "FPB": ("full_bye",),
    "PAB": ("pairing_bye",),
    "FW": ("forfeit_win",),
    "FL": ("forfeit_loss", "absent"),
    "W": ("win", "forfeit_win", "full_bye"),
    "D": ("draw", "half_bye"),
    "L": ("loss", "pending", "zero_bye", "unpaired", "forfeit_loss", "absent"),
}
R162 = {
    "W": ("win", "forfeit_win", "full_bye"),
    "D": ("draw", "half_bye"),
    "L": ("loss", "pending"),
    "A": ("zero_bye", "unpaired", "forfeit_loss", "absent"),
    "P": ("pairing_bye",),
    "X": (),  # an unknown result (an adjourned game): pending here, worth nothing
}


def number_read(text: str, number: int, what: str) -> float:
    if not _NUMBER.fullmatch(text):
        raise TrfError(f"line {number}: {what} {text!r} is not a number like 1.5 or -0.5")
    return float(text)


def declared_scoring(t: TrfTournament) -> TrfScoring | None:
    """The scoring the file's BB?, XXS or 162 lines declare (chess defaults for what they
    leave out, as the engines take it), or None when it declares none."""
    if not t.scoring:
        return None
    values = {"draw": 0.5, **t.scoring}
    values.setdefault("half_bye", values.get("loss", 0.0) + 0.5)
    values.setdefault("pairing_bye", values.get("win", 1.0))
    return TrfScoring(**values)


def xxs_read(value: str, number: int, scoring: dict[str, float]) -> None:
    """An XXS line's `CODE=points` items into `scoring`."""
    for token in value.split():
        name, _, amount = token.partition("=")
        if name not in XXS:
            raise TrfError(f"line {number}: XXS code {name!r} is not one of {', '.join(XXS)}")
        for key in XXS[name]:
            scoring[key] = number_read(amount, number, f"XXS {name}")


def r162_read(value: str, number: int, scoring: dict[str, float]) -> None:
    """A TRF-2025 `162` line (a result letter, then its points, repeated) into `scoring`,
    what an XXS line declared before kept."""
    items = _162_ITEM.findall(value)
    if not items or _162_ITEM.sub("", value).strip():
        raise TrfError(
            f"line {number}: 162 wants result letters (W D L A P X) each with its points, "
            f"like 'W 1.0    D 0.5'; found {value!r}"
        )
    for letter, amount in items:
        for key in R162[letter]:
            # XXS says more (a half-point bye apart from a draw): what it declared stays.
            scoring.setdefault(key, float(amount))


def _points(value: float) -> str:
    return f"{value:.1f}" if abs(value * 10 - round(value * 10)) < 1e-9 else f"{value:g}"


def xxs_line(s: TrfScoring, pairing_bye: float) -> str:
    """The XXS line stating `s` (a pairing bye worth `pairing_bye` above a loss)."""
    items = (
        ("WW", s.win),
        ("BW", s.win),
        ("WD", s.draw),
        ("BD", s.draw),
        ("WL", s.loss),
        ("BL", s.loss),
        ("ZPB", s.zero_bye),
        ("HPB", s.half_bye),
        ("FPB", s.full_bye),
        ("PAB", pairing_bye + s.loss),
        ("FW", s.forfeit_win),
        ("FL", s.forfeit_loss),
    )
    return "XXS " + " ".join(f"{code}={_points(v)}" for code, v in items)


def r162_line(s: TrfScoring, pairing_bye: float) -> str:
    """The TRF-2025 `162` line stating `s`: a letter in column 6, its points in 7-10, the
    next letter nine columns on."""
    items = (("W", s.win), ("D", s.draw), ("L", s.loss), ("A", s.zero_bye))
    items += (("P", pairing_bye + s.loss),)
    return "162  " + "    ".join(f"{letter}{_points(v):>4}" for letter, v in items)


def bb_lines(s: TrfScoring, pairing_bye: float) -> list[str]:
    """bbpPairings' BB? lines stating `s`."""
    items = (("BBW", s.win), ("BBD", s.draw), ("BBL", s.loss), ("BBZ", s.zero_bye))
    items += (("BBF", s.forfeit_loss), ("BBU", pairing_bye + s.loss))
    return [f"{code} {v:4.1f}" for code, v in items]


def _signed(value: float) -> str:
    """Points with their sign, as the notes write them: +½, −½, 0, 1."""
    whole, frac = divmod(round(abs(value) * 4), 4)
    text = (str(whole) if whole or not frac else "") + ("", "¼", "½", "¾")[frac]
    return text if value == 0 else ("+" if value > 0 else "\u2212") + text


def scoring_note(s: TrfScoring, source: str) -> str:
    """A note saying how a file's scoring differs from Klin Zha's ("": it does not, or only
    by the same amount on every result, as a shifted export does)."""
    if (s.win - s.loss, s.draw - s.loss) == (KLIN_ZHA.win, KLIN_ZHA.draw):
        return ""
    parts = [f"a draw as {_signed(s.draw)}"]
    if s.win != KLIN_ZHA.win:
        parts.append(f"a win as {_signed(s.win)}")
    if s.loss != KLIN_ZHA.loss:
        parts.append(f"a loss as {_signed(s.loss)}")
    return (
        f"this file scores {', '.join(parts)} ({source}); Klin Zha scores "
        f"{_signed(KLIN_ZHA.draw)} (Art. 10.1): points recomputed"
    )
