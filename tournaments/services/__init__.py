"""Writes of the tournament, one transaction each, by topic: events (settings, officials),
entrants, check-in, rounds, results, round pairing and pairing jobs, penalties, TRF import,
series and clubs. The names are gathered here for callers; the modules import each other
directly."""

from tournaments.services.accounts import player_language_set
from tournaments.services.check_in import (
    check_in_close,
    check_in_record,
    check_in_reminders_queue,
    check_in_window_set,
)
from tournaments.services.clubs import club_officials_set
from tournaments.services.entrants import (
    bye_request_cancel,
    bye_request_create,
    club_create,
    entrant_register,
    forbidden_pair_create,
    forbidden_pair_delete,
    player_create,
    player_link_user,
    player_update,
    registration_create,
    registration_reinstate,
    registration_withdraw,
    registration_withdrawal_undo,
    start_rank_move,
    start_ranks_sort,
)
from tournaments.services.entrants_bulk import (
    EntrantRow,
    entrant_line_rows,
    entrants_bulk_register,
    entrants_register,
)
from tournaments.services.entrants_match import entrant_rows_match
from tournaments.services.events import (
    SETTINGS,
    officials_set,
    tournament_create,
    tournament_settings_check,
    tournament_update,
)
from tournaments.services.pairing_jobs import (
    PAIR_IN_WORKER_FROM,
    pairing_job_create,
    pairing_job_run,
)
from tournaments.services.penalties import penalty_impose, penalty_revoke
from tournaments.services.players_merge import players_merge
from tournaments.services.results import (
    ResultRow,
    ResultsEntered,
    game_lock,
    game_result_countersign,
    game_result_set,
    round_results_enter,
    round_results_set,
)
from tournaments.services.round_pairing import round_pair
from tournaments.services.rounds import (
    game_spindle_choose,
    round_create,
    round_discard,
    round_pairings_edit,
    round_publish,
    round_schedule,
    round_schedule_ahead,
    round_unpublish,
)
from tournaments.services.series import (
    series_create,
    series_event_accept,
    series_event_add,
    series_event_decline,
    series_event_remove,
    series_manage_require,
)
from tournaments.services.trf_import import (
    TrfCheck,
    TrfImport,
    tournament_import_trf,
    trf_import,
    trf_import_check,
)

__all__ = [
    "PAIR_IN_WORKER_FROM",
    "SETTINGS",
    "EntrantRow",
    "ResultRow",
    "ResultsEntered",
    "TrfCheck",
    "TrfImport",
    "bye_request_cancel",
    "check_in_close",
    "check_in_record",
    "check_in_reminders_queue",
    "check_in_window_set",
    "bye_request_create",
    "forbidden_pair_create",
    "forbidden_pair_delete",
    "club_create",
    "club_officials_set",
    "entrant_register",
    "entrant_line_rows",
    "entrant_rows_match",
    "entrants_bulk_register",
    "entrants_register",
    "game_lock",
    "game_result_countersign",
    "game_result_set",
    "game_spindle_choose",
    "officials_set",
    "pairing_job_create",
    "pairing_job_run",
    "penalty_impose",
    "players_merge",
    "penalty_revoke",
    "player_create",
    "player_language_set",
    "player_link_user",
    "player_update",
    "registration_create",
    "registration_reinstate",
    "registration_withdraw",
    "registration_withdrawal_undo",
    "round_create",
    "round_discard",
    "round_pair",
    "round_results_enter",
    "round_results_set",
    "round_pairings_edit",
    "round_publish",
    "round_schedule",
    "round_schedule_ahead",
    "round_unpublish",
    "series_create",
    "series_event_accept",
    "series_event_add",
    "series_event_decline",
    "series_event_remove",
    "series_manage_require",
    "start_rank_move",
    "start_ranks_sort",
    "tournament_create",
    "tournament_import_trf",
    "tournament_settings_check",
    "tournament_update",
    "trf_import",
    "trf_import_check",
]
