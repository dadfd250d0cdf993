"""The API's check-in: the arbiters' windows, list, overrides and closing (actions of the
tournament resource), and an entrant's own check-in (/api/check-in/: signed in, or by the
token of their private link, no account needed)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from klinzha_site.parsers import StrictCharField
from klinzha_site.parsing import SMALL_MAX
from tournaments import services
from tournaments.api.common import registration_get
from tournaments.api.errors import errors
from tournaments.check_in_selectors import (
    CheckInRow,
    check_in_next_round,
    check_in_rows,
    check_in_token_registration,
    check_in_window_for,
    check_in_windows,
)
from tournaments.models import CheckIn, CheckInWindow, Player, Registration, Tournament
from tournaments.roles import user_can_arbitrate, user_player

STATE_ERRORS = errors(400, 401, 403, 404, 409)


class CheckInWindowSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(
        source="round_number",
        min_value=0,
        max_value=SMALL_MAX,
        help_text="the round; 0 for the whole event (one check-in for every round)",
    )

    class Meta:
        model = CheckInWindow
        fields = ["round", "opens_at", "closes_at", "confirmed_at"]
        read_only_fields = ["confirmed_at"]


class CheckInSetSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    present = serializers.BooleanField(default=True)


class CheckInRowSerializer(serializers.Serializer):
    """An active entrant of the next round: checked in (true), marked absent (false) or
    not yet (null)."""

    player = serializers.IntegerField(source="registration.player_id")
    name = serializers.CharField(source="registration.player.name")
    present = serializers.BooleanField(allow_null=True)
    via = serializers.CharField()
    at = serializers.DateTimeField(allow_null=True)


class CheckInOutSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="registration.player_id")
    round = serializers.IntegerField(source="round_number", help_text="0: the whole event")
    present = serializers.BooleanField()
    via = serializers.CharField()


class CheckInClosedSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    missing = serializers.ListField(child=serializers.IntegerField(), help_text="player ids")
    treated = serializers.CharField(help_text="absent, withdrawn or paired")


class SelfCheckInSerializer(serializers.Serializer):
    token = StrictCharField(
        max_length=400, required=False, help_text="the private link's token (no account needed)"
    )
    tournament = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Tournament.objects.all(),
        required=False,
        help_text="the event, for a signed-in player",
    )


def _rows(t: Tournament) -> list[CheckInRow]:
    number = check_in_next_round(tournament=t)
    window = check_in_window_for(tournament=t, round_number=number)
    return [] if window is None else check_in_rows(tournament=t, window=window, round_number=number)


# Actions of TournamentViewSet (tournaments.api.tournaments), on /api/tournaments/{slug}/.
class CheckInActions(viewsets.GenericViewSet):
    @extend_schema(
        methods=["GET"], request=None, responses={200: CheckInWindowSerializer(many=True)}
    )
    @extend_schema(
        methods=["POST"],
        request=CheckInWindowSerializer,
        responses={201: CheckInWindowSerializer, **STATE_ERRORS},
    )
    @action(
        detail=True, methods=["get", "post"], url_path="check-in-windows", pagination_class=None
    )
    def check_in_windows(self, request: Request, slug: str | None = None) -> Response:
        """The check-in windows (GET); set one for a round not yet paired, or the event's
        (POST: round 0), which queues its reminder mails."""
        t = self.get_object()
        if request.method == "GET":
            return Response(CheckInWindowSerializer(check_in_windows(tournament=t), many=True).data)
        data = CheckInWindowSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        window = services.check_in_window_set(
            tournament=t,
            round_number=v["round_number"],
            opens_at=v["opens_at"],
            closes_at=v["closes_at"],
            user=request.user,
        )
        return Response(CheckInWindowSerializer(window).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        methods=["GET"],
        request=None,
        responses={200: CheckInRowSerializer(many=True), **errors(401, 403, 404)},
    )
    @extend_schema(
        methods=["POST"],
        request=CheckInSetSerializer,
        responses={200: CheckInOutSerializer, **STATE_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], url_path="check-in", pagination_class=None)
    def check_in(self, request: Request, slug: str | None = None) -> Response:
        """Who has checked in for the next round (GET, arbiters); check a player in, or mark
        them absent, whatever the window (POST, arbiters)."""
        t = self.get_object()
        if request.method == "GET":
            if not user_can_arbitrate(user=request.user, tournament=t):
                raise PermissionDenied(gettext("only this tournament's arbiters may do that"))
            return Response(CheckInRowSerializer(_rows(t), many=True).data)
        data = CheckInSetSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        made = services.check_in_record(
            registration=registration_get(tournament=t, player=data.validated_data["player"]),
            present=data.validated_data["present"],
            user=request.user,
        )
        return Response(CheckInOutSerializer(made).data)

    @extend_schema(request=None, responses={200: CheckInClosedSerializer, **STATE_ERRORS})
    @action(detail=True, methods=["post"], url_path="check-in/close")
    def check_in_close(self, request: Request, slug: str | None = None) -> Response:
        """Close the next round's check-in (after reading GET check-in): who did not check
        in is treated as the event's `check_in_missing` says."""
        t = self.get_object()
        number = check_in_next_round(tournament=t)
        missing = services.check_in_close(tournament=t, user=request.user)
        body = {
            "round": number,
            "missing": [reg.player_id for reg in missing],
            "treated": t.check_in_missing,
        }
        return Response(CheckInClosedSerializer(body).data)


class CheckInViewSet(viewsets.ViewSet):
    permission_classes = [permissions.AllowAny]
    serializer_class = SelfCheckInSerializer

    @extend_schema(
        request=SelfCheckInSerializer, responses={200: CheckInOutSerializer, **STATE_ERRORS}
    )
    def create(self, request: Request) -> Response:
        """Check oneself in for the next round while its window is open: by the token of
        one's private link (no account needed), or signed in, naming the tournament."""
        data = SelfCheckInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token = data.validated_data.get("token")
        reg: Registration | None
        if token:
            reg = check_in_token_registration(token=token)
            if reg is None:
                raise PermissionDenied(gettext("this check-in link is not valid"))
        else:
            t = data.validated_data.get("tournament")
            player = user_player(request.user)
            if t is None or player is None:
                raise PermissionDenied(gettext("sign in, or use your private check-in link"))
            reg = Registration.objects.filter(tournament=t, player=player).first()
            if reg is None:
                raise PermissionDenied(gettext("only the event's entrants check in"))
        made: CheckIn = services.check_in_record(
            registration=reg, user=request.user, by_link=bool(token)
        )
        return Response(CheckInOutSerializer(made).data)
