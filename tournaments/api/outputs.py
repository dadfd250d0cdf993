"""What the tournaments' API actions answer, one output serializer each, field for field in
the order clients have always read them. The small ones render the answer (the view hands
them the object); the standings and crosstable, thousands of cells read from the cache,
describe the selectors' JSON (tournaments.standings.standings_json,
tournaments.selectors.crosstable_json), and tests/test_api_bodies.py holds those bodies
to the schema."""

from __future__ import annotations

from rest_framework import serializers

from tournaments.api.serializers import AuditHeadSerializer
from tournaments.models import PairingJob, Registration, Round


class AccountOutSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    username = serializers.CharField(allow_null=True, help_text="the account; null: unlinked")


class RegistrationOutSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    first_round = serializers.IntegerField()
    start_rank = serializers.IntegerField(allow_null=True)


class EntrantBatchOutSerializer(serializers.Serializer):
    registered = serializers.IntegerField(help_text="how many were registered: every row")
    registrations = RegistrationOutSerializer(
        many=True, help_text="each row's registration, in the rows' order (a new player's id)"
    )


class MatchCandidateSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    club = serializers.CharField(source="club.name", default="")
    federation = serializers.CharField()
    fide_id = serializers.CharField()
    national_id = serializers.CharField()


class EntrantMatchSerializer(serializers.Serializer):
    """How one row of a batch reads against the known players (nothing stored)."""

    row = serializers.IntegerField(help_text="its index in the batch")
    match = serializers.ChoiceField(
        choices=["given", "known", "new", "ambiguous"],
        help_text=(
            "given: the row names its player; known: one known player matches; new: a new "
            "player; ambiguous: several could be (give the player's id)"
        ),
    )
    player = serializers.IntegerField(allow_null=True)
    candidates = MatchCandidateSerializer(many=True)


class EntrantMatchesOutSerializer(serializers.Serializer):
    rows = EntrantMatchSerializer(many=True)


class RoundResultsOutSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    entered = serializers.IntegerField(help_text="the rows given")
    changed = serializers.IntegerField(
        help_text="the games whose result changed: one audit entry each"
    )


class WithdrawalOutSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    last_round = serializers.IntegerField(
        allow_null=True, help_text="the last round played before the withdrawal"
    )


class WithdrawalUndoOutSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    status = serializers.ChoiceField(choices=Registration.Status.choices)


class ByeRequestOutSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="registration.player_id")
    round = serializers.IntegerField(source="round_number")


class ByeRequestRowSerializer(serializers.Serializer):
    """A requested bye as the list shows it (tournaments.selectors.bye_request_list)."""

    player = serializers.IntegerField()
    name = serializers.CharField()
    start_rank = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField()
    confirmed = serializers.BooleanField(
        help_text="false: asked by the player, to be confirmed by requesting that bye here"
    )


class ByeCancelOutSerializer(serializers.Serializer):
    cancelled = serializers.IntegerField(help_text="how many were cancelled: 0 or 1")


class ScheduleOutSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="number")
    starts_at = serializers.DateTimeField(allow_null=True)
    place = serializers.CharField(allow_blank=True)


class PairingJobOutSerializer(serializers.Serializer):
    """A pairing in a worker (tournaments.pairing_selectors.pairing_job_state)."""

    id = serializers.IntegerField()
    round = serializers.IntegerField()
    status = serializers.ChoiceField(choices=PairingJob.Status.choices)
    progress = serializers.IntegerField(min_value=0, max_value=100, help_text="percent")
    message = serializers.CharField(allow_blank=True, help_text="a failed job's: why")


class PairingEditOutSerializer(serializers.Serializer):
    warnings = serializers.ListField(
        child=serializers.CharField(), help_text="the rules the edit breaks, kept on the round"
    )


class RoundStatusOutSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="number")
    status = serializers.ChoiceField(choices=Round.Status.choices)


class DiscardOutSerializer(serializers.Serializer):
    discarded = serializers.IntegerField(help_text="the number of the round thrown away")


class OfficialsOutSerializer(serializers.Serializer):
    chief_arbiter = serializers.CharField(allow_null=True, help_text="a username")
    arbiters = serializers.ListField(child=serializers.CharField(), help_text="usernames, sorted")


class StandingRowSerializer(serializers.Serializer):
    """One line of the standings."""

    rank = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.FloatField()
    tiebreaks = serializers.DictField(
        child=serializers.FloatField(),
        help_text=(
            "each tie-break of the event by FIDE code (C.07), then by its earlier name where "
            "it had one (buchholz = BH, sonneborn_berger = SSB, wins = WON, ...)"
        ),
    )
    start_rank = serializers.IntegerField()
    withdrawn_after_round = serializers.IntegerField(
        allow_null=True, help_text="the last round before a withdrawal; null while playing"
    )


class CrossCellSerializer(serializers.Serializer):
    """One round of a crosstable line."""

    opponent_rank = serializers.IntegerField(allow_null=True)
    placed_first = serializers.BooleanField(allow_null=True)
    result = serializers.CharField(allow_blank=True, help_text="the symbol (see `legend`)")
    points = serializers.FloatField(allow_null=True)
    counted = serializers.BooleanField()
    penalized = serializers.BooleanField()


class CrosstableRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    start_rank = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    rating = serializers.IntegerField()
    withdrawn_after_round = serializers.IntegerField(allow_null=True)
    rounds = CrossCellSerializer(many=True)
    score = serializers.FloatField()
    tiebreaks = serializers.DictField(child=serializers.FloatField())


class CrosstableSerializer(serializers.Serializer):
    tournament = serializers.CharField(help_text="the tournament's slug")
    audit_head = AuditHeadSerializer(allow_null=True)
    rounds = serializers.IntegerField()
    tiebreaks = serializers.ListField(
        child=serializers.CharField(), help_text="the event's tie-breaks by FIDE code, in order"
    )
    tiebreak_legend = serializers.DictField(
        child=serializers.CharField(), help_text="each tie-break code's name"
    )
    legend = serializers.DictField(
        child=serializers.CharField(), help_text="what each mark of a cell means"
    )
    rows = CrosstableRowSerializer(many=True)
