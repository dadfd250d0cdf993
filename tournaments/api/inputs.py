"""Bodies of the tournaments' API actions (what a request sends): entrants, byes,
withdrawals, pairing, schedule, officials, penalties' revocations, a player's account, a
game's result and spindle choice."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from rest_framework import serializers

from klinzha_site.parsers import StrictCharField
from klinzha_site.parsing import ID_MAX, REASON_MAX, SMALL_MAX
from tournaments.models import Game, Player

User = get_user_model()


# The results one enters (a pending result is never entered): one enum in the schema,
# "ResultResultEnum" as it was always named (settings' ENUM_NAME_OVERRIDES).
RESULTS_ENTERED = [c for c in Game.Result.values if c]


class ResultSerializer(serializers.Serializer):
    result = serializers.ChoiceField(choices=RESULTS_ENTERED)


class SpindleChoiceSerializer(serializers.Serializer):
    """The choice declared after the cast (Art. 2.3): who chose (the option holder, or the
    other when granted the option) and the placement they took for themselves."""

    chooser = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, help_text="the player id of the combatant who chose"
    )
    placement = serializers.ChoiceField(choices=["first", "last"])


class RegistrationSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())


# Rows one batch may hold: a 20,000-player field registered at once, or its 10,000 boards.
BATCH_MAX = 20_000


class EntrantRowSerializer(serializers.Serializer):
    """One entrant: a known player (`player`, their id), or a new player: `name`, with
    `club` (a club's id) or `club_name` (the club of that name, made when there is none),
    `rating` and `federation`, as POST /api/players/ takes them."""

    player = serializers.IntegerField(min_value=1, max_value=ID_MAX, required=False)
    name = StrictCharField(multiline=False, max_length=120, required=False)
    club = serializers.IntegerField(min_value=1, max_value=ID_MAX, required=False)
    club_name = StrictCharField(multiline=False, max_length=120, required=False)
    rating = serializers.IntegerField(min_value=0, max_value=9999, required=False)
    federation = StrictCharField(multiline=False, max_length=3, required=False, allow_blank=True)
    fide_id = serializers.RegexField(
        r"^[0-9]{0,12}\Z", required=False, allow_blank=True, help_text="digits, 12 at most"
    )
    national_id = StrictCharField(multiline=False, max_length=20, required=False, allow_blank=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        new = set(attrs) - {"player"}
        if "player" in attrs and new:
            raise serializers.ValidationError(
                {name: "a known player's row gives no new player's fields" for name in new}
            )
        if "player" not in attrs and "name" not in attrs:
            raise serializers.ValidationError({"name": "give a player's id, or a new name"})
        if "club" in attrs and "club_name" in attrs:
            raise serializers.ValidationError({"club_name": "give club or club_name, not both"})
        return attrs


class EntrantBatchSerializer(serializers.Serializer):
    rows = serializers.ListField(
        child=EntrantRowSerializer(),
        min_length=1,
        max_length=BATCH_MAX,
        help_text="the entrants, in the order they are seeded among equals",
    )
    match = serializers.BooleanField(
        default=False,
        help_text=(
            "match each new player's row against the known players first (a known FIDE or "
            "national id; else the namesakes whose club, federation and ids agree): one is "
            "taken, several refuse the row (give the player's id); false: every such row "
            "makes a new player"
        ),
    )


class ResultRowSerializer(serializers.Serializer):
    """One game's result: the game by `board` (in this round) or by `game` (its id)."""

    board = serializers.IntegerField(min_value=1, max_value=SMALL_MAX, required=False)
    game = serializers.IntegerField(min_value=1, max_value=ID_MAX, required=False)
    result = serializers.ChoiceField(choices=RESULTS_ENTERED)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("board" in attrs) == ("game" in attrs):
            raise serializers.ValidationError({"board": "give a board or a game, one of them"})
        return attrs


class RoundResultsSerializer(serializers.Serializer):
    rows = serializers.ListField(
        child=ResultRowSerializer(), min_length=1, max_length=BATCH_MAX // 2
    )


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


class RevocationSerializer(serializers.Serializer):
    penalty = serializers.IntegerField(min_value=1, max_value=ID_MAX)
    reason = StrictCharField(max_length=REASON_MAX)


class AccountSerializer(serializers.Serializer):
    username = serializers.CharField(allow_blank=True, max_length=150)


class PlayerMergeSerializer(serializers.Serializer):
    other = serializers.IntegerField(
        min_value=1,
        max_value=ID_MAX,
        help_text="the player merged into this one, then deleted (their history follows)",
    )
