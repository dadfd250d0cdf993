"""Checking a pool's published ratings against an exported history (`kz bundle export --pool`):
the rated results and their days, put in their periods and rated again from an empty pool,
must give every published rating to the last bit, and nobody else."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournaments.ratings.history import RatedBattle, Standing, pool_recompute
from tournaments.ratings.pools import PoolSettings, period_index, period_of

# The format of a pool's exported history (tournaments.rating_bundle writes it).
HISTORY_FORMAT = "kz-rating-history/1"
# The file in the bundle's folder that holds it.
RATING_HISTORY = "rating-history.json"


@dataclass(slots=True)
class VerifyReport:
    """What verifying found: `differences` empty when the published ratings follow."""

    pool: str
    periods: int = 0
    battles: int = 0
    players: int = 0
    differences: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences

    def as_json(self) -> dict[str, object]:
        return {
            "pool": self.pool,
            "ok": self.ok,
            "periods": self.periods,
            "battles": self.battles,
            "players": self.players,
            "differences": self.differences,
        }


class HistoryError(ValueError):
    """The history cannot be read (not this format, a field missing or of the wrong kind)."""


def _settings(body: Mapping[str, Any]) -> PoolSettings:
    raw = body.get("settings")
    if not isinstance(raw, dict):
        raise HistoryError("no pool settings")
    try:
        return PoolSettings(
            initial_rating=float(raw["initial_rating"]),
            initial_deviation=float(raw["initial_deviation"]),
            initial_volatility=float(raw["initial_volatility"]),
            tau=float(raw["tau"]),
            provisional_deviation=float(raw["provisional_deviation"]),
            period=str(raw["period"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise HistoryError(f"pool settings: {exc}") from None


def _periods(body: Mapping[str, Any], kind: str, report: VerifyReport) -> list[str]:
    """The closed periods' labels in order; a gap or a label out of place is a difference."""
    labels = [str(p["label"]) for p in body.get("periods", []) if p.get("closed")]
    try:
        numbers = [period_index(label=label, kind=kind) for label in labels]
    except ValueError as exc:
        raise HistoryError(str(exc)) from None
    for before, after, label in zip(numbers, numbers[1:], labels[1:], strict=False):
        if after != before + 1:
            report.differences.append(f"period {label}: not the one after the period before")
    return labels


def _battles(
    body: Mapping[str, Any], kind: str, closed: set[str]
) -> dict[str, list[tuple[dt.date, RatedBattle]]]:
    """Each closed period's rated battles, with their days."""
    found: dict[str, list[tuple[dt.date, RatedBattle]]] = {label: [] for label in closed}
    try:
        for event in body.get("events", []):
            for r in event.get("results", []):
                if r.get("rated_score") is None or not r.get("day"):
                    continue
                day = dt.date.fromisoformat(r["day"])
                label = period_of(day=day, kind=kind)
                if label in found:
                    battle = RatedBattle(
                        int(r["game"]), int(r["first"]), int(r["second"]), float(r["rated_score"])
                    )
                    found[label].append((day, battle))
    except (KeyError, TypeError, ValueError) as exc:
        raise HistoryError(f"results: {exc}") from None
    return found


def _published(body: Mapping[str, Any]) -> dict[int, tuple[float, float, float, int, str]]:
    try:
        return {
            int(p["player"]): (
                float(p["rating"]),
                float(p["deviation"]),
                float(p["volatility"]),
                int(p["games"]),
                str(p["last_period"]),
            )
            for p in body.get("published", [])
        }
    except (KeyError, TypeError, ValueError) as exc:
        raise HistoryError(f"published ratings: {exc}") from None


def _shown(values: tuple[float, float, float, int, str] | None) -> str:
    if values is None:
        return "none"
    rating, deviation, volatility, games, last = values
    return f"{rating!r} ±{deviation!r} σ {volatility!r}, {games} battles, last {last}"


def history_verify(body: Mapping[str, Any]) -> VerifyReport:
    """Rate the history's closed periods again and compare with its published ratings
    (HistoryError: a history that cannot be read)."""
    if body.get("format") != HISTORY_FORMAT:
        raise HistoryError(f"not a pool's rating history ({HISTORY_FORMAT})")
    report = VerifyReport(pool=str(body.get("pool", "")))
    conf = _settings(body)
    labels = _periods(body, conf.period, report)
    by_period = _battles(body, conf.period, set(labels))
    periods: list[tuple[str, Sequence[RatedBattle]]] = [
        (label, [b for _, b in sorted(by_period[label], key=lambda d: (d[0], d[1].battle))])
        for label in labels
    ]
    latest: dict[int, Standing] = {}
    try:
        for (_, battles), result in zip(
            periods, pool_recompute(periods=periods, settings=conf), strict=True
        ):
            for b in battles:
                latest[b.white] = result.standings[b.white]
                latest[b.black] = result.standings[b.black]
    except ValueError as exc:
        raise HistoryError(str(exc)) from None
    computed = {
        pid: (s.rating.rating, s.rating.deviation, s.rating.volatility, s.games, s.last_period)
        for pid, s in latest.items()
    }
    published = _published(body)
    for pid in sorted(computed.keys() | published.keys()):
        if computed.get(pid) != published.get(pid):
            report.differences.append(
                f"player {pid}: published {_shown(published.get(pid))}; "
                f"the results give {_shown(computed.get(pid))}"
            )
    report.periods = len(periods)
    report.battles = sum(len(b) for _, b in periods)
    report.players = len(computed)
    return report
