"""Writes of the games app, one transaction each, by topic: records (submission, validation),
bulk upload, signatures, clocks, the arbiter's rulings, and battles played online. The names
are gathered here for callers; the modules import each other directly."""

from games.services.bulk import MAX_UPLOAD_BYTES, BulkUpload, bulk_upload, upload_size_check
from games.services.clocks import (
    clock_adjustment_add,
    clock_adjustment_revoke,
    latecomers_record,
    penalty_clock_effect_apply,
)
from games.services.disagreements import result_disagreement_rule
from games.services.live_battles import (
    LiveRefusal,
    live_battle_flag,
    live_battle_open,
    live_draw,
    live_flags_sweep,
    live_move_play,
    live_resign,
)
from games.services.records import (
    MAX_RECORD_BYTES,
    VALIDATION_BATCH,
    record_correction_create,
    submission_create,
    submission_enqueue,
    submission_enqueue_many,
    verdict_compute,
)
from games.services.rulings import (
    game_result_confirm,
    game_timeout_decide,
    irregularity_declare,
    record_correction_rule,
)
from games.services.signatures import signature_add, signing_key_register
from games.services.validation import (
    submission_requeue_stale,
    submission_retry,
    submission_validate,
    submission_validate_many,
)

__all__ = [
    "MAX_RECORD_BYTES",
    "MAX_UPLOAD_BYTES",
    "VALIDATION_BATCH",
    "BulkUpload",
    "LiveRefusal",
    "bulk_upload",
    "clock_adjustment_add",
    "clock_adjustment_revoke",
    "game_result_confirm",
    "game_timeout_decide",
    "irregularity_declare",
    "latecomers_record",
    "live_battle_flag",
    "live_battle_open",
    "live_draw",
    "live_flags_sweep",
    "live_move_play",
    "live_resign",
    "penalty_clock_effect_apply",
    "record_correction_create",
    "record_correction_rule",
    "result_disagreement_rule",
    "signature_add",
    "signing_key_register",
    "submission_create",
    "submission_enqueue",
    "submission_enqueue_many",
    "submission_requeue_stale",
    "submission_retry",
    "submission_validate",
    "submission_validate_many",
    "upload_size_check",
    "verdict_compute",
]
