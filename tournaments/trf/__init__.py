"""FIDE Tournament Report Files (TRF16 and TRF-2025) read and written on plain objects.

The package's modules by topic: `file_records` (the objects), `reading`, `writing`,
`declared_points` (the scoring a file declares or an export states), `date_forms` (dates
in the forms real files write), `placeholders` (dummy players standing for the bye) and
`file_text` (an uploaded file's bytes as text).
Every name others import from `tournaments.trf` stays importable from here.
"""

from __future__ import annotations

from tournaments.trf.date_forms import DateReading, EventDates, date_read, event_dates, trf_date
from tournaments.trf.declared_points import (
    CHESS,
    KLIN_ZHA,
    TrfScoring,
    declared_scoring,
)
from tournaments.trf.file_records import (
    BYE_CODES,
    FORFEIT_CODES,
    PENDING,
    PLAYED_CODES,
    RESULT_CODES,
    TRF16,
    TRF2025,
    TrfError,
    TrfGame,
    TrfPlayer,
    TrfSpan,
    TrfTournament,
    late_zero_byes_drop,
    player_span,
    rounds_played,
    uncoloured_forfeits,
)
from tournaments.trf.file_text import trf_text_decode
from tournaments.trf.placeholders import placeholders_drop
from tournaments.trf.reading import read_trf
from tournaments.trf.writing import write_trf

# bbpPairings' BB? lines of a shifted export (Klin Zha's scoring, a pairing bye worth a win).
SHIFT_LINES = ("BBW  1.5", "BBD  0.0", "BBL  0.5", "BBZ  0.5", "BBF  0.5", "BBU  1.5")

__all__ = [
    "BYE_CODES",
    "FORFEIT_CODES",
    "CHESS",
    "KLIN_ZHA",
    "PENDING",
    "PLAYED_CODES",
    "RESULT_CODES",
    "SHIFT_LINES",
    "TRF16",
    "TRF2025",
    "DateReading",
    "EventDates",
    "TrfError",
    "TrfGame",
    "TrfPlayer",
    "TrfScoring",
    "TrfSpan",
    "TrfTournament",
    "date_read",
    "declared_scoring",
    "event_dates",
    "placeholders_drop",
    "late_zero_byes_drop",
    "uncoloured_forfeits",
    "player_span",
    "read_trf",
    "rounds_played",
    "trf_date",
    "trf_text_decode",
    "write_trf",
]
