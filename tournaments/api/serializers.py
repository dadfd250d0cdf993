"""Serializers of the tournaments' REST API resources: clubs, players, tournaments, rounds
and their games, entrants, forbidden pairs, penalties, audit entries (what actions take:
tournaments.api.inputs; what they answer beyond these: tournaments.api.outputs)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from klinzha_site.parsers import StrictCharField
from klinzha_site.parsing import REASON_MAX, SMALL_MAX
from tournaments.audit import audit_head
from tournaments.models import (
    AuditEntry,
    Club,
    Colour,
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
from tournaments.time_controls import time_control_words


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "short_name", "city", "country"]


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        # `rating` is the declared rating (from outside the site's pools), `rating_source`
        # where it comes from: GET /api/players/{id}/ratings/ has the pools' ratings.
        fields = ["id", "name", "club", "federation", "rating", "rating_source"]
        # Four digits, as a TRF player line holds it (columns 49-52).
        extra_kwargs = {"rating": {"min_value": 0, "max_value": 9999}}


class AuditHeadSerializer(serializers.Serializer):
    """The audit chain's published head: keep it to check the trail later (kz audit verify
    SLUG --head SEQ:HASH)."""

    seq = serializers.IntegerField()
    hash = serializers.CharField()


class TournamentSerializer(serializers.ModelSerializer):
    audit_head = serializers.SerializerMethodField()
    time_control_display = serializers.SerializerMethodField(
        help_text="The time control in words, in the request's language (Art. 6.4); "
        "`time_control` keeps the record format (seconds)."
    )

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
            "time_control_display",
        ]

    def get_time_control_display(self, obj: Tournament) -> str:
        return time_control_words(obj.time_control)

    @extend_schema_field(AuditHeadSerializer(allow_null=True))
    def get_audit_head(self, obj: Tournament) -> dict[str, Any] | None:
        return audit_head(tournament=obj)


class GameSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", read_only=True)
    # Blank until known (a read-only model field would lose its blank in the schema).
    first_color = serializers.ChoiceField(
        choices=Colour.choices, allow_blank=True, read_only=True, source="first_colour_recorded"
    )

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


class EntrantSerializer(serializers.ModelSerializer):
    """An entrant as the registrations list shows them."""

    name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Registration
        fields = [
            "player",
            "name",
            "start_rank",
            "rating",
            "rating_basis",
            "status",
            "first_round",
            "last_round",
        ]
        read_only_fields = fields
        extra_kwargs = {
            "rating_basis": {
                "help_text": "where `rating` came from: pool (the player's rating in the "
                "event's pool), declared (Player.rating), provisional (the provisional pool "
                "rating); empty: none, or entered before pools"
            }
        }


class ForbiddenPairSerializer(serializers.ModelSerializer):
    first_name = serializers.CharField(source="first.name", read_only=True)
    second_name = serializers.CharField(source="second.name", read_only=True)

    class Meta:
        model = ForbiddenPair
        fields = ["first", "first_name", "second", "second_name"]
        read_only_fields = fields


class PenaltySerializer(serializers.ModelSerializer):
    # A penalty of time (12.4 b, c, 12.5) applies from this ply of the game's record on; left
    # out, from the moment it is imposed (GET /api/games/{id}/clock-adjustments/ shows it).
    from_ply = serializers.IntegerField(
        write_only=True, required=False, min_value=1, max_value=2**31 - 1
    )
    # Sent as text: a number is refused, not stored as its digits.
    reason = StrictCharField(max_length=REASON_MAX)

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
        }


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
