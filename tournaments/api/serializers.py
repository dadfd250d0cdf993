"""Serializers of the tournaments' REST API: clubs, players, tournaments, rounds and their
games, and the bodies of the tournament's actions."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from klinzha_site.parsing import ID_MAX, SMALL_MAX
from tournaments.audit import audit_head
from tournaments.models import (
    AuditEntry,
    Club,
    ForbiddenPair,
    Game,
    Penalty,
    Player,
    Registration,
    Round,
    Tournament,
)
from tournaments.selectors import game_result_counted, game_spindle, penalty_effects
from tournaments.services import SETTINGS

User = get_user_model()


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "short_name", "city", "country"]


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "federation", "rating"]
        # Four digits, as a TRF player line holds it (columns 49-52).
        extra_kwargs = {"rating": {"min_value": 0, "max_value": 9999}}


class AuditHeadSerializer(serializers.Serializer):
    """The audit chain's published head: keep it to check the trail later (kz audit verify
    SLUG --head SEQ:HASH)."""

    seq = serializers.IntegerField()
    hash = serializers.CharField()


class TournamentSerializer(serializers.ModelSerializer):
    audit_head = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        # Every setting tournament_update accepts, so that the API can read and change each
        # one; "name" stays ahead of "slug" as clients have always seen it.
        fields = [
            "id",
            "name",
            "slug",
            *(setting for setting in SETTINGS if setting != "name"),
            "audit_head",
        ]

    @extend_schema_field(AuditHeadSerializer(allow_null=True))
    def get_audit_head(self, obj: Tournament) -> dict[str, Any] | None:
        return audit_head(tournament=obj)


class GameSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", read_only=True)

    class Meta:
        model = Game
        fields = [
            "id",
            "round",
            "board",
            "kind",
            "first",
            "second",
            "first_color",
            "result",
            "result_confirmed",
            "spindle",
            "battles_annulled",
            "replay_from_version",
            "result_counted",
            "result_penalized",
        ]
        read_only_fields = fields
        # The API's name for what the game keeps from its first readable record.
        extra_kwargs = {"first_color": {"source": "first_colour_recorded"}}

    result_counted = serializers.SerializerMethodField(
        help_text="the result that counts for the standings: a battle declared lost (Art. "
        "12.4 d) decides the game, even one still pending; blank while none counts"
    )
    result_penalized = serializers.SerializerMethodField(
        help_text="a penalty of Art. 12.4 d, e or f sets the points that count (marked * in "
        "the crosstable)"
    )
    result_confirmed = serializers.SerializerMethodField()
    spindle = serializers.SerializerMethodField(
        help_text="Art. 2.3 with spindle placement: seed, casters, casts (ties recast), the "
        "option holder, granted, chooser, choice (first or last), first_placer; null without"
    )

    def _counted(self, game: Game) -> tuple[str, bool]:
        # Read once for both fields, and the tournament's penalties once for every game of
        # a list (one child serializer serves them all): no query per game.
        cache: dict[int, tuple[str, bool]] = self.__dict__.setdefault("_counted_cache", {})
        if game.pk not in cache:
            events: dict[int, Any] = self.__dict__.setdefault("_tournament_effects", {})
            tid = game.round.tournament_id
            if tid not in events:
                tournament = Tournament.objects.get(pk=tid)
                events[tid] = (tournament, penalty_effects(tournament=tournament))
            tournament, effects = events[tid]
            cache[game.pk] = game_result_counted(game=game, tournament=tournament, effects=effects)
        return cache[game.pk]

    def get_result_counted(self, game: Game) -> str:
        return self._counted(game)[0]

    def get_result_penalized(self, game: Game) -> bool:
        return self._counted(game)[1]

    def get_result_confirmed(self, game: Game) -> bool:
        return game.result_confirmed_at is not None

    def get_spindle(self, game: Game) -> dict[str, Any] | None:
        return game_spindle(game)


class RoundSerializer(serializers.ModelSerializer):
    games = GameSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = ["number", "status", "explanation", "warnings", "games", "starts_at", "place"]


class ResultSerializer(serializers.Serializer):
    result = serializers.ChoiceField(choices=[c for c in Game.Result.values if c])


class SpindleChoiceSerializer(serializers.Serializer):
    """The choice declared after the cast (Art. 2.3): who chose (the option holder, or the
    other when granted the option) and the placement they took for themselves."""

    chooser = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, help_text="the player id of the combatant who chose"
    )
    placement = serializers.ChoiceField(choices=["first", "last"])


class RegistrationSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


class EntrantSerializer(serializers.ModelSerializer):
    """An entrant as the registrations list shows them."""

    name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Registration
        fields = ["player", "name", "start_rank", "rating", "status", "first_round", "last_round"]
        read_only_fields = fields


class StartRankSerializer(serializers.Serializer):
    """Either `sort` (seed again by rating) or `player` and `rank` (move one entrant)."""

    sort = serializers.BooleanField(default=False)
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), required=False)
    rank = serializers.IntegerField(min_value=1, max_value=100_000, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs["sort"] and ("player" not in attrs or "rank" not in attrs):
            raise serializers.ValidationError("give sort: true, or a player and a rank")
        return attrs


class WithdrawalSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    expelled = serializers.BooleanField(default=False)


class ByeRequestSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    round = serializers.IntegerField(min_value=1, max_value=SMALL_MAX)


class PairSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, max_value=SMALL_MAX, required=False)
    publish = serializers.BooleanField(default=False)
    background = serializers.BooleanField(
        default=False, help_text="pair in a worker; poll the job for progress (202)"
    )


class ScheduleSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, max_value=1000)
    starts_at = serializers.DateTimeField(allow_null=True)
    place = serializers.CharField(max_length=120, allow_blank=True, default="")


class PlayerPairSerializer(serializers.Serializer):
    first = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    second = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


class ForbiddenPairSerializer(serializers.ModelSerializer):
    first_name = serializers.CharField(source="first.name", read_only=True)
    second_name = serializers.CharField(source="second.name", read_only=True)

    class Meta:
        model = ForbiddenPair
        fields = ["first", "first_name", "second", "second_name"]
        read_only_fields = fields


class RoundNumberSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, max_value=SMALL_MAX)


class PairingEditSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, max_value=SMALL_MAX)
    pairings = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(allow_null=True, min_value=1, max_value=ID_MAX),
            min_length=2,
            max_length=2,
        ),
        max_length=10_000,
        help_text="[[first placer id, second id or null for the bye], ...]",
    )


class OfficialsSerializer(serializers.Serializer):
    chief_arbiter = serializers.SlugRelatedField(
        slug_field="username", queryset=User.objects.all(), allow_null=True, required=False
    )
    arbiters = serializers.SlugRelatedField(
        slug_field="username", queryset=User.objects.all(), many=True, required=False
    )


class PenaltySerializer(serializers.ModelSerializer):
    # A penalty of time (12.4 b, c, 12.5) applies from this ply of the game's record on; left
    # out, from the moment it is imposed (GET /api/games/{id}/clock-adjustments/ shows it).
    from_ply = serializers.IntegerField(
        write_only=True, required=False, min_value=1, max_value=2**31 - 1
    )

    class Meta:
        model = Penalty
        fields = [
            "id",
            "player",
            "game",
            "round_number",
            "kind",
            "article",
            "reason",
            "amount",
            "revokes",
            "created_at",
            "from_ply",
        ]
        read_only_fields = ["id", "article", "revokes", "created_at"]
        # The same bounds on every database (SQLite would take what PostgreSQL refuses).
        extra_kwargs = {
            "round_number": {"min_value": 1, "max_value": SMALL_MAX},
            "reason": {"max_length": 2000},
        }


class RevocationSerializer(serializers.Serializer):
    penalty = serializers.IntegerField(min_value=1, max_value=ID_MAX)
    reason = serializers.CharField(max_length=2000)


class AccountSerializer(serializers.Serializer):
    username = serializers.CharField(allow_blank=True, max_length=150)


class AuditSerializer(serializers.ModelSerializer):
    # What the entry is about, as a person reads it (context "labels": the selector's map).
    object = serializers.SerializerMethodField()

    def get_object(self, entry: AuditEntry) -> str:
        labels = self.context.get("labels", {})
        return str(labels.get((entry.object_type, entry.object_id), ""))

    class Meta:
        model = AuditEntry
        fields = [
            "object",
            "seq",
            "actor",
            "action",
            "object_type",
            "object_id",
            "before",
            "after",
            "created_at",
            "hash",
        ]
