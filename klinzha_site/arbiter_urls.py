"""The arbiter's pages, under /arbiter/: the tournament's (tournaments) and the round
console's (games), in one namespace."""

from django.urls import path

from games import arbiter_views as console
from tournaments import arbiter_check_in as check_in
from tournaments import arbiter_entrants as entrants
from tournaments import arbiter_trf, player_merge_views
from tournaments import arbiter_views as v

app_name = "arbiter"
urlpatterns = [
    path("", console.dashboard, name="dashboard"),
    path("new/", v.tournament_new, name="new"),
    path("time-control/", v.time_control_preview_view, name="time-control"),
    path("import/trf/", arbiter_trf.trf_import_page, name="trf-import"),
    path("players/merge/", player_merge_views.players_merge, name="players-merge"),
    path("t/<slug:slug>/", v.manage, name="manage"),
    path("t/<slug:slug>/settings/", v.settings_update, name="settings"),
    path("t/<slug:slug>/officials/", v.officials_update, name="officials"),
    path("t/<slug:slug>/entrants/", v.entrant_add, name="entrant-add"),
    path("t/<slug:slug>/entrants/bulk/", entrants.entrants_bulk, name="entrants-bulk"),
    path("t/<slug:slug>/entrants/<int:player_id>/withdraw/", v.entrant_withdraw, name="withdraw"),
    path(
        "t/<slug:slug>/entrants/<int:player_id>/undo-withdrawal/",
        v.entrant_withdrawal_undo,
        name="withdraw-undo",
    ),
    path("t/<slug:slug>/start-ranks/", v.start_ranks, name="start-ranks"),
    path("t/<slug:slug>/byes/", v.bye_request, name="bye-request"),
    path("t/<slug:slug>/accounts/", v.account_link, name="account"),
    path("t/<slug:slug>/records/", console.records_upload, name="records-upload"),
    path("t/<slug:slug>/check-in/", check_in.check_in_page, name="check-in"),
    path("t/<slug:slug>/check-in/window/", check_in.check_in_window, name="check-in-window"),
    path("t/<slug:slug>/check-in/close/", check_in.check_in_close, name="check-in-close"),
    path("t/<slug:slug>/check-in/<int:player_id>/", check_in.check_in_set, name="check-in-set"),
    path("t/<slug:slug>/pair/", v.pair, name="pair"),
    path("t/<slug:slug>/pairing/<int:job_id>/", v.pairing_job, name="pairing-job"),
    path("t/<slug:slug>/round/<int:number>/", console.round_console, name="round"),
    path("t/<slug:slug>/round/<int:number>/results/", console.results_grid, name="results"),
    path("t/<slug:slug>/round/<int:number>/edit/", v.round_edit, name="round-edit"),
    path("t/<slug:slug>/round/<int:number>/publish/", v.round_publish, name="round-publish"),
    path("t/<slug:slug>/round/<int:number>/discard/", v.round_discard, name="round-discard"),
    path("t/<slug:slug>/round/<int:number>/unpublish/", v.round_unpublish, name="round-unpublish"),
    path("t/<slug:slug>/round/<int:number>/schedule/", v.round_schedule, name="round-schedule"),
    path("t/<slug:slug>/game/<int:game_id>/result/", console.result_enter, name="result"),
    path(
        "t/<slug:slug>/game/<int:game_id>/from-record/",
        console.result_from_record,
        name="from-record",
    ),
    path(
        "t/<slug:slug>/game/<int:game_id>/record-disagreement/",
        console.result_disagreement,
        name="record-disagreement",
    ),
    path(
        "t/<slug:slug>/game/<int:game_id>/countersign/",
        console.result_countersign,
        name="countersign",
    ),
    path("t/<slug:slug>/game/<int:game_id>/timeout/", console.game_timeout, name="timeout"),
    path(
        "t/<slug:slug>/record/<int:submission_id>/requeue/",
        console.record_requeue,
        name="record-requeue",
    ),
    path("t/<slug:slug>/irregularities/", console.irregularity, name="irregularity"),
    path("t/<slug:slug>/penalties/", v.penalty_impose, name="penalty"),
    path("t/<slug:slug>/penalties/revoke/", v.penalty_revoke, name="revoke"),
    path("t/<slug:slug>/audit/", v.audit, name="audit"),
    path("t/<slug:slug>/export.trf", v.export_trf, name="export-trf"),
]
